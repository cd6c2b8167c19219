"""Reading what play uses from a ruleset file: the harm track and advancement."""

import dataclasses
import itertools

from rules.house_rules import ADVANCEMENT_NUMBERS, MAX_NUMBER
from rules.ruleset_file.file_format import MAX_NAME
from rules.ruleset_file.shapes import Shapes
from rules.rulesets import Advancement, Harm, WoundLevel
from rules.words import Level, say


class PlaySections(Shapes):
    def harm(self, value) -> dict:
        if value is None:
            return {"harm": None, "damage_capacity_attribute": None, "muscle_attribute": None}
        where = "harm"
        obj = self.object(value, where)
        track_rows = self.list(obj.get("track"), f"{where}.track", limit=20)
        if not track_rows:
            self.refuse(f"{where}.track", say("needs at least one row: a wound or setback level"))
        track = tuple(
            self.field(self.wound, row, f"{where}.track[{i}]") for i, row in enumerate(track_rows)
        )
        self.unique([w.name if w else "" for w in track], f"{where}.track", ".name")
        # A row refused for its boxes is still a row: a graze limit may name it.
        wounds = {
            row["name"].strip()
            for row in track_rows
            if isinstance(row, dict) and isinstance(row.get("name"), str)
        }
        grazes = []
        for i, row in enumerate(self.list(obj.get("graze_limits", []), f"{where}.graze_limits")):
            at = f"{where}.graze_limits[{i}]"
            row = self.object(row, at, ("from", "wound"))
            wound = self.name(row.get("wound"), f"{at}.wound")
            if wound not in wounds:
                self.problems.append(
                    (f"{at}.wound", say("'{wound}' is not a row of the track", wound=wound))
                )
            grazes.append((self.integer(row.get("from"), f"{at}.from", 0, 100), wound))
        harm = Harm(
            title=self.name(obj.get("title"), f"{where}.title"),
            caused_by=self.name(obj.get("caused_by", "Damage"), f"{where}.caused_by"),
            track=track,
            penalty_unit=self.choice(
                obj.get("penalty_unit", ""), f"{where}.penalty_unit", ("", "card")
            ),
            damage_factors=self.boolean(obj.get("damage_factors", True), f"{where}.damage_factors"),
            unarmed=self.integer(obj.get("unarmed", 0), f"{where}.unarmed", -10, 10),
            unarmed_trained=self.integer(
                obj.get("unarmed_trained", 0), f"{where}.unarmed_trained", -10, 10
            ),
            martial_arts=self.names(obj.get("martial_arts", []), f"{where}.martial_arts"),
            more_scratch=self.names(obj.get("more_scratch", []), f"{where}.more_scratch"),
            fewer_scratch=self.names(obj.get("fewer_scratch", []), f"{where}.fewer_scratch"),
            note=self.text(obj.get("note", ""), f"{where}.note"),
            damage_die=self.boolean(obj.get("damage_die", False), f"{where}.damage_die"),
            graze_limits=tuple(grazes),
        )
        return {
            "harm": harm,
            "damage_capacity_attribute": self.optional_name(
                obj.get("damage_capacity_attribute"), f"{where}.damage_capacity_attribute"
            ),
            "muscle_attribute": self.optional_name(
                obj.get("muscle_attribute"), f"{where}.muscle_attribute"
            ),
        }

    def optional_name(self, value, where):
        return None if value is None else self.field(self.name, value, where)

    def wound(self, value, where) -> WoundLevel:
        obj = self.object(value, where, ("name", "damage", "penalty", "boxes"))
        return WoundLevel(
            name=self.name(obj.get("name"), f"{where}.name"),
            damage=self.text(obj.get("damage", ""), f"{where}.damage", limit=MAX_NAME),
            penalty=self.integer(obj.get("penalty", 0), f"{where}.penalty", -10, 0),
            boxes=self.integer(obj.get("boxes"), f"{where}.boxes", 1, 20),
        )

    def advancement(self, value) -> Advancement | None:
        if value is None:
            return None
        where = "advancement"
        known = [f.name for f in dataclasses.fields(Advancement)]
        obj = self.object(value, where, known)
        numbers = {}
        for key in ADVANCEMENT_NUMBERS:
            if obj.get(key) is not None:
                numbers[key] = self.field(
                    self.integer, obj[key], f"{where}.{key}", 0, MAX_NUMBER, fallback=0
                )
        steps = obj.get("skill_steps")
        if steps is not None:
            steps_obj = self.object(steps, f"{where}.skill_steps")
            read = {}
            for word, cost in steps_obj.items():
                at = f"{where}.skill_steps.{word}"
                level = self.field(self.level, word, at)
                cost = self.field(self.integer, cost, at, 0, MAX_NUMBER)
                if level is not None and cost is not None:
                    read[level] = cost
            # Ordered by the ladder: a refused ladder gives no order to check.
            ordered = [] if self.ladder_refused else sorted(read.items())
            for (low, low_cost), (high, high_cost) in itertools.pairwise(ordered):
                if high_cost < low_cost:
                    self.problems.append(
                        (
                            f"{where}.skill_steps.{self.ladder.name(high)}",
                            say(
                                "the cost table must not fall as the level rises: {cost} is "
                                "less than {lower} at {level}",
                                cost=high_cost,
                                lower=low_cost,
                                level=Level(low, self.ladder),
                            ),
                        )
                    )
            steps = read
        permission = obj.get("gm_permission_from")
        return Advancement(
            unit=self.name(obj.get("unit"), f"{where}.unit"),
            section=self.text(obj.get("section", ""), f"{where}.section"),
            skill_steps=steps,
            gm_permission_from=None
            if permission is None
            else self.field(self.level, permission, f"{where}.gm_permission_from"),
            gm_approval=tuple(
                self.choice(k, f"{where}.gm_approval", ("gift", "power"))
                for k in self.list(obj.get("gm_approval", []), f"{where}.gm_approval")
            ),
            **numbers,
        )
