"""Every text the built-in rulesets bring that a person reads, with what it is: the names of
the attributes, catalogue entries, sample powers and templates, and the notes, power lines
and template descriptions beside them (docs/translations.md, "Rules content").

The engine names rules content by its English, the canonical key a character file keeps in
every language. This list is what the rules content catalogue (locale/rules.pot, made by
`manage.py makemessages`) is built from, so a translator sees every entry, and a test sees
that every language says each one. The engine itself never translates.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rules.catalog import Catalog, Template
from rules.catalogues import mudge
from rules.rulesets import BUILTIN

# The sample characters the rule texts print (Mudge 6.3 and the others), which the demo
# table plays: their traits are the texts' words too.
SAMPLES = Path(__file__).parent / "samples"
SAMPLE_LISTS = ("attributes", "skills", "gifts", "faults", "powers", "equipment")

# The catalogue's two contexts: a name can be searched for and mapped back to its key; a
# text (a note, a power's line, a template's description) is only ever shown.
NAME = "rules name"
TEXT = "rules text"


@dataclass(frozen=True)
class ContentEntry:
    context: str  # NAME or TEXT
    english: str
    what: str  # for the translator: "Mudge skill", "Mudge 6.41 template: description"


def entries() -> list[ContentEntry]:
    """Every built-in text once, in a stable order (the catalogue's), the first use named."""
    seen: dict[tuple[str, str], ContentEntry] = {}
    for entry in _all():
        if entry.english.strip():
            seen.setdefault((entry.context, entry.english), entry)
    return list(seen.values())


def _all() -> Iterator[ContentEntry]:
    for ruleset in BUILTIN.values():
        game = ruleset.name
        for name in (*(ruleset.attribute_names or ()), *ruleset.catalog.attributes):
            yield ContentEntry(NAME, name, f"{game}: attribute")
        for name, _level in ruleset.extra_attributes:
            yield ContentEntry(NAME, name, f"{game}: attribute")
        for attribute in ruleset.attribute_gifts.values():
            yield ContentEntry(NAME, attribute, f"{game}: attribute a gift opens")
        for gift in (*ruleset.attribute_gifts, *ruleset.power_gifts.values()):
            yield ContentEntry(NAME, gift, f"{game}: gift")
        yield from _catalog(ruleset.catalog, game)
        for template in ruleset.templates:
            yield from _template(template)
    for name in (mudge.MANA, mudge.PSYCHE):
        yield ContentEntry(NAME, name, "Mudge: attribute a gift opens")
    yield from _samples()


def _samples() -> Iterator[ContentEntry]:
    for path in sorted(SAMPLES.glob("*.json")):
        sample = json.loads(path.read_text(encoding="utf-8"))
        for list_name in SAMPLE_LISTS:
            for trait in sample.get(list_name) or ():
                what = f"sample character {sample['name']} ({path.name}): {list_name}"
                yield ContentEntry(NAME, trait["name"], what)


def _catalog(catalog: Catalog, game: str) -> Iterator[ContentEntry]:
    for list_name, what in (
        ("skills", "skill"),
        ("gifts", "gift"),
        ("faults", "fault"),
        ("equipment", "equipment"),
    ):
        for item in getattr(catalog, list_name):
            yield ContentEntry(NAME, item.name, f"{game}: {what}")
            yield ContentEntry(TEXT, item.note, f"{game}: note on the {what} {item.name}")
    for power in catalog.powers:
        yield ContentEntry(NAME, power.name, f"{game}: {power.kind} (sample power)")
        for key, value in power.as_details().items():
            if key != "section":
                yield ContentEntry(TEXT, value, f"{game}: {key} line of the power {power.name}")
    for kind, note in catalog.power_kind_notes.items():
        yield ContentEntry(TEXT, note, f"{game}: note on {kind} powers")


def _template(template: Template) -> Iterator[ContentEntry]:
    where = f"{template.section} {template.kind} template"
    yield ContentEntry(NAME, template.name, where)
    yield ContentEntry(TEXT, template.description, f"{where} {template.name}: description")
    for note in template.notes:
        yield ContentEntry(TEXT, note, f"{where} {template.name}: note")
    groups = (
        *template.minimum_attributes,
        *template.minimum_skills,
        *template.recommended_gifts,
        *template.required_gifts,
        *template.required_faults,
        *template.racial_bonuses,
    )
    for name in groups:
        yield ContentEntry(NAME, name, f"{where} {template.name}: trait or group")
