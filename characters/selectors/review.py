"""Reads for the approval, audit and advancement pages. Who may see what follows
characters.selectors: anyone not allowed gets a 404, never a 403."""

from dataclasses import dataclass, fields

from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404

from characters.adapters import (
    character_file,
    character_to_rules,
    file_sha256,
    recorded_level,
    ruleset_for,
)
from characters.errors import ServiceError
from characters.models import (
    DIFFICULTY_CHOICES,
    Character,
    CharacterEvent,
    ExperienceEntry,
    Submission,
    Trait,
    target_label,
)
from characters.selectors.access import BUILD_ROWS, is_gm_of
from characters.selectors.advancement import (
    BUY_OFF_FAULT,
    GIFT,
    META_POINT,
    POWER,
    RAISE,
    Priced,
    learnable_kinds,
    meta_points_of,
    pending_spends,
    points_name,
    price_spend,
    spend_to_take_back,
    with_requests,
)
from rules.diff import diff_files
from rules.report import Report, build_report
from rules.rule_names import in_words
from rules.rulesets import BUILTIN, LEVELS, Ruleset

# -- who may see what --------------------------------------------------------------------------


def character_for_gm(user, pk) -> Character:
    """A character of a campaign the user runs, with its rows; 404 for anyone else."""
    return get_object_or_404(
        Character.objects.reviewed_by(user)
        .select_related("campaign", "owner")
        .prefetch_related(*BUILD_ROWS),
        pk=pk,
    )


def pending_entry_for_gm(user, character_pk, entry_pk) -> ExperienceEntry:
    return get_object_or_404(
        ExperienceEntry.objects.filter(character__campaign__gm=user, pending=True),
        pk=entry_pk,
        character_id=character_pk,
    )


# -- the review queue ----------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueItem:
    character: Character
    submitted_at: object
    report: Report


def review_queue(user, campaign=None) -> list[QueueItem]:
    """Submitted builds in the campaigns the user runs, longest waiting first, each with its
    build report. A fixed number of queries, whatever the length of the queue."""
    submitted_at = Submission.objects.filter(
        character=OuterRef("pk"), outcome=Submission.Outcome.WAITING
    ).values("submitted_at")[:1]
    characters = (
        Character.objects.reviewed_by(user)
        .filter(state=Character.State.SUBMITTED)
        .select_related("campaign", "owner")
        .prefetch_related(*BUILD_ROWS)
        .annotate(submitted_at=Subquery(submitted_at))
        .order_by("submitted_at", "pk")
    )
    if campaign is not None:
        characters = characters.filter(campaign=campaign)
    return [
        QueueItem(c, c.submitted_at, build_report(character_to_rules(c), ruleset_for(c)))
        for c in characters
    ]


def pending_spend_queue(user, campaign=None) -> list[tuple[ExperienceEntry, dict]]:
    """Spends waiting for the user as GM, oldest first, with what each asks for."""
    entries = (
        ExperienceEntry.objects.filter(character__campaign__gm=user, pending=True)
        .select_related("character", "character__campaign", "actor")
        .order_by("created_at", "id")
    )
    if campaign is not None:
        entries = entries.filter(character__campaign=campaign)
    return with_requests(list(entries))


# -- the audit page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    key: str  # "a12" approval, "s34" submission event, "current"
    label: str
    file: dict
    sha256: str  # as recorded when the build was kept

    @property
    def verified(self) -> bool:
        """The kept build still hashes to the SHA-256 its event recorded (approvals are not
        append-only rows: this is how a changed snapshot would show)."""
        return file_sha256(self.file) == self.sha256


@dataclass(frozen=True)
class TimelineRow:
    event: CharacterEvent
    changes: list[tuple[str, str, str]]  # (field, before, after)
    target: str = ""  # what the event is about, in the ruleset's words

    @property
    def title(self) -> str:
        return self.event.action.replace("_", " ")

    @property
    def message(self) -> str:
        """A thread's message, in full, as it was written (services.threads)."""
        return (self.event.after or {}).get("message", "")


def character_versions(character: Character) -> list[Version]:
    """Every build on the record, newest first: each approval's snapshot, each submitted
    build (kept in its event), and the build as it is now."""
    current = character_file(character)
    versions = [Version("current", f"now (v{character.version})", current, file_sha256(current))]
    # An approval's hash as its append-only event recorded it, not as its own row says: a
    # snapshot rewritten with its hash column recomputed still shows as changed.
    approved_hashes = {
        e.version: e.after.get("sha256", "")
        for e in character.events.filter(action="approved").only("version", "after")
    }
    recorded = [
        (
            a.created_at,
            Version(
                f"a{a.pk}",
                f"approved v{a.version}",
                a.snapshot,
                approved_hashes.get(a.version, ""),
            ),
        )
        for a in character.approvals.all()
    ]
    recorded += [
        (
            e.created_at,
            Version(f"s{e.pk}", f"submitted v{e.version}", e.after["file"], e.after["sha256"]),
        )
        for e in character.events.filter(action="submitted")
    ]
    recorded.sort(key=lambda pair: pair[0], reverse=True)
    return versions + [version for _, version in recorded]


