"""Reads for advancement (docs/approval.md): what a spend costs now, the character's meta
points, and the spends waiting for the GM. The services in services.advancement write what
these price; the advancement page lists them."""

from dataclasses import dataclass

from characters.adapters import trait_target
from characters.errors import ServiceError
from characters.models import LEVEL_MAX, Character, ExperienceEntry, Trait
from rules.advancement import NotAvailable, flat_cost, raise_cost
from rules.ladder import ABYSMAL
from rules.ledger import unit_of
from rules.rulesets import LEVELS, Ruleset

RAISE, GIFT, POWER, BUY_OFF_FAULT, META_POINT = (
    "raise",
    "gift",
    "power",
    "buy_off_fault",
    "meta_point",
)
SPENDS = (RAISE, GIFT, POWER, BUY_OFF_FAULT, META_POINT)
MAX_AWARD = 100  # a typo guard: the rule texts suggest 1 to 4 a session


@dataclass(frozen=True)
class Priced:
    """A spend as the rules price it. Its dict form is what a pending request records in its
    event, so the GM accepts exactly what was asked for."""

    what: str
    target: str  # "skill:Climbing"; "gift:Danger Sense" for a new one; "" for a meta point
    label: str  # "Raise Climbing from Fair to Good"
    cost: int
    unit: str
    needs_gm: bool
    section: str
    trait: int | None = None  # the trait raised or bought off
    name: str = ""  # the gift or power added
    from_level: int | None = None


def points_name(ruleset: Ruleset) -> str:
    """Fudge Basics calls them Fudge points, Mudge meta points (1.36): the ruleset's word."""
    return ruleset.terms.points or "meta points"


def meta_points_of(character: Character, ruleset: Ruleset) -> int:
    """Current meta points: a character that never changed them has the ruleset's start."""
    return ruleset.meta_points_start if character.meta_points is None else character.meta_points


def price_spend(
    character: Character, ruleset: Ruleset, *, what: str, trait: Trait | None = None, name=""
) -> Priced:
    """What `what` costs this character now, or ServiceError saying why it cannot be bought.
    Balance and permission are not checked here: the spend options show those apart."""
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    try:
        if what == RAISE:
            return _price_raise(ruleset, trait)
        if what in (GIFT, POWER):
            cost = flat_cost(ruleset, what)
            label = f"Add the {'gift' if what == GIFT else 'power'} {name}".rstrip()
            kind = Trait.Kind.GIFT if what == GIFT else Trait.Kind.POWER
            target = f"{kind}:{name}" if name else ""
            return Priced(
                what,
                target,
                label,
                cost.amount,
                unit,
                cost.needs_gm_permission,
                cost.section,
                name=name,
            )
        if what == BUY_OFF_FAULT:
            if trait is None or trait.kind != Trait.Kind.FAULT:
                raise ServiceError("Choose one of the character's faults to buy off.")
            cost = flat_cost(ruleset, what)
            label = f"Buy off the fault {trait.name}"
            return Priced(
                what,
                trait_target(trait),
                label,
                cost.amount,
                unit,
                cost.needs_gm_permission,
                cost.section,
                trait.pk,
            )
        if what == META_POINT:
            cost = flat_cost(ruleset, what)
            current = meta_points_of(character, ruleset)
            if ruleset.meta_points_max is not None and current >= ruleset.meta_points_max:
                raise ServiceError(
                    f"{character.name} has {current} {points_name(ruleset)}, the most a "
                    f"character may hold ({ruleset.section('meta_points')})."
                )
            return Priced(
                what,
                "",
                "Buy a meta point",
                cost.amount,
                unit,
                cost.needs_gm_permission,
                cost.section,
            )
    except NotAvailable as error:
        raise ServiceError(f"{error}: that is the GM's call, outside Fairsheet.") from None
    raise ServiceError("Choose what to spend experience on.")


def _price_raise(ruleset: Ruleset, trait: Trait | None) -> Priced:
    if trait is None or trait.kind not in (
        Trait.Kind.ATTRIBUTE,
        Trait.Kind.SKILL,
        Trait.Kind.POWER,
    ):
        raise ServiceError("Choose an attribute, a skill or a power to raise.")
    level = trait.level
    if level is None and trait.kind == Trait.Kind.POWER and ruleset.system != LEVELS:
        level = ABYSMAL  # a MicroFudged field of power with no rank yet (DIP VIII.1)
    if level is None:
        raise ServiceError(
            f"{trait.name} has no level to raise: a superpower is bought whole, as a gift."
        )
    if level >= LEVEL_MAX:
        raise ServiceError(f"{trait.name} is at the top of the ladder Fairsheet keeps.")
    cost = raise_cost(ruleset, trait.kind, level)
    return Priced(
        RAISE,
        trait_target(trait),
        f"Raise {trait.name} from {ruleset.word(level)} to {ruleset.word(level + 1)}",
        cost.amount,
        cost.unit,
        cost.needs_gm_permission,
        cost.section,
        trait=trait.pk,
        from_level=level,
    )


def pending_spends(character: Character) -> list[tuple[ExperienceEntry, dict]]:
    """The character's spends waiting for the GM, oldest first, with what each asks for."""
    return with_requests(list(character.ledger.filter(pending=True).order_by("created_at", "id")))


def with_requests(entries: list[ExperienceEntry]) -> list[tuple[ExperienceEntry, dict]]:
    """Pending ledger entries, each with what it asks for: the dict form of Priced, kept on
    the entry when it was asked for."""
    return [(entry, _request_of(entry)) for entry in entries]


def _request_of(entry: ExperienceEntry) -> dict:
    if entry.request:
        return {**entry.request, "entry": entry.pk}
    # A pending row written without experience_spend (by hand, say): nothing says what it
    # buys, so it shows as its ledger reason and can only be refused.
    return {
        "what": None,
        "target": "",
        "label": entry.reason,
        "cost": -entry.amount,
        "unit": "",
        "entry": entry.pk,
    }


def amount_words(amount: int, ruleset: Ruleset) -> str:
    """ "5 XP", "1 token", "3 tokens": an amount of the ruleset's experience unit (the
    abbreviations XP and EP take no plural)."""
    unit = unit_of(ruleset)
    return f"{amount} {unit if amount == 1 or unit.isupper() else unit + 's'}"
