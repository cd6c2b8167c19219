"""What both systems check of a character's traits: attributes and their defaults, duplicates,
bounds, caps, counts, traits defined in play; and how a check says what it finds."""

from rules.character import Character, Trait
from rules.report.issues import Issue
from rules.rulesets import Ruleset, skill_default
from rules.trades import amount_phrase
from rules.words import Level, Name, Noun, Phrase, Term, say


class TraitChecks:
    def __init__(self, character: Character, ruleset: Ruleset):
        self.c = character
        self.r = ruleset
        self.errors: list[Issue] = []
        self.warnings: list[Issue] = []
        # The highest level creation allows, so the common in-bounds trait costs one compare:
        # an NPC without a budget may stand anywhere on the ladder, Legendary too (Mudge 4.33).
        if character.without_budget:
            self.top = ruleset.ladder.top_word_level
        else:
            self.top = 10**6 if ruleset.legendary_at_creation else ruleset.creation_max
        self.gift_names = {g.name.casefold() for g in character.gifts}

    def error(self, code, phrase, topic, trait=None, where=None):
        self.errors.append(Issue(code, phrase, self.r.section(topic), trait, where))

    def warn(self, code, phrase, topic, trait=None, where=None):
        self.warnings.append(Issue(code, phrase, self.r.section(topic), trait, where))

    def amount(self, value, pool: str) -> Phrase:
        """'3 skill levels' in the ruleset's words ('3 knack levels'), as a phrase."""
        return amount_phrase(value, pool, self.r.terms)

    def noun(self, list_name: str, count: int = 1, **form) -> Noun:
        """'attribute', 'fields of expertise': the ruleset's word for `count` of a list
        (`capital`, `article`: rules.words.Noun)."""
        return self.r.terms.list_noun(list_name, count, **form)

    def level(self, level: int) -> Level:
        """A level in the ruleset's ladder words."""
        return Level(level, self.r.ladder)

    def gm(self) -> Term:
        return Term(self.r.terms.gm, "game master")

    def attribute_defaults(self) -> dict[str, int]:
        """Attribute name (casefolded) -> default, for rulesets with a fixed list."""
        r = self.r
        names = {n.casefold(): r.attribute_default for n in r.attribute_names or ()}
        for gift, attribute in r.attribute_gifts.items():
            if gift.casefold() in self.gift_names:
                names[attribute.casefold()] = r.attribute_default
        names.update({n.casefold(): d for n, d in r.extra_attributes})
        return names

    def skill_default(self, trait: Trait) -> int | None:
        return skill_default(self.r, trait.name, trait.difficulty)

    def attribute_costs(self, in_play: list) -> list[int]:
        """Each attribute's cost from its default (Mudge 1.6, DIP III); one defined in play
        (Mudge 1.7) costs nothing here and joins `in_play`."""
        c, r = self.c, self.r
        known = self.attribute_defaults()
        floor, top, unit = r.creation_min, self.top, r.attribute_cost
        costs = []
        for index, trait in enumerate(c.attributes):
            default = known.get(trait.name.casefold())
            if default is None:
                default = self.attribute_default(trait, index, known)
            if trait.defined_in_play:
                in_play.append(("attributes", index, trait))
                costs.append(0)
                continue
            level = trait.level
            if not floor <= level <= top:  # bounds() only when out of them
                self.bounds(trait, ("attributes", index), floor)
            costs.append((level - default) * unit)
        self.duplicates(c.attributes, "attributes")
        self.caps(c.attributes, r.attribute_caps, "attributes")
        return costs

    def attribute_default(self, trait: Trait, index: int, known: dict[str, int]) -> int:
        key = trait.name.casefold()
        if key in known:
            return known[key]
        if self.r.attribute_names is not None:
            self.unknown_attribute(trait, index)
        return self.r.attribute_default

    def unknown_attribute(self, trait, index):
        for gift, attribute in self.r.attribute_gifts.items():
            if trait.name.casefold() == attribute.casefold():
                kind = next((k for k, g in self.r.power_gifts.items() if g == gift), "creation")
                self.error(
                    "unknown_trait",
                    say(
                        "{attribute} comes with the {gift} gift: take {gift}, or remove "
                        "{attribute}.",
                        attribute=Name(attribute),
                        gift=Name(gift),
                    ),
                    kind,
                    trait.name,
                    f"attributes[{index}]",
                )
                return
        self.error(
            "unknown_trait",
            say(
                "{ruleset} has no {attribute} '{name}'; its {attributes} are {listed}. Rename "
                "it, make it {a_skill}, or ask the {gm} to add it as an extra one.",
                ruleset=Term(self.r.name, "ruleset"),
                attribute=self.noun("attributes"),
                name=Name(trait.name),
                attributes=self.noun("attributes", 2),
                listed=tuple(Name(n) for n in self.r.attribute_names),  # "Force, Dextérité"
                a_skill=self.noun("skills", article=True),
                gm=self.gm(),
            ),
            "attribute_names",
            trait.name,
            f"attributes[{index}]",
        )

    def duplicates(self, items, list_name):
        # Nearly every list has none, which one set comprehension says (issue 40).
        if len({item.name.casefold() for item in items}) == len(items):
            return
        seen = set()
        for index, item in enumerate(items):
            key = item.name.casefold()
            if key in seen:
                self.error(
                    "duplicate_trait",
                    say(
                        "{name} is listed twice among the {nouns}: remove one of them.",
                        name=Name(item.name),
                        nouns=self.noun(list_name, 2),
                    ),
                    "creation",
                    item.name,
                    f"{list_name}[{index}]",
                )
            seen.add(key)

    def bounds(self, trait, where, floor_level):
        """Creation bounds: the ladder's floor for this trait, Superb (or Great), Legendary.
        `where` is a (list name, index) pair, formatted (and the list named in the ruleset's
        words) only when something is wrong: nearly every trait is in bounds, and naming
        its list for each one was most of a build's pricing (issue 40)."""
        if floor_level <= trait.level <= self.top:
            return
        r = self.r
        list_name, where = where[0], f"{where[0]}[{where[1]}]"
        if trait.level < floor_level:
            self.error(
                "level_out_of_range",
                say(
                    "{name} cannot start below {floor} (it is {level}): raise it to {floor} or "
                    "remove it, or the {gm} may allow lower in the house rules.",
                    name=Name(trait.name),
                    floor=self.level(floor_level),
                    level=self.level(trait.level),
                    gm=self.gm(),
                ),
                "creation",
                trait.name,
                where,
            )
        if self.c.without_budget:
            self.above_ladder(trait, where)
            return
        if r.legendary_at_creation:
            return
        if trait.level >= r.ladder.top_word_level:
            self.error(
                "level_out_of_range",
                say(
                    "{name} cannot start at {level}: {top} is not allowed at creation. Lower "
                    "it to {highest}, or the {gm} may allow {top} in the house rules.",
                    name=Name(trait.name),
                    level=self.level(trait.level),
                    top=self.level(r.ladder.top_word_level),
                    highest=self.level(r.creation_max),
                    gm=self.gm(),
                ),
                "legendary",
                trait.name,
                where,
            )
        elif trait.level > r.creation_max:
            self.error(
                "level_out_of_range",
                say(
                    "No {noun} may start above {highest}; {name} is {level}. Lower it to "
                    "{highest}.",
                    noun=self.noun(list_name),
                    highest=self.level(r.creation_max),
                    name=Name(trait.name),
                    level=self.level(trait.level),
                ),
                "creation",
                trait.name,
                where,
            )

    def above_ladder(self, trait, where):
        """An NPC's trait above the ladder's top word: the ladder bounds it still."""
        if trait.level <= self.top:
            return
        self.error(
            "level_out_of_range",
            say(
                "{name} is {level}, above the ladder's top, {top}: lower it to {top}.",
                name=Name(trait.name),
                level=self.level(trait.level),
                top=self.level(self.top),
            ),
            "legendary",
            trait.name,
            where,
        )

    def caps(self, traits, caps, list_name):
        """Mudge 1.6's caps (and the house rules'): how many traits may stand at a level
        (those defined in play aside). With cap_trading (Mudge 1.5), an unused slot buys two
        a level lower and two unused slots one a level higher."""
        if not caps:
            return
        by_level = {}
        for index, trait in enumerate(traits):
            if trait.level in caps and not trait.defined_in_play:
                by_level.setdefault(trait.level, []).append((index, trait))
        counts = {level: len(by_level.get(level, ())) for level in caps}
        over = [level for level in sorted(caps, reverse=True) if counts[level] > caps[level]]
        if not over:
            return
        trading = self.r.cap_trading
        if trading and _caps_fit_by_trading(counts, caps):
            self.traded_caps(counts, caps, list_name)
            return
        for level in over:
            at_level, limit = by_level[level], caps[level]
            index, first_over = at_level[limit]
            values = {
                "limit": limit,
                "nouns": self.noun(list_name, limit),
                "level": self.level(level),
                "count": len(at_level),
                "names": tuple(Name(t.name) for _, t in at_level),
            }
            if trading:
                phrase = say(
                    "Only {limit} {nouns} may be {level}; {count} are ({names}); trading slots "
                    "two lower for one higher does not make room. Lower one of them.",
                    **values,
                )
            else:
                phrase = say(
                    "Only {limit} {nouns} may be {level}; {count} are ({names}). Lower {over} "
                    "of them.",
                    over=len(at_level) - limit,
                    **values,
                )
            self.error(
                "cap_exceeded",
                phrase,
                "caps",  # Ruleset.section falls back to "creation"
                first_over.name,
                f"{list_name}[{index}]",
            )

    def traded_caps(self, counts, caps, list_name):
        used = [
            say(
                "{count} {level} of {limit}",
                count=counts[level],
                level=self.level(level),
                limit=limit,
            )
            for level, limit in sorted(caps.items(), reverse=True)
        ]
        self.warn(
            "cap_slots_traded",
            say(
                "{nouns} fit the caps by trading slots two lower for one higher: {used}. The "
                "{gm} allows this in the house rules.",
                nouns=self.noun(list_name, 2, capital=True),
                used=tuple(used),
                gm=self.gm(),
            ),
            "limits",
        )

    def counts(self, skills, faults):
        """The GM's limits on how many (Mudge 1.5; Fudge Basics, Character Creation); skills
        defined in play do not count."""
        r = self.r
        if r.max_skills is not None and len(skills) > r.max_skills:
            skills = [(i, t) for i, t in enumerate(skills) if not t.defined_in_play]
        if r.max_skills is not None and len(skills) > r.max_skills:
            index, trait = skills[r.max_skills]
            self.error(
                "too_many_skills",
                say(
                    "A new character may take at most {most} {nouns}; this one has {count}. "
                    "Remove {over}.",
                    most=r.max_skills,
                    nouns=self.noun("skills", r.max_skills),
                    count=len(skills),
                    over=len(skills) - r.max_skills,
                ),
                "limits",
                trait.name,
                f"skills[{index}]",
            )
        if faults is not None and len(faults) < r.min_faults:
            self.error(
                "too_few_faults",
                say(
                    "A new character must take at least {least} {nouns}; this one has {count}. "
                    "Add {short}.",
                    least=r.min_faults,
                    nouns=self.noun("faults", r.min_faults),
                    count=len(faults),
                    short=r.min_faults - len(faults),
                ),
                "limits",
            )

    def uncommitted(self, in_play):
        """Mudge 1.7: traits defined in play, each Good or lower, at most the slots left."""
        r = self.r
        for list_name, index, trait in in_play:
            if trait.level > r.uncommitted_max:
                self.error(
                    "uncommitted_too_high",
                    say(
                        "{name} was defined in play at {level}: an uncommitted trait is defined "
                        "as {highest} or lower. Lower it to {highest}.",
                        name=Name(trait.name),
                        level=self.level(trait.level),
                        highest=self.level(r.uncommitted_max),
                    ),
                    "uncommitted",
                    trait.name,
                    f"{list_name}[{index}]",
                )
        if len(in_play) > r.uncommitted_traits:
            list_name, index, trait = in_play[r.uncommitted_traits]
            self.error(
                "too_many_uncommitted",
                say(
                    "{count} traits were defined in play, but a character keeps only {most} "
                    "uncommitted. Price the others at creation: clear their defined_in_play.",
                    count=len(in_play),
                    most=r.uncommitted_traits,
                ),
                "uncommitted",
                trait.name,
                f"{list_name}[{index}]",
            )


def _caps_fit_by_trading(counts: dict[int, int], caps: dict[int, int]) -> bool:
    """Mudge 1.5's "two lower for one higher" (and its converse): whether the traits fit the
    caps once slots are traded. Slots pass between adjacent capped levels only: an uncapped
    level has no slots to give, and needs none."""
    carry = 0  # slots passed down from the level above (negative: owed to it)
    levels = sorted(caps, reverse=True)
    for position, level in enumerate(levels):
        left = caps[level] + carry - counts[level]
        adjacent = position + 1 < len(levels) and levels[position + 1] == level - 1
        if adjacent:
            carry = 2 * left
        elif left < 0:
            return False
        else:
            carry = 0
    return True
