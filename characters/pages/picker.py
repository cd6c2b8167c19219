"""The builder's catalogue pickers: every entry of a list with what the catalogue says of it
and what adding it does to the budget, in words, before the player adds it."""

from dataclasses import dataclass
from functools import lru_cache

from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.models import Trait
from characters.rules_content import rules_name, rules_text
from characters.wording import SPEAKER, said
from rules.ladder import FAIR, signed
from rules.numbers import number_text
from rules.rulesets import LEVELS, SKILL_DIFFICULTY, Ruleset, skill_default
from rules.words import Level, Noun, plural_count, say

EQUIPMENT = "equipment"
# The lists with a catalogue picker (attributes are the ruleset's own list).
PICKER_KINDS = frozenset(
    {Trait.Kind.SKILL, Trait.Kind.GIFT, Trait.Kind.FAULT, Trait.Kind.POWER, EQUIPMENT}
)


def said_details(details) -> tuple[tuple[str, str], ...]:
    """A power's lines, each label in the reader's language (the vocabulary's power details),
    each line a built-in power's in the reader's language too, a GM's own as written."""
    return tuple(
        (vocabulary.term(label, "power detail"), rules_text(value)) for label, value in details
    )


@dataclass(frozen=True)
class Pick:
    name: str
    facts: tuple[str, ...]  # "very hard spell", "2 gifts", "weapon +3"
    effect: str  # what adding it does to the budget
    note: str = ""
    details: tuple[tuple[str, str], ...] = ()  # a power's lines from the rule text
    section: str = ""  # where the text gives it, e.g. "Mudge 2.53"
    taken: bool = False  # the list has it already: a second would be refused, not added


def units(amount, words: tuple[str, str]) -> str:
    """An amount of a pool's units in the reader's language: "2 gifts", and "½ gift" as
    the builder has always said a half (one of them, not many)."""
    return _units(amount, *words, get_language())


@lru_cache(maxsize=1024)  # a few amounts, on every row of every page
def _units(amount, one: str, many: str, language: str) -> str:
    count = 1 if 0 < abs(amount) <= 1 else plural_count(amount)
    # Halves and quarters as the rule texts write them ("½"), any other decimal the
    # language's way ("0,3").
    text = number_text(amount).replace(".", get_format("DECIMAL_SEPARATOR"))
    return said(say("{amount} {unit}", amount=text, unit=Noun(one, many, count)))


def difficulty_word(difficulty: str) -> str:
    """A skill's difficulty in the reader's language, in a phrase ("a hard spell"); empty is
    the ruleset's default."""
    return vocabulary.term((difficulty or SKILL_DIFFICULTY).replace("_", " "), "difficulty")


def difficulty_label(difficulty: str) -> str:
    """A skill's difficulty standing alone, as a hint: "Average", "Moyenne"."""
    return vocabulary.label((difficulty or SKILL_DIFFICULTY).replace("_", " "), "difficulty")


def equipment_kind_word(kind: str) -> str:
    """A kind of equipment in the reader's language, as the first of a list of facts or a
    hint of its own: "Weapon", "Arme"."""
    return vocabulary.label(kind, "equipment kind")


def _level(ruleset: Ruleset, level: int) -> str:
    return SPEAKER.level(Level(level, ruleset.ladder))


def _noun(ruleset: Ruleset, list_name: str) -> str:
    return SPEAKER.noun(ruleset.terms.list_noun(list_name))


def _as_skill(ruleset: Ruleset, difficulty: str, what: str, level: int) -> str:
    """The cost of a skill priced by difficulty (or of a spell, priced as one) at `level`,
    the picker's "Add at": its cost at Fair (Mudge 1.62) and one a level from there, in the
    ruleset's words. A player adding it at the level the picker says pays what it says."""
    cost = ruleset.difficulty_costs.get(difficulty or SKILL_DIFFICULTY, 2) + level - FAIR
    return _quote(ruleset, level, cost, what)


def _as_flat_skill(ruleset: Ruleset, name: str, level: int) -> str:
    """The cost at `level` of a skill priced a level at a time from its default (Fudge
    Basics: Poor), as _as_skill quotes one priced by difficulty."""
    default = skill_default(ruleset, name, None)
    what = _("from its default, {default}").format(default=_level(ruleset, default))
    return _quote(ruleset, level, level - default, what)


