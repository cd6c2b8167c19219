"""Reads for advancement (docs/approval.md): what a spend costs now, the character's meta
points, and the spends waiting for the GM. The services in services.advancement write what
these price; the advancement page lists them."""

import dataclasses
from dataclasses import asdict, dataclass

from django.utils.functional import lazy
from django.utils.translation import get_language, npgettext
from django.utils.translation import gettext as _

from characters import recorded, vocabulary
from characters.adapters import TRAIT_LISTS, character_to_rules, ledger_rows_read, trait_target
from characters.errors import ServiceError
from characters.models import (
    LEVEL_MAX,
    TRAIT_NAME_MAX,
    Character,
    CharacterEvent,
    DiceRoll,
    ExperienceEntry,
    Trait,
)
from characters.wording import said
from rules.advancement import (
    NotAvailable,
    flat_cost,
    learn_cost,
    learn_start,
    learnable,
    raise_cost,
)
from rules.ladder import ABYSMAL
from rules.ledger import unit_of
from rules.prerequisites import broken_by, with_spend
from rules.recorded import phrase_data, phrase_of
from rules.report import Report
from rules.rulesets import LEVELS, Ruleset
from rules.words import GameWords, Level, Name, Noun, Phrase, Term, say

RAISE, LEARN, GIFT, POWER, BUY_OFF_FAULT, META_POINT = (
    "raise",
    "learn",
    "gift",
    "power",
    "buy_off_fault",
    "meta_point",
)
SPENDS = (RAISE, LEARN, GIFT, POWER, BUY_OFF_FAULT, META_POINT)
NAMED = (LEARN, GIFT, POWER)  # spends on something new, which the player names
# The list a learned trait goes to, by the trait kind the page asks for.
LEARN_LISTS = {Trait.Kind.SKILL: "skills", Trait.Kind.POWER: "powers"}


def learn_words(ruleset: Ruleset, kind: str) -> str:
    """What experience learns new, in the ruleset's words: "fields of expertise"."""
    return ruleset.terms.plural(LEARN_LISTS[kind])


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
    kind: str = ""  # what a new skill or field of power is learned as: "skill", "power"
    difficulty: str = ""  # a skill learned in Mudge: its difficulty (Mudge 1.62)
    phrase: dict | None = None  # the label as a phrase (rules.recorded), for any language


def priced(what: str, target: str, phrase: Phrase, *args, **fields) -> Priced:
    """A Priced whose label is `phrase`: its English, and the phrase kept to be said in the
    reader's language (characters.recorded)."""
    label = str(phrase).rstrip()  # "Add the gift" while the gift has no name yet
    return Priced(what, target, label, *args, phrase=phrase_data(phrase), **fields)


@dataclass(frozen=True)
class Quote:
    """A spend as it would go now: its price, and whether it goes to the GM as a request
    (the rules want the GM's permission, or the campaign has the GM approve every spend)."""

    priced: Priced
    request: bool


def quote_spend(
    character: Character,
    ruleset: Ruleset,
    *,
    acting_gm: bool,
    what: str,
    trait: Trait | None = None,
    name: str = "",
    kind: str = "",
    difficulty: str = "",
) -> Quote:
    """What a spend costs and how it would go, or ServiceError saying why it cannot: the
    confirmation step shows this, and experience_spend checks it again under its lock."""
    if what in NAMED:
        check_new_name(character, new_kind(what, kind), name)
    priced = price_spend(
        character, ruleset, what=what, trait=trait, name=name, kind=kind, difficulty=difficulty
    )
    _check_prerequisites(character, ruleset, priced, trait)
    pending = pending_spends(character)
    if priced.target and any(spec["target"] == priced.target for _, spec in pending):
        raise ServiceError(
            _("A request for {what} is already waiting for the GM.").format(
                what=label_said(asdict(priced))
            )
        )
    held = -sum(entry.amount for entry, _ in pending)
    if priced.cost > character.experience - held:
        words = {
            "what": label_said(asdict(priced)),
            "cost": priced.cost,
            "unit": vocabulary.term(priced.unit, "experience unit"),
            "name": character.name,
            "unspent": character.experience - held,
            "held": held,
        }
        if held:
            raise ServiceError(
                _(
                    "{what} costs {cost} {unit}; {name} has {unspent} unspent ({held} more "
                    "waiting for the GM)."
                ).format(**words)
            )
        raise ServiceError(
            _("{what} costs {cost} {unit}; {name} has {unspent} unspent.").format(**words)
        )
    campaign = character.campaign
    if acting_gm or not (priced.needs_gm or (campaign and campaign.spends_need_approval)):
        return Quote(priced, request=False)
    if campaign is None:
        raise ServiceError(
            _("{what} needs a GM's permission ({section}).").format(
                what=label_said(asdict(priced)), section=priced.section
            )
        )
    return Quote(priced, request=True)