def default_comparison(versions: list[Version]) -> tuple[str | None, str]:
    """The last approved build against the build now; before any approval, the last
    submitted build that differs from now (what the GM sent back, for a resubmission)."""
    current = versions[0]
    approved = next((v for v in versions if v.key.startswith("a")), None)
    if approved is not None:
        return approved.key, current.key
    for version in versions[1:]:
        if version.sha256 != current.sha256:
            return version.key, current.key
    return None, current.key


def compare(versions: list[Version], old_key: str | None, new_key: str, ruleset: Ruleset):
    """(old, new, changes) for two keys of `versions`; a key not on the list is a 404. No
    `old_key` compares with nothing: the whole build, as added. The changes name the lists
    in the character's `ruleset`'s words (its files' levels are its ladder's already)."""
    by_key = {v.key: v for v in versions}
    if new_key not in by_key or (old_key is not None and old_key not in by_key):
        raise KeyError(old_key if new_key in by_key else new_key)
    old = by_key[old_key] if old_key else None
    new = by_key[new_key]
    return old, new, diff_files(old.file if old else {}, new.file, ruleset.terms)


def timeline(character: Character, ruleset: Ruleset) -> list[TimelineRow]:
    """The character's events, newest first, each with its changed fields, said in the
    character's `ruleset`'s words: its lists' names, its ladder's words."""
    events = character.events.select_related("actor").order_by("-created_at", "-id")
    return [
        TimelineRow(
            e,
            _changes(e.before, e.after, ruleset),
            target_label(e.target, ruleset.terms) if e.target else "",
        )
        for e in events
    ]


# Recorded for the machinery, not for reading: a submitted build in full (the diff shows it),
# what a spend request needs to be applied later (its reason says what it buys; its cost is
# shown), the thread a message belongs to (its target says what it is on) and the message
# itself (TimelineRow.message shows it whole).
MACHINERY = {"file", "entry", "thread", "message"}
SPEND_SPEC = {f.name for f in fields(Priced)} - {"cost"}


def _changes(before, after, ruleset: Ruleset) -> list[tuple[str, str, str]]:
    before, after = before or {}, after or {}
    hidden = MACHINERY | (SPEND_SPEC if "what" in before or "what" in after else set())
    keys = [k for k in dict.fromkeys([*before, *after]) if k not in hidden]
    return [
        (
            _field(key, ruleset),
            _shown(key, before.get(key), ruleset),
            _shown(key, after.get(key), ruleset),
        )
        for key in keys
        if before.get(key) != after.get(key) or key not in before
    ]


# The keys of an event whose values are levels, recorded as words of the standard ladder
# (adapters.trait_state): shown in the character's ruleset's words.
LEVEL_FIELDS = ("level", "from", "to")


def _field(key: str, ruleset: Ruleset) -> str:
    if key == "meta_points" and ruleset.terms.points:
        return ruleset.terms.points
    return in_words(key)


def _shown(key, value, ruleset: Ruleset) -> str:
    if value is None:
        return ""
    if key in LEVEL_FIELDS and isinstance(value, str):
        return recorded_level(value, ruleset.ladder)
    if key == "sha256":
        return f"{value[:12]}…"  # the audit page's diff checks the whole digest
    if key == "ruleset" and value in BUILTIN:
        return BUILTIN[value].name  # "MicroFudged DIP", not its slug
    if key == "ruleset" and value == ruleset.slug:
        return ruleset.name  # a GM's game by its name
    if key == "state" and value in Character.State.values:
        return Character.State(value).label.lower()  # "changes requested"
    return in_words(value)


# -- the advancement page ------------------------------------------------------------------------


RAISABLE = (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL, Trait.Kind.POWER)
KIND_ORDER = (*RAISABLE, Trait.Kind.FAULT, Trait.Kind.GIFT)  # as the spend options are listed


@dataclass(frozen=True)
class SpendOption:
    group: str  # the heading it is listed under
    what: str
    label: str
    cost: int | None
    enabled: bool
    why_not: str = ""
    trait: Trait | None = None
    needs_gm: bool = False
    needs_name: bool = False
    noun: str = ""  # what a purchase that needs a name is called: "gift"