def _quote(ruleset: Ruleset, level: int, cost: int, what: str) -> str:
    """A skill's cost at the picker's Add at, and one a level from there."""
    return _(
        "at {level} it takes {cost} ({what}, {section}), one more or one fewer for each level "
        "above or below {level}"
    ).format(
        level=_level(ruleset, level),
        cost=units(cost, ruleset.terms.pool_words("skills")),
        what=what,
        section=ruleset.section("skills"),
    )


def catalog_picks(
    ruleset: Ruleset, gift_names: set[str], kind: str, level: int = FAIR
) -> list[Pick]:
    """The picks of one list of the builder (a trait kind, or EQUIPMENT), from the
    character's catalogue (its campaign's, or its ruleset's own). `gift_names` (casefolded)
    says which gifts the character has, so a spell says when it needs Magery first; `level`
    is the one its picker adds an entry at, which a skill's or a spell's cost is quoted at."""
    entries, terms = catalog_entries(ruleset, kind), ruleset.terms
    levels = ruleset.system == LEVELS
    if kind == Trait.Kind.SKILL and levels and ruleset.skill_difficulties:
        noun = _noun(ruleset, "skills")
        return [
            Pick(
                s.name,
                (difficulty_word(s.difficulty),),
                _as_skill(
                    ruleset,
                    s.difficulty,
                    _("{difficulty} {noun}").format(
                        difficulty=difficulty_word(s.difficulty), noun=noun
                    ),
                    level,
                ),
                s.note,
            )
            for s in entries
        ]
    if kind == Trait.Kind.SKILL and levels:
        # Each a level above its default (Fudge Basics), quoted at the picker's Add at.
        return [Pick(s.name, (), _as_flat_skill(ruleset, s.name, level), s.note) for s in entries]
    if kind == Trait.Kind.SKILL:
        effect = _("1 token a rank above its default ({section})").format(
            section=ruleset.section("skills")
        )
        return [Pick(s.name, (), effect, s.note) for s in entries]
    if kind == Trait.Kind.GIFT:
        return [
            Pick(
                g.name,
                (units(g.cost, terms.pool_words("gifts")),),
                _brings(
                    ruleset,
                    g.name,
                    _("takes {cost} of your budget").format(
                        cost=units(g.cost, terms.pool_words("gifts"))
                    ),
                ),
                g.note,
            )
            for g in entries
        ]
    if kind == Trait.Kind.FAULT:
        return [
            Pick(
                f.name,
                (units(f.value, terms.pool_words("faults")),),
                _("gives back {cost} to spend ({section})").format(
                    cost=units(f.value, terms.pool_words("gifts")),
                    section=ruleset.section("gifts"),
                ),
                f.note,
            )
            for f in entries
        ]
    if kind == Trait.Kind.POWER:
        return [_power_pick(ruleset, power, gift_names, level) for power in entries]
    return [_equipment_pick(ruleset, item) for item in entries]


def catalog_entries(ruleset: Ruleset, kind: str) -> tuple:
    """The catalogue's entries a list's picker offers: its count on the builder page, where
    the picker is closed, costs nothing more."""
    catalog = ruleset.catalog
    if kind == Trait.Kind.SKILL:
        return catalog.skills
    if kind in (Trait.Kind.GIFT, Trait.Kind.FAULT):
        if not ruleset.gifts_and_faults:
            return ()
        return catalog.gifts if kind == Trait.Kind.GIFT else catalog.faults
    if kind == Trait.Kind.POWER:
        return tuple(p for p in catalog.powers if p.kind in ruleset.power_kinds)
    if kind == EQUIPMENT:
        return catalog.equipment
    return ()  # attributes: the ruleset's own list, no picker


def _brings(ruleset: Ruleset, gift: str, effect: str) -> str:
    """A gift's `effect`, and the attribute it brings if it brings one (Magery: Mana)."""
    attribute = next(
        (a for g, a in ruleset.attribute_gifts.items() if g.casefold() == gift.casefold()), None
    )
    if attribute is None:
        return effect
    return _(
        "{effect}; brings the {noun} {attribute} at {level}, priced as any {noun} from there"
    ).format(
        effect=effect,
        noun=_noun(ruleset, "attributes"),
        attribute=rules_name(attribute),
        level=_level(ruleset, ruleset.attribute_default),
    )


