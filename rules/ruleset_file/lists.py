"""Reading a ruleset file's lists: its seed catalogue, its templates and its rule sections."""

import dataclasses
import re

from rules.catalog import (
    POWER_DETAILS,
    Catalog,
    CatalogEquipment,
    CatalogFault,
    CatalogGift,
    CatalogPower,
    CatalogSkill,
    Template,
    Translations,
)
from rules.character import EQUIPMENT_KINDS
from rules.ruleset_file.file_format import TEMPLATE_KINDS
from rules.ruleset_file.shapes import Shapes
from rules.rulesets import DIFFICULTIES
from rules.words import say

# "fr", "es", "de", "pt-br": what a catalogue entry's translations are keyed by.
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})?")


class ListSections(Shapes):
    def catalogue(self, value) -> Catalog:
        where = "catalogue"
        obj = self.object(
            value,
            where,
            required=False,
            known=(
                "section",
                "attributes",
                "skills",
                "gifts",
                "faults",
                "equipment",
                "powers",
                "power_kinds",
                "power_kind_notes",
            ),
        )

        def rows(key, read):
            at = f"{where}.{key}"
            entries = self.field(self.list, obj.get(key, []), at, fallback=[])
            out = [self.field(read, e, f"{at}[{i}]") for i, e in enumerate(entries)]
            self.unique([e.name if e else "" for e in out], at, ".name")
            return tuple(e for e in out if e)

        notes = self.object(obj.get("power_kind_notes", {}), f"{where}.power_kind_notes")
        return Catalog(
            attributes=self.field(
                self.names, obj.get("attributes", []), f"{where}.attributes", fallback=()
            ),
            skills=rows("skills", self.catalog_skill),
            gifts=rows("gifts", self.catalog_gift),
            faults=rows("faults", self.catalog_fault),
            equipment=rows("equipment", self.catalog_equipment),
            powers=rows("powers", self.catalog_power),
            power_kinds=self.field(
                self.names, obj.get("power_kinds", []), f"{where}.power_kinds", fallback=()
            ),
            section=self.field(self.text, obj.get("section", ""), f"{where}.section", fallback=""),
            power_kind_notes={
                k: self.field(self.text, v, f"{where}.power_kind_notes.{k}", fallback="")
                for k, v in notes.items()
            },
        )

    def language(self, code, where) -> None:
        if not LANGUAGE_CODE.fullmatch(code):
            self.refuse(where, say("is not a language code: write one as fr, es or de"))

    def translations(self, value, where) -> Translations:
        """An entry's own words in other languages: {"fr": {"name": ..., "note": ...}}."""
        rows = []
        for language, words in self.object(value, where).items():
            self.language(language, f"{where}.{language}")
            said = self.object(words, f"{where}.{language}", ("name", "note"))
            name = said.get("name", "")
            rows.append(
                (
                    language,
                    self.name(name, f"{where}.{language}.name") if name else "",
                    self.text(said.get("note", ""), f"{where}.{language}.note"),
                )
            )
        return tuple(rows)

    def catalog_skill(self, value, where):
        obj = self.object(value, where, ("name", "difficulty", "note", "translations"))
        return CatalogSkill(
            self.name(obj.get("name"), f"{where}.name"),
            self.choice(obj.get("difficulty", "average"), f"{where}.difficulty", DIFFICULTIES),
            self.text(obj.get("note", ""), f"{where}.note"),
            self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def catalog_gift(self, value, where):
        obj = self.object(value, where, ("name", "cost", "note", "translations"))
        return CatalogGift(
            self.name(obj.get("name"), f"{where}.name"),
            self.amount(obj.get("cost", 1), f"{where}.cost"),
            self.text(obj.get("note", ""), f"{where}.note"),
            self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def catalog_fault(self, value, where):
        obj = self.object(value, where, ("name", "value", "note", "translations"))
        return CatalogFault(
            self.name(obj.get("name"), f"{where}.name"),
            self.amount(obj.get("value", 1), f"{where}.value"),
            self.text(obj.get("note", ""), f"{where}.note"),
            self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def catalog_equipment(self, value, where):
        obj = self.object(
            value, where, ("name", "kind", "damage", "armour", "note", "translations")
        )

        def factor(key):
            v = obj.get(key)
            return None if v is None else self.integer(v, f"{where}.{key}", -20, 20)

        return CatalogEquipment(
            self.name(obj.get("name"), f"{where}.name"),
            self.choice(obj.get("kind", "gear"), f"{where}.kind", EQUIPMENT_KINDS),
            factor("damage"),
            factor("armour"),
            self.text(obj.get("note", ""), f"{where}.note"),
            self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def catalog_power(self, value, where):
        """A sample power (Mudge 2.52's spell form): its lines are text, kept as written."""
        obj = self.object(value, where, ("name", "kind", "difficulty", *POWER_DETAILS))
        lines = {k: self.text(obj.get(k, ""), f"{where}.{k}") for k in POWER_DETAILS}
        difficulty = obj.get("difficulty", "")
        if difficulty:
            self.choice(difficulty, f"{where}.difficulty", DIFFICULTIES)
        return CatalogPower(
            self.name(obj.get("name"), f"{where}.name"),
            self.name(obj.get("kind"), f"{where}.kind"),
            difficulty=difficulty,
            **lines,
        )

    def templates(self, value) -> tuple[Template, ...]:
        entries = self.list(value, "templates", limit=200)
        out = tuple(self.field(self.template, t, f"templates[{i}]") for i, t in enumerate(entries))
        self.unique([t.slug if t else "" for t in out], "templates", ".slug")
        self.unique([t.name if t else "" for t in out], "templates", ".name")
        return tuple(t for t in out if t)

    def template(self, value, where) -> Template:
        known = [f.name for f in dataclasses.fields(Template)]
        obj = self.object(value, where, known)

        def words(key):
            levels = self.object(obj.get(key, {}), f"{where}.{key}")
            for name, word in levels.items():
                self.field(self.level, word, f"{where}.{key}.{name}")
            return {str(k): v for k, v in levels.items()}

        def shifts():
            bonuses = self.object(obj.get("racial_bonuses", {}), f"{where}.racial_bonuses")
            return {
                k: self.integer(v, f"{where}.racial_bonuses.{k}", -10, 10)
                for k, v in bonuses.items()
            }

        return Template(
            slug=self.slug(obj.get("slug"), f"{where}.slug"),
            name=self.name(obj.get("name"), f"{where}.name"),
            kind=self.choice(obj.get("kind"), f"{where}.kind", TEMPLATE_KINDS),
            section=self.text(obj.get("section", ""), f"{where}.section"),
            description=self.text(obj.get("description", ""), f"{where}.description"),
            minimum_attributes=words("minimum_attributes"),
            minimum_skills=words("minimum_skills"),
            recommended_gifts=self.names(
                obj.get("recommended_gifts", []), f"{where}.recommended_gifts"
            ),
            required_gifts=self.names(obj.get("required_gifts", []), f"{where}.required_gifts"),
            required_faults=self.names(obj.get("required_faults", []), f"{where}.required_faults"),
            scale_strength=self.integer(
                obj.get("scale_strength", 0), f"{where}.scale_strength", -50, 50
            ),
            scale_mass=self.integer(obj.get("scale_mass", 0), f"{where}.scale_mass", -50, 50),
            racial_bonuses=shifts(),
            notes=tuple(
                self.text(n, f"{where}.notes[{i}]")
                for i, n in enumerate(self.list(obj.get("notes", []), f"{where}.notes"))
            ),
            broad=self.boolean(obj.get("broad", False), f"{where}.broad"),
        )

    def sections(self, value) -> dict[str, str]:
        obj = self.object(value, "sections")
        out = {k: self.field(self.text, v, f"sections.{k}", fallback="") for k, v in obj.items()}
        if not out.get("creation"):
            self.refuse(
                "sections.creation",
                say("is required: the rule section every check falls back to cite"),
            )
        return out