@dataclass(frozen=True)
class Points:
    name: str
    current: int
    most: int | None
    rate: int | None  # Fudge points that convert to one EP (Fudge Basics), else None


def advancement_context(character: Character, user) -> dict:
    ruleset = ruleset_for(character)
    acting_gm = is_gm_of(character, user)
    pending = pending_spends(character)
    held = -sum(entry.amount for entry, _ in pending)
    available = character.experience - held
    points = None
    if ruleset.system == LEVELS:
        points = Points(
            points_name(ruleset),
            meta_points_of(character, ruleset),
            ruleset.meta_points_max,
            ruleset.advancement.points_per_unit,
        )
    return {
        "character": character,
        "ruleset": ruleset,
        "unit": ruleset.advancement.unit,
        "is_gm": acting_gm,
        "is_owner": character.owner_id == user.pk,
        "in_play": character.state == Character.State.APPROVED,
        "held": held,
        "available": available,
        "options": spend_options(
            character, ruleset, available=available, acting_gm=acting_gm, pending=pending
        ),
        "pending": pending,
        "take_back": spend_to_take_back(character) if character.owner_id == user.pk else None,
        # (kind, what one is called): ("skill", "field of expertise")
        "learn_kinds": [(kind, ruleset.terms.kind(kind)) for kind in learnable_kinds(ruleset)],
        "difficulties": DIFFICULTY_CHOICES if ruleset.skill_difficulties else (),
        "ledger": list(character.ledger.select_related("actor").order_by("-created_at", "-id")),
        "points": points,
        "party_size": Character.objects.filter(
            campaign_id=character.campaign_id, state=Character.State.APPROVED
        ).count()
        if character.campaign_id
        else 0,
    }


def spend_options(
    character: Character, ruleset: Ruleset, *, available: int, acting_gm: bool, pending=()
) -> list[SpendOption]:
    """Everything experience can buy for this character now, each with its cost, and when it
    cannot be bought, why (too dear, the GM's permission, not in these rules, waiting)."""
    waiting = {spec["target"] for _, spec in pending if spec["target"]}
    rules = ruleset.advancement
    traits = sorted(character.traits.all(), key=lambda t: (KIND_ORDER.index(t.kind), t.position))
    choices = [(RAISE, t) for t in traits if t.kind in RAISABLE]
    if rules.buy_off_fault is not None:
        choices += [(BUY_OFF_FAULT, t) for t in traits if t.kind == Trait.Kind.FAULT]
    # A purchase these rules give no cost for gets no line at all.
    choices += [(what, None) for what in (GIFT, POWER, META_POINT) if getattr(rules, what)]
    options = []
    for what, trait in choices:
        try:
            priced = price_spend(character, ruleset, what=what, trait=trait)
        except ServiceError as error:
            options.append(
                SpendOption(
                    _group(ruleset, what, trait),
                    what,
                    _label(ruleset, what, trait),
                    None,
                    False,
                    str(error),
                    trait,
                    noun=_noun(ruleset, what),
                )
            )
            continue
        why_not = ""
        if priced.target in waiting:
            why_not = "already waiting for the GM"
        elif priced.cost > available:
            why_not = f"needs {priced.cost} {priced.unit}; {available} unspent"
        options.append(
            SpendOption(
                _group(ruleset, what, trait),
                what,
                priced.label,
                priced.cost,
                not why_not,
                why_not,
                trait,
                priced.needs_gm,
                needs_name=what in (GIFT, POWER),
                noun=_noun(ruleset, what),
            )
        )
    return options


def _group(ruleset: Ruleset, what: str, trait: Trait | None) -> str:
    """The heading an option is listed under, in the ruleset's words."""
    terms = ruleset.terms
    if trait is None:
        new = [terms.plural("gifts"), terms.plural("powers"), points_name(ruleset)]
        return f"New {new[0]}, {new[1]} and {new[2]}"
    return terms.title(f"{trait.kind}s")


# The list a purchase adds to or takes from, for its name in the ruleset's words.
PURCHASE_LISTS = {GIFT: "gifts", POWER: "powers", BUY_OFF_FAULT: "faults"}


def _noun(ruleset: Ruleset, what: str) -> str:
    """What a purchase that needs a name is called: "gift", "field of power"."""
    return ruleset.terms.noun(PURCHASE_LISTS[what]) if what in (GIFT, POWER) else ""


def _label(ruleset: Ruleset, what: str, trait: Trait | None) -> str:
    if what == RAISE:
        return f"Raise {trait.name}"
    if what == META_POINT:
        return ruleset.terms.point.capitalize()
    return ruleset.terms.noun(PURCHASE_LISTS[what]).capitalize()