def _check_prerequisites(character: Character, ruleset: Ruleset, priced: Priced, trait) -> None:
    """ServiceError with the GM's own words when the spend would break one of the game's
    prerequisites (docs/ruleset-file.md, "prerequisites"): advancement keeps them as
    creation does."""
    if not ruleset.prerequisites or priced.what == META_POINT:
        return
    before = character_to_rules(character)
    if priced.what in (RAISE, BUY_OFF_FAULT):
        change = {"list_name": TRAIT_LISTS[trait.kind], "name": trait.name}
    elif priced.what == LEARN:
        change = {"list_name": LEARN_LISTS[priced.kind], "name": priced.name}
    else:
        change = {"list_name": "gifts" if priced.what == GIFT else "powers", "name": priced.name}
    after = with_spend(
        before,
        **change,
        level=None if priced.from_level is None else priced.from_level + 1,
        power_kind="superpower" if priced.what == POWER else ruleset.power_kinds[0],
        removed=priced.what == BUY_OFF_FAULT,
    )
    broken = broken_by(before, after, ruleset)
    if broken:
        first = broken[0].prerequisite
        message = said(say("{message}", message=GameWords(first.message, first.translations)))
        raise ServiceError(
            _("{message} ({section})").format(
                message=message, section=first.section or ruleset.section("prerequisites")
            )
        )


def spend_phrase(spec: dict) -> Phrase | str:
    """What a spend buys, from its dict form (Priced): its phrase, or the label of a spend
    recorded before labels kept one, as written."""
    return phrase_of(spec["phrase"]) if spec.get("phrase") else spec["label"]


def label_said(spec: dict) -> str:
    """What a spend buys in the reader's language."""
    return said(spend_phrase(spec))


def new_kind(what: str, kind: str) -> str:
    """The kind of trait a spend on something new adds."""
    return {GIFT: Trait.Kind.GIFT, POWER: Trait.Kind.POWER}.get(what, kind)


def check_new_name(character: Character, kind: str, name: str) -> None:
    if kind not in Trait.Kind.values:
        raise ServiceError(_("Choose what to learn: a skill or a field of power."))
    if not name or len(name) > TRAIT_NAME_MAX:
        raise ServiceError(
            _("Name the {kind} to add (at most {most} characters).").format(
                kind=_kind_said(kind), most=TRAIT_NAME_MAX
            )
        )
    held = character.traits.filter(kind=kind, name__iexact=name).first()
    if held is not None:
        raise ServiceError(
            _("{name} already has the {kind} {trait}.").format(
                name=character.name, kind=_kind_said(kind), trait=held.name
            )
        )


def _kind_said(kind: str) -> str:
    """A trait kind ("skill") as the reader's language says one of its list."""
    return vocabulary.noun(kind, f"{kind}s", 1) or kind


def points_name(ruleset: Ruleset) -> str:
    """Fudge Basics calls them Fudge points, Mudge meta points (1.36): the ruleset's word."""
    return ruleset.terms.points or "meta points"


def meta_points_of(character: Character, ruleset: Ruleset) -> int:
    """Current meta points: a character that never changed them has the ruleset's start."""
    return ruleset.meta_points_start if character.meta_points is None else character.meta_points


