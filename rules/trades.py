"""The trades that balance a levels build's pools, as a GM writes them (Mudge 1.63, 1.64;
Fudge Basics, Trading Values).

Trades go "in either direction" and chain: 3 skill levels -> 1 attribute level, then 2
attribute levels -> 1 gift; a half fault -> 3 skill levels. Each trade moves value at the
exact rate (1 attribute level = 3 skill levels, 1 gift = 6, 1 fault = 6, or the house
rule's values) and never changes the balance, so the pools can be balanced exactly when the
balance is 0 or more.

`find_trades` returns the fewest trades that leave no pool below zero. Among lists of that
length it prefers one a GM would write: whole units on both sides ("1 fault -> 6 skill
levels", not "1/2 fault -> 3 skill levels" when the fault is whole), faults first (a fault
exists to pay for something, 1.63), then the sources in TRADE_SOURCES order.

Why at most three trades are ever needed: the four pools (attributes, skills, gifts and
faults) form a forest of trades, and a forest on four nodes has at most three edges. Each
group of pools that pays for itself can be settled with one trade fewer than it has pools,
each trade either emptying its source or exactly filling its target's shortfall.
"""

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from rules.house_rules import json_number
from rules.rulesets import STANDARD_TERMS, Terms
from rules.words import Phrase, say

POOLS = ("attributes", "skills", "gifts")
# Which surplus pays for which shortfall first: faults before levels (Mudge 1.63).
TRADE_SOURCES = {
    "gifts": ("faults", "skills", "attributes"),
    "attributes": ("faults", "skills", "gifts"),
    "skills": ("faults", "attributes", "gifts"),
}
MAX_TRADES = 3


@dataclass(frozen=True)
class Trade:
    give_pool: str
    give: Fraction | int
    get_pool: str
    get: Fraction | int
    # The ruleset's words for the pools (rules.rulesets.Terms), for people; not the trade.
    terms: Terms | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        return {
            "give": {"pool": self.give_pool, "amount": json_number(self.give)},
            "get": {"pool": self.get_pool, "amount": json_number(self.get)},
        }

    def __str__(self) -> str:
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """The trade for a person, "3 skill levels → 1 attribute level", in any language."""
        return say(
            "{give} → {get}",
            give=amount_phrase(self.give, self.give_pool, self.terms),
            get=amount_phrase(self.get, self.get_pool, self.terms),
        )


def amount(value, pool: str, terms: Terms | None = None) -> str:
    """'3 skill levels', '1 gift', '0.5 faults'; with a ruleset's `terms` (Terms.pool_words),
    in its words: '3 knack levels'."""
    return str(amount_phrase(value, pool, terms))


def amount_phrase(value, pool: str, terms: Terms | None = None) -> Phrase:
    """amount() as a phrase (rules.words), for a message another language can say: the
    unit is a Noun, so the built-in rulesets' units are translated and a GM's own ("knack
    levels") is said as written (characters/wording.py)."""
    unit = (terms or STANDARD_TERMS).pool_noun(pool, value)
    return say("{amount} {unit}", amount=value, unit=unit)


def find_trades(remaining: dict, faults, values: dict, terms=None) -> list[Trade]:
    """The fewest trades that cover every pool's shortfall. `remaining` is each pool's budget
    less what it spent (attributes, skills, gifts), `faults` the faults' value in gifts,
    `values` each pool's worth in skill levels. Empty when nothing is short, or when the
    balance is negative and nothing can cover it (the report's over_budget)."""
    if all(remaining[pool] >= 0 for pool in POOLS):
        return []  # the common case, before any arithmetic
    # The search runs on whole numbers: each pool's value in skill levels, times a common
    # multiple of every denominator, so halves and house values cost no Fraction arithmetic
    # (ints and Fractions both have a numerator and a denominator).
    held = {**{pool: remaining[pool] for pool in POOLS}, "faults": faults}
    pools = tuple(held)
    scale = lcm(*(values[p].denominator for p in pools)) * lcm(
        *(held[p].denominator for p in pools)
    )
    unit = {p: values[p].numerator * scale // values[p].denominator for p in pools}
    state = {p: held[p].numerator * unit[p] // held[p].denominator for p in pools}
    if sum(state.values()) < 0:
        return []
    for depth in range(1, MAX_TRADES + 1):
        for whole in (True, False):
            found = _search(state, unit, depth, whole)
            if found is not None:
                return [
                    Trade(
                        source,
                        _plain(Fraction(moved, unit[source])),
                        target,
                        _plain(Fraction(moved, unit[target])),
                        terms,
                    )
                    for source, target, moved in found
                ]
    return []  # unreachable when the balance is 0 or more (module docstring)


def _search(state, unit, depth, whole):
    """Depth-first: the first list of at most `depth` moves that leaves no pool short."""
    short = [pool for pool in POOLS if state[pool] < 0]
    if not short:
        return []
    if len(short) > depth:  # each trade fills at most one pool
        return None
    # With as many trades left as pools short, each must fill one of them at once.
    must_fill = len(short) == depth
    for source, target, moved in _moves(state, unit, short, whole, must_fill):
        after = dict(state)
        after[source] -= moved
        after[target] += moved
        rest = _search(after, unit, depth - 1, whole)
        if rest is not None:
            return [(source, target, moved), *rest]
    return None


def _moves(state, unit, short, whole, must_fill):
    """Candidate trades (source, target, value moved), in the order of preference. With
    `whole`, both sides are whole units, or the whole of what the source holds, or exactly
    the target's shortfall; without, one side is enough (the pools hold halves, or the trade
    values do not divide). With `must_fill`, only trades that fill a short pool."""
    seen = set()
    for target in _targets(short, whole, must_fill):
        need = -state[target]
        least = need if must_fill else 1
        for source in TRADE_SOURCES[target]:
            have = state[source]
            if have < least or have <= 0:
                continue
            for moved in _amounts(state, unit, short, source, target):
                if not least <= moved <= have or (source, target, moved) in seen:
                    continue
                natural_give = moved % unit[source] == 0 or moved == have
                natural_get = moved % unit[target] == 0 or moved == need
                if (natural_give and natural_get) if whole else (natural_give or natural_get):
                    seen.add((source, target, moved))
                    yield source, target, moved


def _targets(short, whole, must_fill) -> list[str]:
    """The pools a trade may fill: shortfalls first, in TRADE_SOURCES order; then, with
    `whole` and without `must_fill`, the pools that pass value on in a chain."""
    targets = [t for t in TRADE_SOURCES if t in short]
    if whole and not must_fill:
        targets += [t for t in TRADE_SOURCES if t not in short]
    return targets


def _amounts(state, unit, short, source, target):
    """The value `source` might pass to `target`: exactly its shortfall, that rounded up to
    whole source units, enough for `target` to pay another short pool (exactly, or in
    whole units of its own), or everything the source holds."""
    need = -state[target]
    if need > 0:
        yield need
        yield _round_up(need, unit[source])
    else:
        for other in short:
            if other in (source, target):
                continue
            owed = -state[other]
            for holding in (owed, _round_up(owed, unit[target])):
                lacking = holding - state[target]
                if lacking > 0:
                    yield _round_up(lacking, unit[target])
                    yield lacking
    yield state[source]


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def _plain(amount: Fraction):
    """An int when whole (the JSON and the messages read "3", not "3/1")."""
    return amount.numerator if amount.denominator == 1 else amount
