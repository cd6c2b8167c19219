"""Reads for the experience plan (rules.plan): each step priced now, by the character's
ruleset with its campaign's house rules, and the next spend the plan offers, as the
advancement page's spend flow takes it (characters.views.advancement.advancement_spend)."""

from dataclasses import dataclass

from characters import vocabulary
from characters.adapters import character_to_rules, plan_steps, ruleset_for
from characters.models import Character, Trait
from characters.rules_content import rules_name
from characters.wording import SPEAKER, said
from rules.advancement import learnable
from rules.ladder import ABYSMAL, TERRIBLE
from rules.plan import (
    BUY_OFF_FAULT,
    GIFT,
    LEARN,
    LEARN_LISTS,
    POWER,
    RAISE,
    PricedPlan,
    price_plan,
    step_phrase,
)
from rules.rulesets import LEVELS, Ruleset
from rules.words import Level

# The trait kind of each list a step names.
LIST_KINDS = {
    "attributes": Trait.Kind.ATTRIBUTE,
    "skills": Trait.Kind.SKILL,
    "powers": Trait.Kind.POWER,
    "faults": Trait.Kind.FAULT,
    "gifts": Trait.Kind.GIFT,
}


@dataclass(frozen=True)
class Offer:
    """The next spend of the plan, as the spend form posts it: the quote comes first."""

    what: str
    trait: int | None
    name: str
    kind: str
    difficulty: str
    cost: int


@dataclass(frozen=True)
class PlanRow:
    index: int
    label: str
    cost: int | None
    total: int
    short: int
    needs_gm: bool
    reached: bool
    buys: int  # how many spends the step still takes
    problem: str
    section: str
    is_next: bool


def priced_plan(character: Character, available: int, ruleset: Ruleset | None = None):
    """The character's plan priced now: (PricedPlan, its rows for the page)."""
    ruleset = ruleset or ruleset_for(character)
    plan = price_plan(ruleset, character_to_rules(character), plan_steps(character), available)
    ladder = ruleset.ladder
    rows = [
        PlanRow(
            index,
            said(step_phrase(priced.step, ladder)),
            priced.cost,
            priced.total,
            priced.short,
            priced.needs_gm,
            priced.reached,
            len(priced.purchases),
            said(priced.problem) if priced.problem else "",
            priced.section,
            index == plan.next_step,
        )
        for index, priced in enumerate(plan.steps)
    ]
    return plan, rows


def plan_step_said(step, character: Character) -> str:
    """A step in words, in the reader's language: "Climbing to Great"."""
    return said(step_phrase(step, ruleset_for(character).ladder))


def next_offer(character: Character, plan: PricedPlan) -> Offer | None:
    """The plan's next spend, when the experience the character can spend now pays it."""
    index = plan.next_step
    if index is None:
        return None
    priced = plan.steps[index]
    purchase, step = priced.purchases[0], priced.step
    if purchase.cost > plan.available:
        return None
    trait, name, kind, difficulty = None, "", "", ""
    if purchase.what in (RAISE, BUY_OFF_FAULT):
        list_name = "faults" if purchase.what == BUY_OFF_FAULT else step.list
        found = character.traits.filter(kind=LIST_KINDS[list_name], name__iexact=step.name).first()
        if found is None:
            return None
        trait = found.pk
    elif purchase.what == LEARN:
        name, kind, difficulty = step.name, LIST_KINDS[step.list], step.difficulty or ""
    elif purchase.what in (GIFT, POWER):
        name = step.name
    return Offer(purchase.what, trait, name, kind, difficulty, purchase.cost)


def plan_choices(character: Character, ruleset: Ruleset) -> dict:
    """What the plan's forms offer: the traits to raise, the levels, what the rules price."""
    rules = ruleset.advancement
    order = (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL, Trait.Kind.POWER, Trait.Kind.FAULT)
    traits = sorted(
        (t for t in character.traits.all() if t.kind in order),
        key=lambda t: (order.index(t.kind), t.position),
    )
    bottom = TERRIBLE if ruleset.system == LEVELS else ABYSMAL
    top = ruleset.ladder.top_word_level + 3
    return {
        "raisable": [
            (f"{LIST_KINDS_BACK[t.kind]}:{t.name}", rules_name(t.name))
            for t in traits
            if t.kind in (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL)
            or (t.kind == Trait.Kind.POWER and (t.level is not None or ruleset.system != LEVELS))
        ],
        "faults": [(t.name, rules_name(t.name)) for t in traits if t.kind == Trait.Kind.FAULT],
        "levels": [
            (level, SPEAKER.level(Level(level, ruleset.ladder)))
            for level in range(top, bottom - 1, -1)
        ],
        "learn_lists": [
            (list_name, _one(ruleset, list_name))
            for list_name in LEARN_LISTS
            if learnable(ruleset, list_name)
        ],
        "adds": [
            (what, _one(ruleset, list_name))
            for what, list_name in ((GIFT, "gifts"), (POWER, "powers"))
            if getattr(rules, what) is not None
        ],
        "buys_off": rules.buy_off_fault is not None,
        "buys_points": rules.meta_point is not None,
        "meta_most": ruleset.meta_points_max or 10,
    }


def _one(ruleset: Ruleset, list_name: str) -> str:
    """One of a list, in the ruleset's words and the reader's language: "field of power"."""
    one = ruleset.terms.noun(list_name)
    return vocabulary.noun(one, ruleset.terms.plural(list_name), 1) or one


LIST_KINDS_BACK = {kind: list_name for list_name, kind in LIST_KINDS.items()}


def party_plans(campaign) -> list[tuple[Character, list[PlanRow], int]]:
    """Each approved player character of the campaign with a plan: its rows and the
    experience it can spend now, for the GM's compact list."""
    party = (
        Character.objects.filter(campaign=campaign, is_npc=False)
        .exclude(experience_plan=[])
        .select_related("campaign", "owner")
        .prefetch_related("traits", "equipment", "ledger")
        .order_by("name", "pk")
    )
    listed = []
    for character in party:
        # From the prefetched ledger: pending_spends would ask again, once a character.
        held = -sum(entry.amount for entry in character.ledger.all() if entry.pending)
        available = character.experience - held
        _plan, rows = priced_plan(character, available)
        listed.append((character, rows, available))
    return listed
