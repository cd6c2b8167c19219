"""What each broken rule (a report issue's stable code) is called where people read it: the
house-rules preview, a template's preview, the GM's form. The codes stay in the JSON report
and the check command; a page never shows one."""

import re

RULE_NAMES = {
    "amount": "an amount that is not a number",
    "attribute_names": "attributes the rules do not list",
    "cap_exceeded": "too many traits at a high level",
    "cap_slots_traded": "high-level slots traded for lower ones",
    "difficulty_not_allowed": "a difficulty the rules do not use",
    "duplicate_trait": "the same trait twice",
    "level_missing": "a trait with no level",
    "level_out_of_range": "a level out of range at creation",
    "levels_unspent": "levels left unspent",
    "lowered_with_levels_unspent": "a trait lowered while levels are unspent",
    "meta_points_out_of_range": "meta points out of range",
    "must_save_token": "a token that must be saved",
    "must_spend_token": "a token that must be spent",
    "not_in_ruleset": "a trait these rules do not have",
    "over_budget": "over budget",
    "power_potential": "a power's potential",
    "power_requires_gift": "a power without the gift it needs",
    "tokens_lost": "tokens lost",
    "too_few_faults": "too few faults",
    "too_many_lowered": "too many skills lowered below their default",
    "too_many_skills": "too many skills",
    "too_many_uncommitted": "too many uncommitted traits",
    "uncommitted_too_high": "an uncommitted trait set too high",
    "unknown_field": "a field the character file does not have",
    "unknown_trait": "a trait the rules do not know",
}


def rule_name(code: str) -> str:
    """A broken rule in words; a code not listed here reads as words too, never as code."""
    return RULE_NAMES.get(code, code.replace("_", " "))


SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)+")


def in_words(value) -> str:
    """A stored value as a reader says it: no JSON, no snake_case ("very_hard" is "very
    hard"; a personality's answers are "values: honour; fears: heights"; a cap table is
    "Superb: 1; Great: 2")."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{in_words(k)}: {in_words(v)}" for k, v in value.items() if v != "")
    if isinstance(value, list | tuple):
        return ", ".join(in_words(v) for v in value)
    text = str(value)
    return text.replace("_", " ") if SNAKE.fullmatch(text) else text
