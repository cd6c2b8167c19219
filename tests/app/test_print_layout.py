"""The printed page: a standard character fits one page of A4 and of Letter, fillable or
flat; the footer stays one line whatever the name; a draft is marked across every page.
Real PDFs from WeasyPrint, read back with pypdf."""

from dataclasses import replace
from fractions import Fraction

import pytest

from characters.pdf import render_sheets_pdf
from characters.print_options import PrintOptions
from characters.sheets import ApprovalStamp
from rules.character import Character, Equipment, Fault, Gift, Trait
from rules.ladder import FAIR, GOOD, GREAT
from tests.support.pdf_helpers import A4, LETTER, fields, pages, sheet, size, texts

FOOTER_BAND = 40  # points from the bottom edge: the page's bottom margin, where the footer sits

SKILLS = (
    "Axe", "Sword", "Spear", "Shield", "Brawling", "Dodge", "Climbing", "Swimming", "Riding",
    "Survival", "Tracking", "First Aid", "Haggle", "Intimidation", "Sailing", "Carousing",
    "Gambling", "Area Knowledge: the Baltic coast", "Language: Frankish", "Tactics",
    "Running", "Stealth", "Wrestling", "Throwing", "Weather Sense",
)  # fmt: skip


GIFTS = (
    "Toughness", "Combat Reflexes", "Danger Sense", "Ambidextrous",
    "Reputation as a fair trader", "Night Vision", "Rapid Healing", "Strong Will",
)  # fmt: skip
FAULTS = (
    "Code of Honour", "Stubborn", "Enemy: the Jarl of Hedeby and his sons", "Quick-tempered",
    "Greedy", "Overconfident", "Vow: never flee a fight", "Illiterate",
)  # fmt: skip


def standard_character(**changes) -> Character:
    """The issue's "standard character": 8 attributes, 25 skills, 8 gifts and 8 faults, a
    few weapons and armour, personality and a history."""
    levels = (GREAT, GOOD, GOOD, FAIR, FAIR)
    attributes = (
        "Strength", "Dexterity", "Constitution", "Speed", "Intelligence", "Willpower",
        "Perception", "Charisma",
    )  # fmt: skip
    character = Character(
        ruleset="mudge",
        name="Sigrun Haraldsdottir",
        player="Astrid",
        concept="Shield-maiden turned caravan guard",
        race="Human",
        attributes=tuple(Trait(name, levels[i % 5]) for i, name in enumerate(attributes)),
        skills=tuple(Trait(name, levels[i % 5] - (i % 2)) for i, name in enumerate(SKILLS)),
        gifts=tuple(Gift(name, Fraction(1)) for name in GIFTS),
        faults=tuple(Fault(name, Fraction(1)) for name in FAULTS),
        equipment=(
            Equipment("Broadsword", "weapon", damage=3),
            Equipment("Spear", "weapon", damage=2),
            Equipment("Round shield", "shield", armour=1),
            Equipment("Mail shirt", "armour", armour=2),
            Equipment("Backpack, rope, torches"),
        ),
        personality={
            "What does she want?": "A steading of her own and peace for her brothers.",
            "What does she fear?": "Dying of old age in someone else's hall.",
            "Who does she trust?": "Her shield-brother Ketil, and nobody from Hedeby.",
        },
        notes="Joined the caravan at Birka after the winter of the long feud. Speaks Norse "
        "and a little Frankish. Owes Ketil a life.",
    )
    return replace(character, **changes)


@pytest.mark.parametrize(
    ("paper", "fillable", "expected"),
    [("a4", True, A4), ("a4", False, A4), ("letter", True, LETTER), ("letter", False, LETTER)],
)
def test_a_standard_character_fits_one_page(paper, fillable, expected):
    document = render_sheets_pdf(
        [sheet(standard_character())], PrintOptions(paper, fillable=fillable)
    )
    assert [size(page) for page in pages(document)] == [expected]
    [text] = texts(document)
    for row in (
        "Weather Sense: Fair 0",  # the 25th skill
        "Illiterate",  # the 8th fault
        "Broadsword: Strength [2] + Strength Scale [0] + Weapon [3] = +5",
        "Her shield-brother Ketil, and nobody from Hedeby.",
        "NOTES IN PLAY",
    ):
        assert row in text
    assert bool(fields(document)) is fillable


def test_the_footer_is_one_line_whatever_the_name():
    """A 60-character CJK name, wider than the footer, and a 200-letter name: cut short,
    never wrapped; the page number stays on the same line."""
    for name in ("龍" * 60, "Aelfwynn " * 22):
        document = render_sheets_pdf([sheet(standard_character(name=name.strip()))])
        for page in pages(document):
            baselines = set()

            def footer(text, matrix, text_matrix, font, size, baselines=baselines):
                y = text_matrix[5] * matrix[3] + matrix[5]
                if text.strip() and y < FOOTER_BAND:
                    baselines.add(round(y))

            page.extract_text(visitor_text=footer)
            # One line: fonts differ by a point or so, a second line would be 8 points lower.
            assert max(baselines) - min(baselines) < 4, (name[:10], baselines)
        found = texts(document)
        for number, text in enumerate(found, 1):
            assert text.endswith(f" Page {number} of {len(found)}")
    assert found[0].endswith("Aelfwynn Aelfw… Draft · not approved Page 1 of 1")  # cut at 60


def test_a_draft_is_marked_across_every_page_an_approved_sheet_is_not():
    many = tuple(Trait(f"Lore of the {i:03d}th Valley", GOOD) for i in range(300))
    draft = render_sheets_pdf([sheet(standard_character(skills=many))])
    found = texts(draft)
    assert len(found) >= 2
    for text in found:
        assert text.startswith("DRAFT · NOT APPROVED")  # drawn first, behind the sheet
        assert "Draft · not approved" in text  # and the stamp in the footer
    approved = render_sheets_pdf([sheet(standard_character(), ApprovalStamp("a" * 64))])
    [text] = texts(approved)
    assert "DRAFT" not in text and f"Approved · SHA-256 {'a' * 64}" in text


def test_an_approval_over_broken_rules_prints_its_reason_once_under_the_name():
    reason = "approved over budget by 3 skill levels: " + "the siege of Dunmoor, " * 20
    document = render_sheets_pdf([sheet(standard_character(), ApprovalStamp("b" * 64, reason))])
    text = " ".join(texts(document))
    assert "A" + reason.strip()[1:] in text  # whole, once under the heading
    assert text.count("the siege of Dunmoor") == 20
    assert text.count(f"Approved · SHA-256 {'b' * 64}") == 1  # the footer: the hash alone
