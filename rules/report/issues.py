"""The build report and its issues: what pricing a character gives, and its JSON form (the
public contract, spec: character-file.md)."""

from dataclasses import dataclass, field
from fractions import Fraction

from rules import ledger
from rules.house_rules import json_number
from rules.trades import Trade
from rules.words import ENGLISH, Phrase, say_in


@dataclass(frozen=True)
class Issue:
    code: str
    phrase: Phrase | str  # the message: a Phrase, or a str a reader passed on as it was
    section: str  # a citation: the rule text's own section numbers, never translated
    trait: str | None = None
    where: str | None = None  # e.g. "skills[3]": the row the builder highlights

    @property
    def message(self) -> str:
        """The message in English (the report's language by default)."""
        return say_in(self.phrase, ENGLISH)

    def to_json(self, speaker=ENGLISH) -> dict:
        """The report's form of the issue; `speaker` says its message (rules.words)."""
        out = {"code": self.code}
        if self.trait is not None:
            out["trait"] = self.trait
        out["message"] = say_in(self.phrase, speaker)
        out["section"] = self.section
        if self.where is not None:
            out["where"] = self.where
        return out


@dataclass
class Report:
    ruleset: str
    unit: str
    pools: dict[str, dict[str, Fraction]]
    balance: Fraction
    trades: list[Trade] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    # cost of each listed trait in its pool's unit, by list name: for the builder's rows
    costs: dict[str, list[int | Fraction]] = field(default_factory=dict)
    # With an experience ledger: awarded, spent and unspent (rules.ledger.Summary)
    advancement: ledger.Summary | None = None
    # A designed game's derived values for the character (rules.derived.DerivedValue)
    derived: list = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self, speaker=ENGLISH) -> dict:
        """The build report (spec: character-file.md); `speaker` says the issues' messages,
        English unless the adapter layer passes another language's (characters/wording.py)."""
        return (
            {
                "valid": self.valid,
                "ruleset": self.ruleset,
                "unit": self.unit,
                "pools": {
                    pool: {key: json_number(v) for key, v in numbers.items()}
                    for pool, numbers in self.pools.items()
                },
                "balance": json_number(self.balance),
                "trades": [t.to_json() for t in self.trades],
                "errors": [e.to_json(speaker) for e in self.errors],
                "warnings": [w.to_json(speaker) for w in self.warnings],
            }
            | ({"advancement": self.advancement.to_json()} if self.advancement else {})
            | ({"derived": {d.derived.key: d.value for d in self.derived}} if self.derived else {})
        )