def price_spend(
    character: Character,
    ruleset: Ruleset,
    *,
    what: str,
    trait: Trait | None = None,
    name="",
    kind="",
    difficulty="",
) -> Priced:
    """What `what` costs this character now, or ServiceError saying why it cannot be bought.
    Balance and permission are not checked here: the spend options show those apart."""
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    try:
        if what == RAISE:
            return _price_raise(ruleset, trait)
        if what == LEARN:
            return _price_learn(ruleset, kind, name, difficulty)
        if what in (GIFT, POWER):
            cost = flat_cost(ruleset, what)
            list_name = "gifts" if what == GIFT else "powers"
            noun = Noun(ruleset.terms.noun(list_name), ruleset.terms.plural(list_name))
            kind = Trait.Kind.GIFT if what == GIFT else Trait.Kind.POWER
            target = f"{kind}:{name}" if name else ""
            return priced(
                what,
                target,
                say(recorded.ADD, noun=noun, name=Name(name)),
                cost.amount,
                unit,
                cost.needs_gm_permission,
                cost.section,
                name=name,
            )
        if what == BUY_OFF_FAULT:
            if trait is None or trait.kind != Trait.Kind.FAULT:
                raise ServiceError(_("Choose one of the character's faults to buy off."))
            cost = flat_cost(ruleset, what)
            noun = Noun(ruleset.terms.noun("faults"), ruleset.terms.plural("faults"))
            return priced(
                what,
                trait_target(trait),
                say(recorded.BUY_OFF, noun=noun, name=Name(trait.name)),
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
                    _(
                        "{name} has {current} {points}, the most a character may hold ({section})."
                    ).format(
                        name=character.name,
                        current=current,
                        points=vocabulary.term(points_name(ruleset), "points"),
                        section=ruleset.section("meta_points"),
                    )
                )
            return priced(
                what,
                "",
                say(recorded.BUY_POINT, point=Term(ruleset.terms.point, "advancement purchase")),
                cost.amount,
                unit,
                cost.needs_gm_permission,
                cost.section,
            )
    except NotAvailable as error:
        raise ServiceError(
            _("{why}: that is the GM's call, outside Fairsheet.").format(why=said(error.phrase))
        ) from None
    raise ServiceError(_("Choose what to spend experience on."))


def _price_raise(ruleset: Ruleset, trait: Trait | None) -> Priced:
    if trait is None or trait.kind not in (
        Trait.Kind.ATTRIBUTE,
        Trait.Kind.SKILL,
        Trait.Kind.POWER,
    ):
        raise ServiceError(_("Choose an attribute, a skill or a power to raise."))
    level = trait.level
    if level is None and trait.kind == Trait.Kind.POWER and ruleset.system != LEVELS:
        level = ABYSMAL  # a MicroFudged field of power with no rank yet (DIP VIII.1)
    if level is None:
        raise ServiceError(
            _("{name} has no level to raise: a superpower is bought whole, as a gift.").format(
                name=trait.name
            )
        )
    if level >= LEVEL_MAX:
        raise ServiceError(
            _("{name} is at the top of the ladder Fairsheet keeps.").format(name=trait.name)
        )
    cost = raise_cost(ruleset, trait.kind, level)
    return priced(
        RAISE,
        trait_target(trait),
        say(
            recorded.RAISE,
            name=Name(trait.name),
            old=Level(level, ruleset.ladder),
            new=Level(level + 1, ruleset.ladder),
        ),
        cost.amount,
        cost.unit,
        cost.needs_gm_permission,
        cost.section,
        trait=trait.pk,
        from_level=level,
    )


def learnable_kinds(ruleset: Ruleset) -> list[str]:
    """The trait kinds experience learns new, level by level: skills (fields of expertise),
    and in MicroFudged fields of power (rules.advancement.learnable)."""
    return [kind for kind, list_name in LEARN_LISTS.items() if learnable(ruleset, list_name)]


def _price_learn(ruleset: Ruleset, kind: str, name: str, difficulty: str) -> Priced:
    kinds = learnable_kinds(ruleset)
    if kind not in kinds:
        learned = " and ".join(learn_words(ruleset, k) for k in kinds)
        raise ServiceError(f"{ruleset.name} learns {learned} with experience: choose one.")
    if not ruleset.skill_difficulties or kind != Trait.Kind.SKILL:
        difficulty = ""
    list_name = LEARN_LISTS[kind]
    start = learn_start(ruleset, list_name, name, difficulty or None)
    cost = learn_cost(ruleset, list_name, name, difficulty or None, start + 1)
    level = Level(start + 1, ruleset.ladder)
    # Never without a name: check_new_name asks for one first.
    if difficulty:
        how_hard = Term(difficulty.replace("_", " "), "difficulty")
        label = say(recorded.LEARN_HOW_HARD, name=Name(name), difficulty=how_hard, level=level)
    else:
        label = say(recorded.LEARN, name=Name(name), level=level)
    return priced(
        LEARN,
        f"{kind}:{name}" if name else "",
        label,
        cost.amount,
        cost.unit,
        cost.needs_gm_permission,
        cost.section,
        name=name,
        from_level=start,
        kind=kind,
        difficulty=difficulty,
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
        "phrase": entry.reason_phrase,
        "cost": -entry.amount,
        "unit": "",
        "entry": entry.pk,
    }


