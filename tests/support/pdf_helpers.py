"""Reading the PDFs the tests render: pages, their text, their form fields, their fonts.
Sheets are built from the sample character files, as render_sheet builds them."""

import io
from pathlib import Path

from pypdf import PdfReader

from characters.sheets import build_sheet
from rules.character import Character
from rules.charfile import parse_character_json
from rules.house_rules import apply_house_rules
from rules.rulesets import BUILTIN

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
A4, LETTER = (595, 842), (612, 792)


def sample(stem: str) -> Character:
    return parse_character_json((SAMPLES / f"{stem}.json").read_text()).character


def ruleset_of(character: Character):
    return apply_house_rules(BUILTIN[character.ruleset], character.house_rules)


def sheet(character: Character, approval=None, ledger=()):
    return build_sheet(character, ruleset_of(character), approval, ledger)


def campaign_pack(*args, **kwargs) -> bytes:
    """render_campaign_pack_pdf's file, in memory (the worker writes it to a file)."""
    from characters.pdf import render_campaign_pack_pdf

    output = io.BytesIO()
    render_campaign_pack_pdf(output, *args, **kwargs)
    return output.getvalue()


def pages(document: bytes) -> list:
    assert document.startswith(b"%PDF-")
    return list(PdfReader(io.BytesIO(document)).pages)


def flat(text: str) -> str:
    return " ".join(text.split())


def texts(document: bytes) -> list[str]:
    """Each page's text, its white space folded to single spaces."""
    return [flat(page.extract_text()) for page in pages(document)]


def size(page) -> tuple[int, int]:
    return round(float(page.mediabox.width)), round(float(page.mediabox.height))


def fields(document: bytes) -> dict[str, str]:
    """The PDF form's fields: name -> value ("/Off" for an unticked box)."""
    found = PdfReader(io.BytesIO(document)).get_fields() or {}
    return {name: field.get("/V") for name, field in found.items()}


def embedded_fonts(page) -> set[str]:
    fonts = page["/Resources"]["/Font"].values()
    return {str(font.get_object()["/BaseFont"]).split("+", 1)[-1] for font in fonts}


# Issue 27's "largest standard" character: what the texts could produce at creation and
# through a long campaign, which must print on one page of A4 and of Letter.
LARGEST_SKILLS, LARGEST_GIFTS, LARGEST_FAULTS = 40, 12, 12
LARGEST_POWERS, LARGEST_EQUIPMENT = 8, 15
PERSONALITY = {
    "values": "My sister, the mill and the ford; I would die for none of them, but I would bleed.",
    "desires": "To see the sea once, and to come back to tell the village it is real. "
    "Failing that, a warm bed in every inn between here and the coast.",
    "history": "Born in the fens to a miller's family, apprenticed to a tinker at nine, "
    "ran off with a band of scouts at fifteen and has not been home since. " * 2,
}


def largest_standard(ruleset: str = "mudge", name: str = "Largest Standard") -> Character:
    from rules.character import Equipment, Fault, Gift, Power, Trait
    from rules.ladder import FAIR, GOOD, GREAT

    levels = (GOOD, FAIR, GREAT)
    kind = "field" if ruleset.startswith("microfudged") else "spell"
    return Character(
        ruleset=ruleset,
        name=name,
        player="A Player With A Long Name",
        concept="Wandering scout, storyteller and reluctant hero of the northern marches",
        race="Halfling",
        meta_points=3,
        experience=12,
        attributes=tuple(
            Trait(n, GOOD)
            for n in (
                "Strength",
                "Dexterity",
                "Constitution",
                "Speed",
                "Intelligence",
                "Willpower",
                "Perception",
                "Charisma",
            )
        ),
        skills=tuple(
            Trait(f"Skill of the {i + 1:02d}th Valley", levels[i % 3], "hard" if i % 5 else None)
            for i in range(LARGEST_SKILLS)
        ),
        gifts=tuple(Gift(f"Gift number {i + 1}") for i in range(LARGEST_GIFTS)),
        faults=tuple(
            Fault(f"Fault number {i + 1}", 2 if i % 4 == 0 else None) for i in range(LARGEST_FAULTS)
        ),
        powers=tuple(Power(f"Power {i + 1}", kind, GOOD) for i in range(LARGEST_POWERS)),
        equipment=tuple(
            Equipment(f"Item {i + 1}", "weapon" if i < 3 else "gear", 2 if i < 3 else None)
            for i in range(LARGEST_EQUIPMENT)
        ),
        personality=PERSONALITY,
        notes="Owes the ferryman two silver. Keeps a diary in a code only her sister reads.",
    )
