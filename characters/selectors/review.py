"""Reads for the approval, audit and advancement pages. Who may see what follows
characters.selectors: anyone not allowed gets a 404, never a 403."""

import re
from dataclasses import asdict, dataclass, fields

from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from characters import knobs, recorded, states, vocabulary
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
    Equipment,
    ExperienceEntry,
    Submission,
    Trait,
)
from characters.recorded import event_lines_said, event_reason_said
from characters.rules_content import rules_name, rules_text
from characters.selectors.access import BUILD_ROWS, is_gm_of
from characters.selectors.advancement import (
    BUY_OFF_FAULT,
    GIFT,
    META_POINT,
    POWER,
    RAISE,
    Priced,
    learn_words,
    learnable_kinds,
    meta_points_of,
    pending_spends,
    points_name,
    price_spend,
    settled_report,
    spend_to_take_back,
    with_requests,
)
from characters.selectors.plans import next_offer, plan_choices, priced_plan
from characters.selectors.review_rows import target_said
from characters.wording import SPEAKER, said
from rules.character import PERSONALITY_QUESTIONS
from rules.diff import ADDED, CHANGED, REMOVED, Change, diff_files
from rules.house_rules import ATTRIBUTE_KEYS
from rules.json_files import CharacterFileError
from rules.plan import read_steps, step_phrase
from rules.recorded import phrase_of
from rules.report import Report, build_report
from rules.rule_names import in_words
from rules.rulesets import BUILTIN, LEVELS, Ruleset
from rules.templates import race_taken, scale_now, taken
from rules.words import Level

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
        .players()  # an NPC is the GM's own: never in the approval queue
        .filter(state=Character.State.SUBMITTED)
        .select_related("campaign", "owner")
        # The approvals: settled_report reads them to leave out what the GM let through.
        .prefetch_related(*BUILD_ROWS, "approvals")
        .annotate(submitted_at=Subquery(submitted_at))
        .order_by("submitted_at", "pk")
    )
    if campaign is not None:
        characters = characters.filter(campaign=campaign)
    return [
        QueueItem(
            c,
            c.submitted_at,
            settled_report(c, build_report(character_to_rules(c), ruleset_for(c))),
        )
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
    return [
        (entry, {**spec, "said": spend_label(spec, ruleset_for(entry.character))})
        for entry, spec in with_requests(list(entries))
    ]


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
    reason: str = ""  # the event's reason, in the reader's language where a service wrote it

    @property
    def title(self) -> str:
        said = ACTION_TITLES.get(self.event.action)
        return self.event.action.replace("_", " ") if said is None else str(said)

    @property
    def message(self) -> str:
        """A thread's message, in full, as it was written (services.threads)."""
        return (self.event.after or {}).get("message", "")


def character_versions(character: Character) -> list[Version]:
    """Every build on the record, newest first: each approval's snapshot, each submitted
    build (kept in its event), and the build as it is now."""
    current = character_file(character)
    now = _("now (v{version})").format(version=character.version)
    versions = [Version("current", now, current, file_sha256(current))]
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
                _("approved v{version}").format(version=a.version),
                a.snapshot,
                approved_hashes.get(a.version, ""),
            ),
        )
        for a in character.approvals.all()
    ]
    recorded += [
        (
            e.created_at,
            Version(
                f"s{e.pk}",
                _("submitted v{version}").format(version=e.version),
                e.after["file"],
                e.after["sha256"],
            ),
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
    before = old.file if old else {}
    changes = diff_files(before, new.file, ruleset.terms)
    return old, new, [said_change(change, ruleset, before, new.file) for change in changes]


# -- the diff in the reader's language -----------------------------------------------------------


@dataclass(frozen=True)
class SaidChange:
    """A change of the diff (rules.diff.Change) as the page says it, in the reader's
    language: the engine's English words for what changed, said again here."""

    kind: str  # ADDED, REMOVED or CHANGED: the page's class for it
    kind_said: str
    label: str  # what changed: "skill", "name"
    name: str  # the trait's name, or the detail's part ("strength" of the scale)
    old: str = ""
    new: str = ""
    joiner: str = " "  # between the label and the name: ": " before a house rule's label

    @property
    def title(self) -> str:
        """What changed: "skill Bow", "house rules: Free skill levels"."""
        return f"{self.label}{self.joiner}{self.name}" if self.name else self.label

    def __str__(self) -> str:
        """The change in one line, as rules.diff.Change says it in English."""
        if self.kind == ADDED:
            if self.new:
                return _("added {what} ({details})").format(what=self.title, details=self.new)
            return _("added {what}").format(what=self.title)
        if self.kind == REMOVED:
            if self.old:
                return _("removed {what} ({details})").format(what=self.title, details=self.old)
            return _("removed {what}").format(what=self.title)
        if self.old or self.new:
            return f"{self.title}: {self.old or '—'} → {self.new or '—'}"
        return _("{what} changed").format(what=self.title)


CHANGE_KINDS = {
    ADDED: pgettext_lazy("diff", "added"),
    REMOVED: pgettext_lazy("diff", "removed"),
    CHANGED: pgettext_lazy("diff", "changed"),
}
# What rules.diff calls a character's details (its DETAILS, LONG_TEXT, scale, house rules
# and personality); the points are the ruleset's term.
DETAIL_WORDS = {
    "ruleset": pgettext_lazy("character detail", "ruleset"),
    "name": pgettext_lazy("character detail", "name"),
    "player": pgettext_lazy("character detail", "player"),
    "concept": pgettext_lazy("character detail", "concept"),
    "race": pgettext_lazy("character detail", "race"),
    "experience": pgettext_lazy("character detail", "experience"),
    "notes": pgettext_lazy("character detail", "notes"),
    "scale": pgettext_lazy("character detail", "scale"),
    "strength": pgettext_lazy("character detail", "strength"),
    "mass": pgettext_lazy("character detail", "mass"),
    "house rules": pgettext_lazy("character detail", "house rules"),
    "personality": pgettext_lazy("character detail", "personality"),
}


def said_change(
    change: Change, ruleset: Ruleset, old_file: dict | None = None, new_file: dict | None = None
) -> SaidChange:
    """One change of the diff in the reader's language. English reads as rules.diff words it;
    a GM's own words (a list's name, a ladder of its own) stay as written. A house rule or a
    personality answer, which rules.diff names by its key, is named by its label with its
    values from the two files (`old_file`, `new_file`)."""
    if change.section == "details" and change.label in KEYED_DETAILS:
        key = KEYED_DETAILS[change.label]
        before, after = (old_file or {}).get(key) or {}, (new_file or {}).get(key) or {}
        name = next(
            (k for k in (*after, *before) if k.replace("_", " ") == change.name), change.name
        )
        return SaidChange(
            change.kind,
            str(CHANGE_KINDS[change.kind]),
            _detail_word(change.label),
            _keyed_label(key, name, ruleset),
            _keyed_value(key, name, before.get(name), ruleset),
            _keyed_value(key, name, after.get(name), ruleset),
            joiner=pgettext("label: value", ": "),
        )
    if change.section == "details":
        what = _detail_word(change.label)
        name = change.name
        if change.label == "scale":
            name = _detail_word(change.name)
        old, new = change.old, change.new
        if change.label == "ruleset":  # a ruleset by its name, a GM's game too
            old, new = (_ruleset_shown(v, ruleset) if v else v for v in (old, new))
        elif change.label == "race":  # a built-in one (a Mudge template's) as the sheet says it
            old, new = (rules_name(v) if v else v for v in (old, new))
    else:
        what = _list_word(change.section, change.label, ruleset)
        # The file names rules content by its English key; a built-in name is said in the
        # reader's language as the stored lines beside it say it (issue 38), a player's own
        # as written.
        name = rules_name(change.name)
        old = _described(change.section, change.before, ruleset) if change.before else ""
        new = _described(change.section, change.after, ruleset) if change.after else ""
    return SaidChange(change.kind, str(CHANGE_KINDS[change.kind]), str(what), name, old, new)


# The details rules.diff names by a key of their own, by the file's field that holds them.
KEYED_DETAILS = {"house rules": "house_rules", "personality": "personality"}
ANSWER_SHOWN = 120  # a personality answer in a diff, at most: the sheet shows it whole


def _keyed_label(field: str, key: str, ruleset: Ruleset) -> str:
    """A house rule by its form's label ("Free skill levels"), a personality answer by its
    question; a question of the player's own as written."""
    if field == "house_rules":
        return knobs.label(ruleset, key) if (key, "") in knobs.BY_KEY else key
    question = dict(PERSONALITY_QUESTIONS).get(key)
    return key if question is None else vocabulary.term(question, "personality question")


def _keyed_value(field: str, key: str, value, ruleset: Ruleset) -> str:
    """A house rule's value as the house-rules page words one, a personality answer as
    written (its start, for a long one); "" where the file has none."""
    if value is None:
        return ""
    if field == "personality":
        text = " ".join(str(value).split())
        return text if len(text) <= ANSWER_SHOWN else text[: ANSWER_SHOWN - 1] + "…"
    if key in ATTRIBUTE_KEYS:  # an attribute by its key, as the rows name it: "Willenskraft"
        return rules_name(value)
    return _rule_value(value)


def _rule_value(value) -> str:
    if isinstance(value, bool):
        return pgettext("house rule value", "yes") if value else pgettext("house rule value", "no")
    if isinstance(value, (int, float)):
        return SPEAKER.number(value)
    if isinstance(value, dict) and "name" in value:  # an extra attribute: "Mana (Fair)"
        return f"{value['name']} ({_rule_value(value.get('default', ''))})"
    if isinstance(value, dict):
        return ", ".join(f"{_rule_value(k)} {_rule_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_rule_value(item) for item in value)
    return vocabulary.ladder_text(str(value))  # a level ("Great"), else as the file has it


def _detail_word(word: str) -> str:
    found = DETAIL_WORDS.get(word)
    return vocabulary.term(word, "points") if found is None else str(found)


def _list_word(section: str, label: str, ruleset: Ruleset) -> str:
    if section == "equipment":
        return pgettext("review row", "equipment")
    return vocabulary.noun(label, ruleset.terms.plural(section), 1) or label


def _described(section: str, entry: dict, ruleset: Ruleset) -> str:
    """rules.diff.describe in the reader's language: "Good, hard", "cost 2"."""
    parts = []
    if "kind" in entry and section == "powers":
        parts.append(vocabulary.label(entry["kind"], "power kind"))
    elif "kind" in entry and section == "equipment":
        parts.append(vocabulary.label(entry["kind"], "equipment kind"))
    if "level" in entry:
        parts.append(_level_word(entry["level"], ruleset))
    if entry.get("difficulty"):
        parts.append(vocabulary.term(entry["difficulty"].replace("_", " "), "difficulty"))
    parts.extend(_price_described(section, entry))
    if "damage" in entry:
        parts.append(_("damage {damage}").format(damage=entry["damage"]))
    if "armour" in entry:
        parts.append(_("armour {armour}").format(armour=entry["armour"]))
    if entry.get("quantity") is not None:
        parts.append(_("quantity {quantity}").format(quantity=entry["quantity"]))
    if entry.get("notes"):
        parts.append(entry["notes"])
    if entry.get("defined_in_play"):
        parts.append(_("defined in play"))  # Mudge 1.7
    return ", ".join(str(p) for p in parts)


def _price_described(section: str, entry: dict) -> list[str]:
    """What a gift costs, a fault is worth or a power costs: the file's own number, else the
    catalogue's."""
    number = SPEAKER.number
    if section == "gifts":
        return [
            _("cost {cost}").format(cost=number(entry["cost"]))
            if "cost" in entry
            else _("catalogue cost")
        ]
    if section == "faults":
        return [
            _("value {value}").format(value=number(entry["value"]))
            if "value" in entry
            else _("catalogue value")
        ]
    if section == "powers" and "cost" in entry:
        return [_("cost {cost}").format(cost=number(entry["cost"]))]
    return []


def _level_word(word, ruleset: Ruleset) -> str:
    """A level as the file writes it (the ruleset's ladder word), in the reader's language
    when the ladder is the standard one."""
    if isinstance(word, str) and vocabulary.ladder_is_standard(ruleset.ladder.words):
        return vocabulary.ladder_text(word)  # "Legendary+1" too
    return str(word)


def timeline(character: Character, ruleset: Ruleset) -> list[TimelineRow]:
    """The character's events, newest first, each with its changed fields, said in the
    character's `ruleset`'s words: its lists' names, its ladder's words."""
    events = character.events.select_related("actor").order_by("-created_at", "-id")
    return [
        TimelineRow(
            e,
            _changes(e, ruleset),
            target_said(e.target, ruleset) if e.target else "",
            reason_said(e),
        )
        for e in events
    ]


# What a template changed, as rules.templates' phrases wrote it in English: read back.
_SCALE_NOW = re.compile(r"Scale (?P<strength>-?\d+) / (?P<mass>-?\d+)")
_RACE_TAKEN = re.compile(r"race (?P<race>.+)")
_TAKEN = re.compile(r"(?P<kind>gift|fault) (?P<name>.+)")
_RAISED_TO = re.compile(r"(?P<name>.+) (?P<level>\S+)")


def template_change_said(line: str, ruleset: Ruleset) -> str:
    """One line of a template's recorded change list in the reader's language: "défaut
    Halfling", "Constitution Bon"; a line none of the phrases makes as recorded."""
    if found := _SCALE_NOW.fullmatch(line):
        return said(scale_now(int(found["strength"]), int(found["mass"])))
    if found := _RACE_TAKEN.fullmatch(line):
        return said(race_taken(found["race"]))
    if found := _TAKEN.fullmatch(line):
        return said(taken(found["kind"], found["name"]))
    found = _RAISED_TO.fullmatch(line)
    if found and re.split(r"[+-]", found["level"])[0] in vocabulary.LADDER:
        # a standard ladder's word ("Legendary+1" too): said as the page says levels
        return _("{name} {level}").format(
            name=rules_name(found["name"]), level=_level_word(found["level"], ruleset)
        )
    return line


def reason_said(event: CharacterEvent) -> str:
    """An event's reason in the reader's language: "annuler Crochetage Excellent →
    Légendaire+1", "3 PX : Première séance". English reads as recorded."""
    return event_reason_said(event)


# Recorded for the machinery, not for reading: a submitted build in full (the diff shows it),
# what a spend request needs to be applied later (its reason says what it buys; its cost is
# shown), the thread a message belongs to (its target says what it is on) and the message
# itself (TimelineRow.message shows it whole).
MACHINERY = {"file", "entry", "thread", "message"}
SPEND_SPEC = {f.name for f in fields(Priced)} - {"cost"}


def _changes(event: CharacterEvent, ruleset: Ruleset) -> list[tuple[str, str, str]]:
    before, after = event.before or {}, event.after or {}
    hidden = MACHINERY | (SPEND_SPEC if "what" in before or "what" in after else set())
    keys = [k for k in dict.fromkeys([*before, *after]) if k not in hidden]
    return [
        (
            _field(key, ruleset),
            _shown(key, before.get(key), ruleset),
            _lines_shown(event, key, ruleset) or _shown(key, after.get(key), ruleset),
        )
        for key in keys
        if before.get(key) != after.get(key) or key not in before
    ]


def _lines_shown(event: CharacterEvent, key: str, ruleset: Ruleset) -> str:
    """What the app recorded in words after a change, in the reader's language: the edit an
    undo took back, the lines a template changed, what a Foundry update changed (read again
    from the two files the event keeps), what a Foundry import could not take. "" for a
    key that is none of these."""
    if key == "edit":
        (line,) = event_lines_said(_as_lines(event, "edit"), "edit", recorded.EDITS) or [""]
        return line
    if key == "changed" and not (event.phrases or {}).get("changed"):  # before phrases
        return ", ".join(template_change_said(line, ruleset) for line in event.after["changed"])
    if key == "changes" and event.action in ("foundry_updated", "file_updated"):
        old, new = (event.before or {}).get("file"), (event.after or {}).get("file")
        if isinstance(old, dict) and isinstance(new, dict):
            changes = diff_files(old, new, ruleset.terms)
            return ", ".join(str(said_change(change, ruleset)) for change in changes)
    if key in ("changed", "not_mapped"):
        return ", ".join(event_lines_said(event, key) or ())
    return ""


def _as_lines(event: CharacterEvent, key: str) -> CharacterEvent:
    """The event with its one-line `after[key]` as a list of one, as event_lines_said reads."""
    after = {**event.after, key: [event.after[key]]}
    return CharacterEvent(action=event.action, after=after, phrases=event.phrases)


EQUIPMENT_KINDS = Equipment.Kind.values

# The keys of an event whose values are levels, recorded as words of the standard ladder
# (adapters.trait_state): shown in the character's ruleset's words.
LEVEL_FIELDS = ("level", "from", "to")


# The timeline's titles: what each event of a character's trail did.
ACTION_TITLES = {
    "character_created": pgettext_lazy("audit event", "character created"),
    "character_imported": pgettext_lazy("audit event", "character imported"),
    "foundry_updated": pgettext_lazy("audit event", "updated from Foundry"),
    "file_updated": pgettext_lazy("audit event", "updated from a character file"),
    "character_duplicated": pgettext_lazy("audit event", "character duplicated"),
    "character_archived": pgettext_lazy("audit event", "character archived"),
    "npc_made": pgettext_lazy("audit event", "NPC made"),
    "npc_shown": pgettext_lazy("audit event", "NPC shown to the players"),
    "character_restored": pgettext_lazy("audit event", "character restored"),
    "details_changed": pgettext_lazy("audit event", "details changed"),
    "trait_added": pgettext_lazy("audit event", "trait added"),
    "trait_changed": pgettext_lazy("audit event", "trait changed"),
    "trait_removed": pgettext_lazy("audit event", "trait removed"),
    "trait_relevelled": pgettext_lazy("audit event", "trait relevelled"),
    "equipment_added": pgettext_lazy("audit event", "equipment added"),
    "equipment_changed": pgettext_lazy("audit event", "equipment changed"),
    "equipment_removed": pgettext_lazy("audit event", "equipment removed"),
    "template_applied": pgettext_lazy("audit event", "template applied"),
    "edit_undone": pgettext_lazy("audit event", "edit undone"),
    "edit_redone": pgettext_lazy("audit event", "edit redone"),
    "submitted": pgettext_lazy("audit event", "submitted"),
    "withdrawn": pgettext_lazy("audit event", "withdrawn"),
    "changes_requested": pgettext_lazy("audit event", "changes requested"),
    "approved": pgettext_lazy("audit event", "approved"),
    "comment_added": pgettext_lazy("audit event", "comment added"),
    "thread_started": pgettext_lazy("audit event", "thread started"),
    "reply_added": pgettext_lazy("audit event", "reply added"),
    "thread_resolved": pgettext_lazy("audit event", "thread resolved"),
    "thread_reopened": pgettext_lazy("audit event", "thread reopened"),
    "experience_awarded": pgettext_lazy("audit event", "experience awarded"),
    "experience_spent": pgettext_lazy("audit event", "experience spent"),
    "spend_requested": pgettext_lazy("audit event", "spend requested"),
    "spend_accepted": pgettext_lazy("audit event", "spend accepted"),
    "spend_refused": pgettext_lazy("audit event", "spend refused"),
    "spend_withdrawn": pgettext_lazy("audit event", "spend withdrawn"),
    "spend_taken_back": pgettext_lazy("audit event", "spend taken back"),
    "plan_step_added": pgettext_lazy("audit event", "step added to the plan"),
    "plan_step_removed": pgettext_lazy("audit event", "step removed from the plan"),
    "plan_step_moved": pgettext_lazy("audit event", "plan reordered"),
    "meta_points_spent": pgettext_lazy("audit event", "meta points spent"),
    "meta_points_granted": pgettext_lazy("audit event", "meta points granted"),
    "fudge_points_converted": pgettext_lazy("audit event", "fudge points converted"),
    "ruleset_moved": pgettext_lazy("audit event", "ruleset moved"),
    "uncommitted_defined": pgettext_lazy("audit event", "uncommitted trait defined"),
    "share_link_created": pgettext_lazy("audit event", "share link created"),
    "share_link_revoked": pgettext_lazy("audit event", "share link revoked"),
    "portrait_set": pgettext_lazy("audit event", "portrait set"),
    "portrait_removed": pgettext_lazy("audit event", "portrait removed"),
    "share_link_framing_changed": pgettext_lazy(
        "audit event", "sites that may frame the shared sheet changed"
    ),
}
# The fields an event records, as the timeline names them; any other by in_words.
FIELD_WORDS = {
    "state": pgettext_lazy("audit field", "state"),
    "name": pgettext_lazy("audit field", "name"),
    "level": pgettext_lazy("audit field", "level"),
    "from": pgettext_lazy("audit field", "from"),
    "to": pgettext_lazy("audit field", "to"),
    "difficulty": pgettext_lazy("audit field", "difficulty"),
    "cost": pgettext_lazy("audit field", "cost"),
    "value": pgettext_lazy("audit field", "value"),
    "experience": pgettext_lazy("audit field", "experience"),
    "concept": pgettext_lazy("audit field", "concept"),
    "race": pgettext_lazy("audit field", "race"),
    "notes": pgettext_lazy("audit field", "notes"),
    "quantity": pgettext_lazy("audit field", "quantity"),
    "damage": pgettext_lazy("audit field", "damage"),
    "armour": pgettext_lazy("audit field", "armour"),
    "kind": pgettext_lazy("audit field", "kind"),
    "comment": pgettext_lazy("audit field", "comment"),
    "reason": pgettext_lazy("audit field", "reason"),
    "edit": pgettext_lazy("audit field", "edit"),  # what an undo or redo took back or put back
    "approval": pgettext_lazy("audit field", "approval"),
    "template": pgettext_lazy("audit field", "template"),
    "changed": pgettext_lazy("audit field", "changed"),  # what a template changed
    "ruleset": pgettext_lazy("audit field", "ruleset"),
    "scale_strength": pgettext_lazy("audit field", "scale strength"),
    "scale_mass": pgettext_lazy("audit field", "scale mass"),
    "changes": pgettext_lazy("audit field", "changes"),  # what a Foundry update changed
    "not_mapped": pgettext_lazy("audit field", "not imported as it was"),  # a Foundry actor's
    "link": pgettext_lazy("audit field", "share link"),
    "sha256": pgettext_lazy("audit field", "SHA-256"),
    "defined_in_play": pgettext_lazy("audit field", "defined in play"),
    "origins": pgettext_lazy("audit field", "sites"),  # that may frame a shared sheet
    "plan": pgettext_lazy("audit field", "plan"),
    "step": pgettext_lazy("audit field", "step"),
}


def _field(key: str, ruleset: Ruleset) -> str:
    if key == "meta_points" and ruleset.terms.points:
        return vocabulary.term(ruleset.terms.points, "points")
    said = FIELD_WORDS.get(key)
    return in_words(key) if said is None else str(said)


def _shown(key, value, ruleset: Ruleset) -> str:
    if value is None:
        return ""
    if key in LEVEL_FIELDS and isinstance(value, str):
        return _level_word(recorded_level(value, ruleset.ladder), ruleset)
    if isinstance(value, bool):  # defined in play
        return pgettext("audit value", "yes") if value else pgettext("audit value", "no")
    if key == "kind" and isinstance(value, str):  # a piece of equipment's, a power's
        kind = "equipment kind" if value in EQUIPMENT_KINDS else "power kind"
        return vocabulary.term(value, kind)
    if key == "difficulty" and isinstance(value, str):
        return vocabulary.term(value.replace("_", " "), "difficulty")
    if key == "sha256":
        return f"{value[:12]}…"  # the audit page's diff checks the whole digest
    if key in ("plan", "step"):  # an experience plan's steps (services.plans), in words
        try:
            steps = read_steps(value if key == "plan" else [value])
        except CharacterFileError:
            return str(value)
        return " · ".join(said(step_phrase(step, ruleset.ladder)) for step in steps) or "—"
    if key == "ruleset":
        return _ruleset_shown(value, ruleset)
    if key == "template" and isinstance(value, str):  # its name, as the event's reason says it
        return rules_name(value)
    if key == "state" and value in Character.State.values:
        return states.label(value)  # "Changes requested", as every page says it
    # A row's name and an item's catalogue note: a built-in one in the reader's language.
    if key == "name" and isinstance(value, str):
        return rules_name(value)
    if key == "notes" and isinstance(value, str):
        return rules_text(value)
    return in_words(value)


def _ruleset_shown(slug, ruleset: Ruleset) -> str:
    if slug in BUILTIN:
        return vocabulary.term(BUILTIN[slug].name, "ruleset")  # "MicroFudged DIP", not its slug
    if slug == ruleset.slug:
        return ruleset.name  # a GM's game by its name
    return in_words(slug)


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
    # (kind, what one is called): ("skill", "field of expertise"), in the reader's language
    learn_kinds = [
        (
            kind,
            vocabulary.noun(ruleset.terms.kind(kind), learn_words(ruleset, kind), 1)
            or ruleset.terms.kind(kind),
        )
        for kind in learnable_kinds(ruleset)
    ]
    plan, plan_rows = priced_plan(character, available, ruleset)
    is_owner = character.owner_id == user.pk
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
        "pending": [
            (entry, {**spec, "said": spend_label(spec, ruleset)}) for entry, spec in pending
        ],
        "take_back": spend_to_take_back(character) if character.owner_id == user.pk else None,
        "learn_kinds": learn_kinds,
        # What the page says a new one is: "skill", "skill or power".
        "learn_words": _("{one} or {other}").format(one=learn_kinds[0][1], other=learn_kinds[1][1])
        if len(learn_kinds) > 1
        else (learn_kinds[0][1] if learn_kinds else ""),
        "difficulties": DIFFICULTY_CHOICES if ruleset.skill_difficulties else (),
        "ledger": list(character.ledger.select_related("actor").order_by("-created_at", "-id")),
        "points": points,
        "plan": plan,
        "plan_rows": plan_rows,
        "plan_offer": next_offer(character, plan) if is_owner else None,
        "plan_choices": plan_choices(character, ruleset) if is_owner else None,
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
            why_not = _("already waiting for the GM")
        elif priced.cost > available:
            why_not = _("needs {cost} {unit}; {available} unspent").format(
                cost=priced.cost,
                unit=vocabulary.term(priced.unit, "experience unit"),
                available=available,
            )
        options.append(
            SpendOption(
                _group(ruleset, what, trait),
                what,
                spend_label(asdict(priced), ruleset),
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
        return _("New {gifts}, {powers} and {points}").format(
            gifts=_plural_said(terms, "gifts"),
            powers=_plural_said(terms, "powers"),
            points=vocabulary.term(points_name(ruleset), "points"),
        )
    return vocabulary.term(terms.title(f"{trait.kind}s"), "list title")


def _plural_said(terms, list_name: str) -> str:
    """A list's name in the plural ("gifts"), in the reader's language when it is built in."""
    return vocabulary.noun(terms.noun(list_name), terms.plural(list_name), 2) or terms.plural(
        list_name
    )


# The list a purchase adds to or takes from, for its name in the ruleset's words.
PURCHASE_LISTS = {GIFT: "gifts", POWER: "powers", BUY_OFF_FAULT: "faults"}


def _noun(ruleset: Ruleset, what: str) -> str:
    """What a purchase that needs a name is called: "gift", "field of power"."""
    if what not in (GIFT, POWER):
        return ""
    list_name = PURCHASE_LISTS[what]
    one = ruleset.terms.noun(list_name)
    return vocabulary.noun(one, ruleset.terms.plural(list_name), 1) or one


def spend_label(spec: dict, ruleset: Ruleset) -> str:
    """What a spend buys (Priced.label, kept in English on the ledger and the record) in the
    reader's language, from its dict form: "Augmenter Climbing de Moyen à Bon". A spend this
    cannot word again (learning, a row written by hand) keeps its recorded label."""
    what, name = spec.get("what"), spec.get("name", "")
    terms = ruleset.terms
    if what == RAISE and spec.get("from_level") is not None:
        level = spec["from_level"]
        return _("Raise {name} from {old} to {new}").format(
            name=rules_name(spec["target"].partition(":")[2]),
            old=SPEAKER.level(Level(level, ruleset.ladder)),
            new=SPEAKER.level(Level(level + 1, ruleset.ladder)),
        )
    if what in (GIFT, POWER):
        return (
            _("Add the {noun} {name}").format(noun=_noun(ruleset, what), name=rules_name(name))
        ).rstrip()
    if what == BUY_OFF_FAULT:
        one = terms.noun("faults")
        noun = vocabulary.noun(one, terms.plural("faults"), 1) or one
        return _("Buy off the {noun} {name}").format(
            noun=noun, name=rules_name(spec["target"].partition(":")[2])
        )
    if what == META_POINT:
        point = vocabulary.term(terms.point, "advancement purchase")
        return _("Buy a {point}").format(point=point)
    return said(phrase_of(spec["phrase"])) if spec.get("phrase") else spec.get("label", "")


def _label(ruleset: Ruleset, what: str, trait: Trait | None) -> str:
    if what == RAISE:
        return _("Raise {name}").format(name=rules_name(trait.name))
    if what == META_POINT:
        return ruleset.terms.point.capitalize()
    list_name = PURCHASE_LISTS[what]
    one = ruleset.terms.noun(list_name)
    return (vocabulary.noun(one, ruleset.terms.plural(list_name), 1) or one).capitalize()