def _power_pick(ruleset: Ruleset, power, gift_names: set[str], level: int) -> Pick:
    kind = vocabulary.term(power.kind, "power kind")
    facts = [vocabulary.label(power.kind, "power kind")]
    gift = ruleset.power_gifts.get(power.kind)
    if ruleset.system != LEVELS:
        effect = _("1 token a rank from {level}").format(
            level=_level(ruleset, ruleset.power_default)
        )
    elif gift is not None:
        difficulty = power.difficulty or "hard"
        facts.insert(0, difficulty_word(difficulty))
        what = _("a {difficulty} {kind}").format(difficulty=difficulty_word(difficulty), kind=kind)
        effect = _as_skill(ruleset, difficulty, what, level)
        if gift.casefold() not in gift_names:
            effect = _("{effect}; needs the {gift} {noun} first ({section})").format(
                effect=effect,
                gift=rules_name(gift),
                noun=_noun(ruleset, "gifts"),
                section=ruleset.section(power.kind),
            )
    else:
        cost = units(ruleset.superpower_cost, ruleset.terms.pool_words("gifts"))
        effect = _("takes {cost} ({section})").format(
            cost=cost, section=ruleset.section(power.kind)
        )
    if power.group:
        facts.append(rules_text(power.group))  # "cybernétique"
    return Pick(power.name, tuple(facts), effect, "", said_details(power.details()), power.section)


def _equipment_pick(ruleset: Ruleset, item) -> Pick:
    facts = [equipment_kind_word(item.kind)]
    terms = ruleset.terms
    if item.damage is not None:
        facts.append(
            _("{value} {number}").format(
                value=vocabulary.term(terms.weapon_value, "equipment value"),
                number=signed(item.damage),
            )
        )
    if item.armour is not None:
        facts.append(
            _("{value} {number}").format(
                value=vocabulary.term(terms.armour_value, "equipment value"),
                number=signed(item.armour),
            )
        )
    return Pick(
        item.name,
        tuple(facts),
        _(
            "costs nothing from the budget; its values go into your damage factors ({section})"
        ).format(section=ruleset.section("equipment")),
        item.note,
    )


def section_of(context: dict, kind: str):
    """The trait list `kind` of the builder page whose context this is (pages.builder_rows.
    Section), or None when its rules have no such list."""
    return next((s for s in context["sections"] if s.kind == kind), None)


def open_picks(context: dict, kind: str) -> list | None:
    """The picks of the list `kind` (a trait kind, or EQUIPMENT), shown whole on the
    builder page whose context this is; None when its rules have no such list."""
    if kind == EQUIPMENT:
        return context["equipment_picks"]
    section = section_of(context, kind)
    return None if section is None else section.picks


def choose_picker_level(context: dict, kind: str, level: str | None) -> None:
    """The picker of list `kind` set to the `level` its Add at sent (Section.picker_level),
    if it is one of its choices ("No level" too); else it stays at its add form's."""
    section = section_of(context, kind) if kind != EQUIPMENT else None
    if section is not None and level in {str(value) for value, _ in section.pick_level[1]}:
        section.picker_level = level


def pick_again(context: dict, kind: str, name: str) -> dict | None:
    """What characters/picker.html#pick reads to draw the open picker's entry for `name`
    in list `kind` again, out of band, as the list has it now (a write added or removed
    it); None when the catalogue has no such entry. Numbered as the picker numbers its
    entries: its place in the list."""
    picks = section_of(context, kind).picks
    key = name.casefold()
    number = next((n for n, pick in enumerate(picks) if pick.name.casefold() == key), None)
    if number is None:
        return None
    return {"kind": kind, "pick": picks[number], "pick_number": number, "pick_oob": True}


def picker_alone(context: dict, character_pk: int) -> dict:
    """What characters/picker.html reads beyond the builder page's context when its open
    picker is drawn alone (the page includes it with the same): its count, its noun, where
    its Add posts, and the level an entry is added at."""
    kind, picks = context["open_picker"], context["open_picks"]
    level, levels = None, ()
    if kind == EQUIPMENT:
        noun, action, args = pgettext("picker list", "equipment"), "equipment_add", [character_pk]
    else:
        section = section_of(context, kind)
        noun, action, args = section.noun_said, "trait_add", [character_pk, kind]
        level, levels = section.pick_level
    return {
        "count": len(picks),
        "kind": kind,
        "noun": noun,
        "action": reverse(action, args=args),
        "target": f"add-{kind}",
        "level": level,
        "levels": levels,
    }
