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

SAMPLES = Path(__file__).resolve().parent.parent / "rules" / "samples"
A4, LETTER = (595, 842), (612, 792)


def sample(stem: str) -> Character:
    return parse_character_json((SAMPLES / f"{stem}.json").read_text()).character


def ruleset_of(character: Character):
    return apply_house_rules(BUILTIN[character.ruleset], character.house_rules)


def sheet(character: Character, approval=None, ledger=()):
    return build_sheet(character, ruleset_of(character), approval, ledger)


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
