"""characters.kept: values kept under the rules they were worked out with, at most a limit of
them, the oldest going first; the rules held weakly, so a value outlives none."""

import gc

from characters.kept import KeptUnderRules


class Rules:  # a Ruleset stands here: anything a weak reference can hold
    pass


def test_a_value_says_the_rules_it_was_kept_under_until_they_are_gone():
    kept, rules = KeptUnderRules(limit=4), Rules()
    kept.put("Tess", rules, "her card")
    assert kept.get("Tess") == (rules, "her card")
    assert kept.get("Otto") is None
    del rules
    gc.collect()
    assert kept.get("Tess") == (None, "her card")


def test_the_oldest_goes_first_past_the_limit():
    kept, rules = KeptUnderRules(limit=2), Rules()
    for name in ("Tess", "Otto", "Ann"):
        kept.put(name, rules, name.lower())
    assert [kept.get(name) for name in ("Tess", "Otto", "Ann")] == [
        None,
        (rules, "otto"),
        (rules, "ann"),
    ]