def amount_words(amount: int, ruleset: Ruleset) -> str:
    """ "5 XP", "1 token", "3 tokens": an amount of the ruleset's experience unit (the
    abbreviations XP and EP take no plural)."""
    unit = unit_of(ruleset)
    return f"{amount} {unit if amount == 1 or unit.isupper() else unit + 's'}"


def _amount_text(amount: int, unit: str, english: str) -> str:
    if (get_language() or "en").split("-")[0] == "en":
        return english
    if unit == "token":
        return npgettext("experience", "{count} token", "{count} tokens", amount).format(
            count=amount
        )
    return f"{amount} {vocabulary.term(unit, 'experience unit')}"


_amount_lazy = lazy(_amount_text, str)


def amount_phrase(amount: int, ruleset: Ruleset) -> Phrase:
    """amount_words as a phrase, to be said in its reader's language: "5 PX", "3 fichas"."""
    unit = unit_of(ruleset)
    if unit.isupper():  # XP, EP: no plural
        return say("{amount} {unit}", amount=amount, unit=Term(unit, "experience unit"))
    return say("{amount} {unit}", amount=amount, unit=Noun(unit, f"{unit}s", amount))


def amount_said(amount: int, ruleset: Ruleset):
    """amount_words in the reader's language ("5 PX", "3 fichas"), lazy: a notification
    says it in its reader's language."""
    return _amount_lazy(amount, unit_of(ruleset), amount_words(amount, ruleset))


def spend_to_take_back(character: Character) -> ExperienceEntry | None:
    """The spend the player may take back now, if any: the newest line of the ledger, a
    spend the player made and that applied at once, with nothing since that the GM did to
    the character (an award, a decision) and no session started in its campaign since."""
    newest = character.ledger.filter(pending=False).order_by("-created_at", "-id").first()
    if (
        newest is None
        or newest.amount >= 0
        or newest.bought is None
        or newest.request is not None  # a request the GM accepted: the GM acted on it
        or newest.actor_id != character.owner_id
    ):
        return None
    since = {"created_at__gt": newest.created_at}
    if character.campaign_id is not None:
        if CharacterEvent.objects.filter(
            character=character, actor_id=character.campaign.gm_id, **since
        ).exists():
            return None
        sessions = DiceRoll.objects.filter(campaign_id=character.campaign_id)
    else:
        sessions = DiceRoll.objects.filter(character=character)
    if sessions.filter(kind=DiceRoll.Kind.SESSION, **since).exists():
        return None
    return newest


# -- what the GM has settled ------------------------------------------------------------------

# Advice the GM's approval settles: the creation build's unspent levels went when play
# started (Mudge 1.6), and each spend the rules hand to the GM went through them.
SETTLED_BY_APPROVAL = frozenset({"levels_unspent", "gm_permission"})


def settled_report(character: Character, report: Report) -> Report:
    """The report as the GM's decisions leave it. An approved build's panel no longer gives
    the advice its approval settled. A spend the rules hand to the GM (Mudge 5.2: a gift, a
    power, Legendary) is not flagged again once the GM let it through: a request they
    accepted, their own spend, or one in a build they approved since; so a build that comes
    back for review (after an update from Foundry) shows only what the GM has not seen."""
    if character.state == Character.State.APPROVED:
        warnings = [w for w in report.warnings if w.code not in SETTLED_BY_APPROVAL]
    elif not any(w.code == "gm_permission" for w in report.warnings):
        # Most builds ask nothing of the GM: their approvals and ledger are not read for it.
        return report
    else:
        settled = gm_settled_spends(character)
        warnings = [
            w for w in report.warnings if not (w.code == "gm_permission" and w.where in settled)
        ]
    return dataclasses.replace(report, warnings=warnings)


def gm_settled_spends(character: Character) -> set[str]:
    """Where the report names each spend the GM let through ("advancement[2]")."""
    gm_id = character.campaign.gm_id if character.campaign_id else None
    # A spend made before the latest approval was let through by it.
    approved = max((a.created_at for a in character.approvals.all()), default=None)
    return {
        f"advancement[{index}]"
        for index, row in enumerate(ledger_rows_read(character))
        if row.request
        or (gm_id is not None and row.actor_id == gm_id)
        or (approved is not None and approved >= row.created_at)
    }
