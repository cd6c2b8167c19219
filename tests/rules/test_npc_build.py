"""Issue 43: a GM's NPC is made with only the traits that matter. Without a budget the build
report leaves out the budget's verdicts and the creation limits, allows Legendary (Mudge
4.33; Fudge 1995 1.2: PCs may not start at it, NPCs may), and still bounds every level by
the ladder; with `budget` the GM asked for, it is priced as a player character is."""

import dataclasses

import pytest

from rules.character import Character, Fault, Npc, Trait
from rules.charfile import CharacterFileError, read_character, write_character
from rules.house_rules import apply_house_rules
from rules.ladder import GOOD, LEGENDARY, SUPERB, TERRIBLE
from rules.report import build_report
from rules.rulesets import BUILTIN
from tests.support.sources import rule_text

MUDGE_TEXT = rule_text("002")
FUDGE_TEXT = rule_text("001")
NO_BUDGET = Npc()


def mudge(npc=None, **lists) -> Character:
    return Character(ruleset="mudge", name="Swordswoman", npc=npc, **lists)


def report(character: Character):
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    return build_report(character, ruleset)


def codes(issues) -> list[str]:
    return [issue.code for issue in issues]


# The Legendary swordswoman: three Legendary skills and a dozen Superb ones are over Mudge's
# budget (1.6: 45 free skill levels, at most 2 Superb skills) and Legendary is refused at
# creation for a PC (Mudge 1.2).
SWORDSWOMAN = {
    "attributes": (Trait("Strength", SUPERB),),
    "skills": (
        Trait("Sword", LEGENDARY),
        Trait("Dodge", LEGENDARY),
        Trait("Riding", LEGENDARY),
        *(Trait(f"Lore {n}", SUPERB) for n in range(12)),
    ),
}


def test_the_rule_texts_keep_legendary_for_npcs():
    assert "4.33 PCs vs. NPCs" in MUDGE_TEXT
    assert "meeting an *NPC* Legendary swordswoman" in MUDGE_TEXT
    assert "No trait may be taken at (or raised to) a level beyond Superb" in FUDGE_TEXT


def test_a_pc_with_the_same_traits_breaks_the_budget_and_legendary():
    found = codes(report(mudge(**SWORDSWOMAN)).errors)
    assert "over_budget" in found
    assert "cap_exceeded" in found
    assert found.count("level_out_of_range") == 3  # each Legendary skill


def test_an_npc_without_a_budget_is_valid_and_still_priced():
    pc, npc = report(mudge(**SWORDSWOMAN)), report(mudge(NO_BUDGET, **SWORDSWOMAN))
    assert npc.errors == [] and npc.valid
    assert codes(npc.warnings) == []
    assert npc.trades == []
    # What its traits would cost stays in the report, the same as the PC's.
    assert npc.costs == pc.costs
    assert npc.pools == pc.pools
    assert npc.balance == pc.balance < 0


def test_an_npc_is_still_bounded_by_the_ladder():
    over_the_top = mudge(NO_BUDGET, skills=(Trait("Sword", LEGENDARY + 1),))
    (issue,) = report(over_the_top).errors
    assert issue.code == "level_out_of_range"
    assert issue.where == "skills[0]"
    assert issue.section == "Mudge 1.2"
    assert "above the ladder's top, Legendary" in issue.message
    below_the_floor = mudge(NO_BUDGET, attributes=(Trait("Strength", TERRIBLE - 1),))
    assert codes(report(below_the_floor).errors) == ["level_out_of_range"]


def test_an_npc_without_a_budget_keeps_the_other_rules():
    broken = mudge(
        NO_BUDGET,
        attributes=(Trait("Strength", GOOD), Trait("Luck", GOOD)),  # Mudge has no Luck
        skills=(Trait("Sword", GOOD), Trait("sword", GOOD)),
    )
    assert codes(report(broken).errors) == ["unknown_trait", "duplicate_trait"]


def test_scale_is_still_priced_for_an_npc():
    # Mudge 2.34: each step of Strength Scale costs an attribute level; an NPC's cost says so.
    ogre = mudge(NO_BUDGET, scale_strength=2)
    assert report(ogre).pools["attributes"]["spent"] == 2


def test_an_npc_the_gm_budgets_is_priced_as_a_pc():
    budgeted = mudge(Npc(budget=True), **SWORDSWOMAN)
    assert codes(report(budgeted).errors) == codes(report(mudge(**SWORDSWOMAN)).errors)


@pytest.mark.parametrize("ruleset", ["microfudged-streamlined"])
def test_a_tokens_npc_spends_what_it_needs(ruleset):
    # DIP VIII.3: 15 tokens, none above Great at creation; a PC over them is over budget.
    brute = Character(
        ruleset=ruleset,
        name="Brute",
        attributes=tuple(Trait(name, SUPERB) for name in ("Mind", "Mastery", "Presence")),
    )
    assert set(codes(report(brute).errors)) == {"over_budget", "level_out_of_range"}
    npc = report(dataclasses.replace(brute, npc=NO_BUDGET))
    assert npc.valid and codes(npc.warnings) == []


def test_the_file_carries_the_npc_section_and_reads_it_back():
    crew = mudge(Npc(group_size=3), faults=(Fault("Greedy", 1),))
    data = write_character(crew)
    assert data["npc"] == {"group_size": 3, "budget": False}
    assert read_character(data).character.npc == Npc(group_size=3, budget=False)
    assert "npc" not in write_character(mudge())  # a PC's file is unchanged
    assert read_character(write_character(mudge())).character.npc is None


@pytest.mark.parametrize(
    "npc, where",
    [
        ({"group_size": 0}, "npc.group_size"),
        ({"group_size": 51}, "npc.group_size"),
        ({"budget": "yes"}, "npc.budget"),
        ([], "npc"),
    ],
)
def test_a_bad_npc_section_is_unreadable_where_it_is(npc, where):
    data = write_character(mudge()) | {"npc": npc}
    with pytest.raises(CharacterFileError) as raised:
        read_character(data)
    assert raised.value.where == where
