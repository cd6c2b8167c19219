"""Price a character against a ruleset and check every creation rule: the build report.

`build_report(character, ruleset)` never raises for a legal-but-broken build; everything wrong
becomes an Issue with a stable code, a message that says how to fix it, and the section of
the rule text it comes from. The JSON form is the public contract (spec: character-file.md).
A message is a Phrase (rules.words): English by default, and said in another language by the
adapter layer (characters/wording.py) from the same template and values.
"""

from rules.report.building import build_report, ruleset_attributes, scale_notes, scale_phrases
from rules.report.issues import Issue, Report
from rules.report.levels import POWER_DIFFICULTY, power_difficulty, power_potential
from rules.trades import POOLS, Trade, amount

__all__ = [
    "POOLS",
    "POWER_DIFFICULTY",
    "Issue",
    "Report",
    "Trade",
    "amount",
    "build_report",
    "power_difficulty",
    "power_potential",
    "ruleset_attributes",
    "scale_notes",
    "scale_phrases",
]
