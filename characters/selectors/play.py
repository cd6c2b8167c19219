"""Reads for play at the table (docs/play.md): a character's play state read through the
rules (rules.play), the play page and the dice log, each with a fixed number of queries,
and the cheap fingerprints the live pages poll (the GM's party view: selectors.party).

Who may see what follows characters.selectors: a character's play page is for its player
and its campaign's GM, the party view for the GM, a campaign's dice log for its members;
everyone else gets a 404."""

import dataclasses
import re
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import cached_property
from string import Formatter

from django.db.models import Exists, Max
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from characters import vocabulary
from characters.adapters import campaign_ruleset, character_to_rules, ruleset_for
from characters.compiled import CompiledRead, one_or_404
from characters.models import (
    Campaign,
    Character,
    DiceRoll,
    Membership,
    NpcRollMethod,
    PlayEvent,
    PlayState,
)
from characters.recorded import said_recorded
from characters.rules_content import rules_name
from characters.selectors.access import (
    APPROVAL_RECORD,
    BUILD_ROWS,
    characters_visible_to,
    is_gm_of,
)
from characters.sheets import (
    DerivedRow,
    Sheet,
    TrackerRow,
    damage_numbers,
    derived_rows,
    dice_odds,
    factor_word,
    percent,
    sheet_for_character,
    tracker_rows,
)
from characters.wording import SPEAKER, said
from rules import character as rc
from rules import combat, play
from rules.derived import DerivedValue, derived_values
from rules.game_parts import Tracker
from rules.ladder import Ladder, signed
from rules.rulesets import LEVELS, Ruleset
from rules.trackers import tracker_value
from rules.words import Level, Phrase, Term, say

LOG_LENGTH = 30  # lines of the dice log on the play and party pages
LOG_PAGE_LENGTH = 100
SESSION = re.compile(r"Session (\d+)")  # a session's line, as services.play.session_start writes it
HISTORY_LENGTH = 10  # changes of the play state listed on the play page
# MicroFudged DIP V's difficulties (rules.play.DIP_DIFFICULTIES) in the reader's language.
DIP_DIFFICULTIES = {
    "Easy": pgettext_lazy("DIP difficulty", "Easy"),
    "Simple": pgettext_lazy("DIP difficulty", "Simple"),
    "Average": pgettext_lazy("DIP difficulty", "Average"),
    "Hard": pgettext_lazy("DIP difficulty", "Hard"),
    "Daunting": pgettext_lazy("DIP difficulty", "Daunting"),
    "Extreme": pgettext_lazy("DIP difficulty", "Extreme"),
    "Impossible": pgettext_lazy("DIP difficulty", "Impossible"),
}


# -- rules words in the reader's language ------------------------------------------------------


def level_word(ladder: Ladder, level: int) -> str:
    """A level in its ladder's words, in the reader's language when the ladder is the
    standard one: "Great", "Très bon", "Legendary+2"."""
    return SPEAKER.level(Level(level, ladder))


def result_word(level: int, bottom: int, ladder: Ladder) -> str:
    """A rolled degree (rules.play.result_name) in the reader's language: below the ladder's
    bottom it is "Terrible-1"."""
    if level < bottom:
        return f"{level_word(ladder, bottom)}{level - bottom}"
    return level_word(ladder, level)


# A count in each plural form the site's languages have, by the name Intl.PluralRules gives
# it: English and German say "one" and "other"; French and Spanish also "many" (a million).
PLURAL_FORMS = (("one", 1), ("other", 2), ("many", 1_000_000))


def wound_word(name: str) -> str:
    """A level of a harm track: a built-in one in the reader's language, a GM's as written."""
    return vocabulary.term(name, "wound")


# -- who may see what --------------------------------------------------------------------------


def character_for_play(user, pk) -> Character:
    """The character with its rows and play state, for its player or its campaign's GM."""
    return one_or_404(_PLAYED(user, pk))


def character_for_poll(user, pk) -> Character:
    """The same, without its rows: what a poll needs to tell whether anything changed."""
    return one_or_404(_POLLED(user, pk))


# A player's page polls every few seconds (characters.compiled).
_POLLED = CompiledRead(
    lambda user, pk: characters_visible_to(user).select_related("play_state").filter(pk=pk)
)
_PLAYED = CompiledRead(
    lambda user, pk: (
        characters_visible_to(user)
        .select_related("play_state")
        .prefetch_related(*BUILD_ROWS, *APPROVAL_RECORD)
        .filter(pk=pk)
    )
)


def campaign_for_log(user, pk) -> Campaign:
    return get_object_or_404(Campaign.objects.joined_by(user), pk=pk)


def reads_log(character: Character, user) -> bool:
    """The dice log a character's table shares is its campaign's members' and GM's, asked
    at every read and write: a player removed from the campaign keeps the character (the GM
    still sees it there) but no longer the log. Outside a campaign, the owner's own."""
    if character.campaign_id is None:
        return character.owner_id == user.pk
    return character.campaign.has_member(user)


def in_play(character: Character) -> bool:
    """Approved by the GM, or outside any campaign, where no GM approves anything; the GM's
    own NPCs are never in the approval queue, so always at the table."""
    return (
        character.is_npc
        or character.campaign_id is None
        or character.state == Character.State.APPROVED
    )


def not_in_play(character: Character) -> str:
    """Why a character is not at the table yet, as a whole sentence in the reader's language:
    "Tess is a draft: play starts once the GM approves the build." """
    sentences = {
        Character.State.DRAFT: _("{name} is a draft: play starts once the GM approves the build."),
        Character.State.SUBMITTED: _(
            "{name} is submitted: play starts once the GM approves the build."
        ),
        Character.State.CHANGES_REQUESTED: _(
            "{name} is back with its player for changes: play starts once the GM approves "
            "the build."
        ),
    }
    return sentences[character.state].format(name=character.name)


def may_regain(character: Character, user) -> bool:
    """The GM gives points back (Mudge 1.36: "awarded by the GM during gameplay"; DIP:
    the narrator "can even hand back the spent Token"); without a campaign, the player."""
    if character.campaign_id is None:
        return character.owner_id == user.pk
    return character.campaign.gm_id == user.pk


def may_change_tracker(character: Character, user, tracker: Tracker) -> bool:
    """A tracker the game gives to the players is its player's and the GM's to change; one
    it gives to the GM, the GM's alone (outside a campaign, where there is no GM, the
    player's)."""
    if tracker.changed_by == "gm":
        return may_regain(character, user)
    return character.owner_id == user.pk or is_gm_of(character, user)


# -- one character at the table ----------------------------------------------------------------

# A shape for each severity (rules.play.severity), beside its colour and the wound's name.
SEVERITY_ICONS = ("○", "◔", "◑", "◕", "●", "✚")


@dataclass(frozen=True)
class AtTable:
    """A character's play state read through the rules: the track with its marks, the
    penalty they give, the points in hand, field-of-power potential left. What follows from
    the track and its marks alone is worked out once (a page reads the worst wound four
    times); the points, which follow the state's counters, are read afresh."""

    character: Character
    ruleset: Ruleset
    rules: rc.Character
    state: PlayState
    track: play.HarmTrack
    marks: play.Marks
    pool: play.TablePool
    potentials: tuple[tuple[str, int], ...]
    # A group NPC's other members' marks (rules.play.fit_group): () for anyone else.
    group_marks: tuple[play.Marks, ...] = ()
    # The page's sheet of the same character, when it builds one (the play page, a party
    # card): its derived values and tracker starts, worked out once for both.
    sheet: Sheet | None = None

    @cached_property
    def penalty(self) -> int:
        return play.wound_penalty(self.track, self.marks)

    @cached_property
    def severity(self) -> int:
        """How bad the worst wound is, 0 to play.GRAVEST: the page's colour and icon."""
        return play.severity(self.track, self.marks)

    @cached_property
    def severity_icon(self) -> str:
        """The severity as a shape beside the wound's name, never a colour alone: an open
        circle unhurt, filling up to a cross for the gravest."""
        return SEVERITY_ICONS[self.severity]

    @cached_property
    def worst(self) -> combat.WoundLevel | None:
        index = play.worst_level(self.marks)
        return None if index is None else self.track.levels[index]

    @property
    def in_hand(self) -> int:
        """Points on record, plus what the GM gave back at the table, less what was spent
        there; never below nothing (the advancement page spends the record too)."""
        state = self.state
        return max(self.pool.on_record + state.points_regained - state.points_spent, 0)

    def potential_left(self, power: str) -> int:
        potential = dict(self.potentials)[power]
        return max(potential - self.state.potential_used.get(power, 0), 0)

    @cached_property
    def rests(self) -> tuple[play.Rest, ...]:
        return play.rests(self.ruleset)

    @cached_property
    def effect(self) -> str:
        worst = self.worst
        return said(play.EFFECTS.get(worst.name, "")) if worst else ""

    @cached_property
    def worst_word(self) -> str:
        """The worst wound marked, in the reader's language ("" for none)."""
        worst = self.worst
        return wound_word(worst.name) if worst else ""

    @cached_property
    def title(self) -> str:
        return said(self.track.title)

    @cached_property
    def damage_label(self) -> str:
        return said(self.track.damage_label)

    @property
    def points_word(self) -> str:
        """The points' name as the language says as many as are in hand: "1 meta point"
        (one of them named as Terms.point names it); a GM's own name as written."""
        return self._points_word(self.in_hand)

    @cached_property
    def points_words(self) -> dict[str, str]:
        """The points' name in each plural form of the language, by the names the browser's
        Intl.PluralRules gives the forms: the offline page says a count it changes on the
        phone with the form that count takes (static/js/offline.js)."""
        return {form: self._points_word(count) for form, count in PLURAL_FORMS}

    def _points_word(self, count: int) -> str:
        many = self.pool.name
        return vocabulary.noun(many.removesuffix("s"), many, count) or many

    @cached_property
    def rows(self) -> list["TrackRow"]:
        """The track as the page draws it: each level with its boxes, marked or open."""
        return self.track_rows(self.marks)

    @cached_property
    def members(self) -> list["GroupMember"]:
        """A group NPC's other members, each with its own track (the first's is `rows`)."""
        return [
            GroupMember(
                number,
                self.track_rows(marks),
                _worst_word(self.track, marks),
                play.wound_penalty(self.track, marks),
            )
            for number, marks in enumerate(self.group_marks, start=2)
        ]

    def track_rows(self, marked: play.Marks) -> list["TrackRow"]:
        levels = self.track.levels
        rows = []
        for index, (level, marks) in enumerate(zip(levels, marked, strict=True)):
            name = wound_word(level.name)
            boxes = [
                Box(
                    marked=True,
                    symbol="✕" if blow == index else wound_word(levels[blow].name)[0],
                    label=_box_label(name, n, level.boxes, blow, index, levels),
                )
                for n, blow in enumerate(marks, start=1)
            ]
            boxes += [
                Box(
                    False,
                    "",
                    _("{wound} box {n} of {boxes}, open: mark a wound").format(
                        wound=name, n=n, boxes=level.boxes
                    ),
                )
                for n in range(len(marks) + 1, level.boxes + 1)
            ]
            penalty = signed(level.penalty) if level.penalty else ""
            rows.append(TrackRow(index, name, damage_numbers(level.damage), penalty, boxes))
        return rows

    @cached_property
    def potential_section(self) -> str:
        """Where the ruleset's text says potential comes back (MicroFudged DIP VI)."""
        return self.ruleset.cites("potential")

    @property
    def potential_rows(self) -> list[tuple[str, int, int]]:
        """(field of power, potential, left)."""
        return [(name, most, self.potential_left(name)) for name, most in self.potentials]

    @cached_property
    def derived(self) -> list[DerivedValue]:
        """The game's derived values for the character (none in a built-in game)."""
        return derived_values(self.ruleset, self.rules)

    @cached_property
    def derived_rows(self) -> tuple[DerivedRow, ...]:
        if self.sheet is not None:
            return self.sheet.derived
        return derived_rows(self.derived)

    @cached_property
    def trackers(self) -> tuple[TrackerRow, ...]:
        """The game's trackers at their values in play: a tracker never changed (or reset
        by a rest) is at its start."""
        if not self.ruleset.trackers:
            return ()
        if self.sheet is not None:  # its rows are at their start
            return tuple(
                dataclasses.replace(
                    row, value=tracker_value(row.tracker, row.start, self.state.trackers)
                )
                for row in self.sheet.trackers
            )
        return tracker_rows(self.ruleset.trackers, self.derived, self.state.trackers)

    def snapshot(self) -> dict:
        """The play state as the record keeps it, before and after a change."""
        state = self.state
        worst = self.worst
        return {
            "trackers": {row.key: row.value for row in self.trackers},
            "wounds": [list(boxes) for boxes in self.marks],
            "worst": worst.name if worst else "",
            "points_spent": state.points_spent,
            "points_regained": state.points_regained,
            "in_hand": self.in_hand,
            "potential_used": dict(state.potential_used),
            "conditions": list(state.conditions),
            "group_wounds": [[list(boxes) for boxes in marks] for marks in self.group_marks],
        }


def _worst_word(track: play.HarmTrack, marks: play.Marks) -> str:
    index = play.worst_level(marks)
    return "" if index is None else wound_word(track.levels[index].name)


@dataclass(frozen=True)
class GroupMember:
    number: int  # the second member is 2: the first is the NPC's own track
    rows: list["TrackRow"]
    worst_word: str
    penalty: int


def _box_label(name: str, n: int, boxes: int, blow: int, index: int, levels) -> str:
    if blow == index:
        return _("{wound} box {n} of {boxes}, marked: clear it").format(
            wound=name, n=n, boxes=boxes
        )
    return _("{wound} box {n} of {boxes}, marked by a {lesser} that rolled up: clear it").format(
        wound=name, n=n, boxes=boxes, lesser=wound_word(levels[blow].name)
    )


@dataclass(frozen=True)
class Box:
    marked: bool
    symbol: str  # "✕", or the first letter of a lesser wound that rolled up ("H"); "" open
    label: str


@dataclass(frozen=True)
class TrackRow:
    index: int
    name: str
    damage: str
    penalty: str
    boxes: list[Box]  # the marked first

    @property
    def has_marks(self) -> bool:
        return bool(self.boxes) and self.boxes[0].marked


def play_state_of(character: Character) -> PlayState:
    """The stored play state, or a fresh one (unsaved: reading never writes)."""
    try:
        return character.play_state
    except PlayState.DoesNotExist:
        return PlayState(character=character)


def at_table(
    character: Character,
    state: PlayState | None = None,
    *,
    sheet: Sheet | None = None,
    rules: rc.Character | None = None,
) -> AtTable:
    """Callers prefetch `traits` and `equipment`; a page that shows the character's `sheet`
    too passes it (AtTable.sheet), and the engine's form of the character the sheet was
    built from (`rules`), so that the character is converted once for both."""
    state = state or play_state_of(character)
    ruleset = ruleset_for(character)
    value = character_to_rules(character) if rules is None else rules
    track = play.harm_track(value, ruleset)
    return AtTable(
        character=character,
        ruleset=ruleset,
        rules=value,
        state=state,
        track=track,
        marks=play.fit_marks(track, state.wounds),
        pool=play.table_pool(value, ruleset),
        potentials=play.potentials(value, ruleset),
        group_marks=play.fit_group(track, state.group_wounds, character.group_size),
        sheet=sheet,
    )


# -- the play page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TraitAtTable:
    name: str
    level: int
    word: str
    effective: str  # the level with the wound penalty, "" when there is none
    group: str


def rollable_traits(sheet: Sheet, penalty: int, ruleset: Ruleset) -> tuple[TraitAtTable, ...]:
    """Every trait with a level, as the sheet lists it, with the wound penalty applied."""
    found = []
    for group, rows in (
        (sheet.attributes_title, sheet.attributes),
        (sheet.skills_title, sheet.skills),
        (sheet.powers_title, sheet.powers),
    ):
        for row in rows:
            if not row.level:
                continue  # a superpower bought whole has no level to roll
            effective = (
                result_word(row.modifier + penalty, ruleset.ladder_bottom, ruleset.ladder)
                if penalty
                else ""
            )
            found.append(TraitAtTable(row.name, row.modifier, row.level, effective, group))
    return tuple(found)


def weapons(table: AtTable) -> tuple[tuple[str, int], ...]:
    """(name, offensive damage factor) for the roller's damage (Mudge 4.54)."""
    return tuple(
        (factor.label, factor.total)
        for factor in combat.damage_factors(table.rules, table.ruleset).offensive
    )


def play_context(character: Character, user, *, fingerprint: str | None = None) -> dict:
    """Everything the play page shows. Callers pass character_for_play's character, and
    the fingerprint when a poll has just read it."""
    rules = character_to_rules(character)  # once, for the sheet and the table
    sheet = sheet_for_character(character, with_ledger=False, rules=rules)
    table = at_table(character, sheet=sheet, rules=rules)
    return {
        **status_context(table, user),
        "sheet": sheet,
        "traits": rollable_traits(sheet, table.penalty, table.ruleset),
        "fair_word": level_word(table.ruleset.ladder, 0),
        "said_percent": _("{number}%"),  # for static/js/play.js's odds
        "weapons": [
            (name, f"{factor_word(name)} ({signed(total)})") for name, total in weapons(table)
        ],
        "damage_die": _damage_die(table.ruleset),
        "damage_section": table.ruleset.cites("damage"),
        "against": against_choices(table.ruleset),
        "dice_odds": dice_odds(),
        "at_least": " ".join(str(row.numerator * 81 // row.denominator) for row in _at_least()),
        **log_context(character, table.ruleset, user),
        "history": play_history(character),
        "fingerprint": fingerprint or play_fingerprint(character, user),
    }


def against_choices(ruleset: Ruleset) -> tuple[tuple[int, str], ...]:
    """rules.play.against_choices in the reader's language: "Good (Hard)"."""
    named = {} if ruleset.system == LEVELS else play.DIP_DIFFICULTIES
    choices = []
    for level, _label in play.against_choices(ruleset):
        word = level_word(ruleset.ladder, level)
        if level in named:
            difficulty = DIP_DIFFICULTIES[named[level]]
            word = _("{level} ({difficulty})").format(level=word, difficulty=difficulty)
        choices.append((level, word))
    return tuple(choices)


@dataclass(frozen=True)
class HistoryLine:
    event: PlayEvent
    note: str  # the event's note in the reader's language


def play_history(character: Character, limit: int = HISTORY_LENGTH) -> list[HistoryLine]:
    """The latest changes of the play state, newest first: who did what, when."""
    events = (
        PlayEvent.objects.filter(character=character)
        .select_related("actor")
        .order_by("-created_at", "-id")[:limit]
    )
    return [HistoryLine(event, history_note(event)) for event in events]


# The notes services.play records on a PlayEvent, in English (the record's language), as its
# say() templates write them: read back, a note is said in the reader's language. The more
# specific first; a note none of them matches (an older wording) is shown as recorded.
NOTE_TEMPLATES = (
    "{wound} box marked",
    "{wound} box cleared",
    "{counted} {damage}: {wound}, in the {landed} box",
    "{counted} {damage}: {wound}",
    "spent 1 of the {points}",
    "gave back 1 of the {points}",
    "{power} use taken back",
    "{power} used",
    "condition “{text}” removed",
    "condition “{text}”",
    "{rest}: {does} ({section})",
)
# What a note's value is, to say it: a rules word, one of the engine's phrases, or as written.
NOTE_VALUES = {
    "wound": lambda text: Term(text, "wound"),
    "landed": lambda text: Term(text, "wound"),
    "points": lambda text: Term(text, "points"),
    "counted": say,  # rules.play's say("damage"), say("successes")
    "rest": say,  # rules.play.Rest's label and what it does
    "does": say,
}
NOTE_FIELDS = {"damage": r"-?\d+", "counted": r"damage|successes", "section": r"[^()]+"}


def _note_pattern(template: str) -> re.Pattern:
    parts = []
    for literal, field, _spec, _conversion in Formatter().parse(template):
        parts.append(re.escape(literal))
        if field:
            parts.append(f"(?P<{field}>{NOTE_FIELDS.get(field, '.+?')})")
    return re.compile("".join(parts))


NOTES = tuple((template, _note_pattern(template)) for template in NOTE_TEMPLATES)


def history_note(event: PlayEvent) -> str:
    """A play event's note in the reader's language: "Hurt box marked", "case Blessé cochée":
    its phrase, else its English read back (note_phrase_of), else as recorded."""
    if event.note_phrase:
        return said_recorded(event.note, event.note_phrase)
    phrase = note_phrase_of(event.note)
    return event.note if phrase is None else said(phrase)


def note_phrase_of(note: str) -> Phrase | None:
    """The phrase a note kept in English only (before notes kept their phrase) was said
    with, read back against the templates that write them; None for any other note."""
    for template, pattern in NOTES:
        found = pattern.fullmatch(note)
        if found:
            values = {
                name: NOTE_VALUES.get(name, str)(value) for name, value in found.groupdict().items()
            }
            return Phrase(template, tuple(values.items()))
    return None


def status_context(table: AtTable, user) -> dict:
    character = table.character
    return {
        "character": character,
        "table": table,
        "in_play": in_play(character),
        "not_in_play": "" if in_play(character) else not_in_play(character),
        "is_gm": is_gm_of(character, user),
        # Also who changes a tracker the game gives to the GM (may_change_tracker).
        "may_regain": may_regain(character, user),
    }


def _at_least() -> list[Fraction]:
    """The "or higher" chances of 4dF, for a needed result from -4 to +4."""
    return [row[2] for row in reversed(combat.fudge_dice_odds())]


def log_context(character: Character, ruleset: Ruleset, user) -> dict:
    """The dice log the character's table shares, as the play page shows it to `user`."""
    if character.campaign_id is None:
        title = _("{name}'s dice log").format(name=character.name)
    else:
        title = log_title(character.campaign)
    if not reads_log(character, user):
        closed = _(
            "You are no longer a player in {campaign}: its dice log is for its table."
        ).format(campaign=character.campaign.name)
        return {"log": [], "log_title": title, "log_closed": closed}
    return {"log": log_lines(log_entries(character, user), ruleset), "log_title": title}


def log_title(campaign: Campaign) -> str:
    return _("{campaign}: dice log").format(campaign=campaign.name)


# -- the dice log ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    css: str  # "mini-die", and "damage-die" for Mudge's (3.22)
    shown: str  # the face, "" for a 0: a blank die


@dataclass(frozen=True)
class LogLine:
    entry: DiceRoll
    roll: str  # "Climbing Good -1 (Hurt) +1: + 0 - + = +1 -> Great"
    outcome: str  # "against Good: success by 1 (38.3% to reach it)"
    success: bool | None
    faces: tuple[str, ...]
    damage_die: bool  # the last face is Mudge's damage die (3.22)
    damage_die_section: str = ""  # where the ruleset's text says so

    # What the log draws of each line, made here once rather than by the template's tags and
    # filters a die and a time at a time: the party view and the play page draw thirty lines.
    @cached_property
    def dice(self) -> tuple[Die, ...]:
        last = len(self.faces) - 1
        return tuple(
            Die(
                "mini-die damage-die" if n == last and self.damage_die else "mini-die",
                "" if face == "0" else face,
            )
            for n, face in enumerate(self.faces)
        )

    @cached_property
    def rolled_at(self) -> datetime:
        """When it was rolled, in the reader's time zone (as the date filter says it)."""
        return timezone.localtime(self.entry.created_at)

    @property
    def rolled_at_iso(self) -> str:
        return self.rolled_at.isoformat()  # the date filter's "c"

    @property
    def rolled_at_time(self) -> str:
        return self.rolled_at.strftime("%H:%M:%S")  # the date filter's "H:i:s"

    @property
    def subject(self) -> str:
        if self.entry.kind == DiceRoll.Kind.REACTION and not self.entry.subject:
            return _("A stranger")
        return log_subject(self.entry)

    @property
    def damage_note(self) -> str:
        return damage_words(self.entry.damage_note)


# DiceRoll.damage_note as services.play records it, in English (rules.play.blow's working,
# wound and graze note): read back, said in the reader's language; another note as recorded.
NO_HIT = re.compile(r"(?P<weapon>.+) (?P<factor>[+-]?\d+): no hit, no damage")
HIT = re.compile(
    r"(?P<weapon>.+?): (?P<working>[-+\d ]+?(?P<die> \(damage die\))? = -?\d+): (?P<wound>.+?)"
    r"(?:; a graze, (?P<section>[^:]+): (?:at most (?P<limit>.+?)|no damage) at TDF "
    r"(?P<tdf>[+-]?\d+))?"
)


def damage_words(note: str) -> str:
    """A roll's damage note in the reader's language: "Staff: 2 + 1 - 0 = 3: Hurt"."""
    if found := NO_HIT.fullmatch(note):
        return _("{weapon} {factor}: no hit, no damage").format(
            weapon=factor_word(found["weapon"]), factor=found["factor"]
        )
    found = HIT.fullmatch(note)
    if found is None:
        return note
    parts = found.groupdict()
    working = parts["working"]
    if parts["die"]:
        working = working.replace(parts["die"], " " + _("(damage die)"))
    wound = _("no damage") if parts["wound"] == "no damage" else wound_word(parts["wound"])
    hit = _("{weapon}: {working}: {wound}").format(
        weapon=factor_word(parts["weapon"]), working=working, wound=wound
    )
    if parts["section"] is None:
        return hit
    if parts["limit"]:
        graze = _("a graze, {section}: at most {wound} at TDF {tdf}").format(
            section=parts["section"], wound=wound_word(parts["limit"]), tdf=parts["tdf"]
        )
    else:
        graze = _("a graze, {section}: no damage at TDF {tdf}").format(
            section=parts["section"], tdf=parts["tdf"]
        )
    return f"{hit}; {graze}"


def log_subject(entry: DiceRoll) -> str:
    """Who rolled; for a session's line, "Session 3" in the reader's language (the service
    stores it in English, the record's language)."""
    number = SESSION.fullmatch(entry.subject)
    if entry.kind != DiceRoll.Kind.SESSION or number is None:
        return entry.subject
    return _("Session {number}").format(number=number.group(1))


def log_entries(character: Character, user, limit: int = LOG_LENGTH) -> list[DiceRoll]:
    """The log the character's table shares: its campaign's, or its own outside one, as
    `user` reads it (visible_log)."""
    if character.campaign_id is None:
        entries = DiceRoll.objects.filter(character=character)
    else:
        entries = visible_log(
            DiceRoll.objects.filter(campaign_id=character.campaign_id), character.campaign, user
        )
    return list(entries.select_related("roller")[:limit])


def visible_log(entries, campaign: Campaign, user):
    """A campaign's log lines `user` may read: the GM's own secret rolls (DiceRoll.gm_only:
    a reaction roll, Fudge 1995 4.9) and every line naming an NPC the GM has not revealed
    (models.HIDDEN_FROM_PLAYERS: hidden now, whenever it rolled) are the GM's alone. Every
    read of the log a player makes goes through here (pages, the log's poll), or reads as
    it does a player's (the play page's poll, compiled once: _NEWEST_SHOWN_TO)."""
    return entries if campaign.gm_id == user.pk else entries.shown_to_players()


def campaign_log(campaign: Campaign, user, limit: int = LOG_LENGTH) -> list[LogLine]:
    entries = list(visible_log(campaign.dice_log, campaign, user).select_related("roller")[:limit])
    return log_lines(entries, campaign_ruleset(campaign))


def gm_log(campaign: Campaign, limit: int = LOG_LENGTH) -> list[LogLine]:
    """The campaign's log as its GM reads it, secret lines too (the party view's)."""
    entries = list(campaign.dice_log.select_related("roller")[:limit])
    return log_lines(entries, campaign_ruleset(campaign))


def last_log_line(campaign: Campaign, user) -> int:
    """The newest line of the campaign's log `user` reads (0 for none): the log page's poll."""
    return visible_log(campaign.dice_log, campaign, user).values_list("id", flat=True).first() or 0


def log_lines(entries: list[DiceRoll], ruleset: Ruleset) -> list[LogLine]:
    return [_line(entry, ruleset) for entry in entries]


def _damage_die(ruleset: Ruleset) -> bool:
    return bool(ruleset.harm and ruleset.harm.damage_die)  # Mudge 4.61


def _line(entry: DiceRoll, ruleset: Ruleset) -> LogLine:
    bottom, damage_die, ladder = ruleset.ladder_bottom, _damage_die(ruleset), ruleset.ladder
    if entry.kind == DiceRoll.Kind.SESSION:
        return LogLine(entry, "", "", None, (), False)
    if entry.kind == DiceRoll.Kind.GROUP:
        return _group_line(entry, ruleset)
    if entry.kind == DiceRoll.Kind.REACTION:
        return _reaction_line(entry, ruleset)
    # The trait as the log copied it (its key), said in the reader's language.
    start = [rules_name(entry.trait) or _("Plain roll"), level_word(ladder, entry.level)]
    if entry.penalty:
        start.append(f"{signed(entry.penalty)} ({wound_word(entry.penalty_reason)})")
    if entry.modifier:
        start.append(_("{modifier} situational").format(modifier=signed(entry.modifier)))
    # What the dice added: an NPC's 1d6 reads its faces through rules.npc.
    total = entry.result - entry.level - entry.penalty - entry.modifier
    result = result_word(entry.result, bottom, ladder)
    if entry.method:  # the GM's roll for an NPC, by the campaign's method
        damage_die = False
    if entry.method == NpcRollMethod.NO_ROLL:  # Mudge 4.33: the level is the difficulty
        roll = _("{start}: no roll ({section}) → {result}").format(
            start=" ".join(start), section=entry.detail.get("section", ""), result=result
        )
    else:
        if entry.method:
            start.append(_("by {method}").format(method=_method(entry)))
        roll = _("{start}: rolled {total} → {result}").format(
            start=" ".join(start), total=signed(total), result=result
        )
    outcome, success = "", None
    if entry.against is not None:
        margin = entry.result - entry.against
        success = margin >= 0
        if margin > 0:
            verdict = _("success by {margin}").format(margin=margin)
        elif success:
            verdict = _("success")
        else:
            verdict = _("failure by {margin}").format(margin=-margin)
        if entry.chance is None:  # an NPC's roll by another method than 4dF: no odds
            outcome = _("against {level}: {verdict}").format(
                level=level_word(ladder, entry.against), verdict=verdict
            )
        else:
            chance = percent(Fraction(entry.chance, 81))
            outcome = _("against {level}: {verdict} ({chance} to reach it)").format(
                level=level_word(ladder, entry.against), verdict=verdict, chance=chance
            )
    faces = _faces(entry)
    return LogLine(entry, roll, outcome, success, faces, damage_die, ruleset.cites("damage_die"))


def _faces(entry: DiceRoll) -> tuple[str, ...]:
    """The dice as the log draws them: d6 faces as numbers, Fudge dice as plus, minus and 0."""
    if entry.method == NpcRollMethod.ONE_D6 and entry.kind != DiceRoll.Kind.REACTION:
        return tuple(str(die) for die in entry.dice)
    return tuple("+" if die > 0 else "\u2212" if die < 0 else "0" for die in entry.dice)


def _method(entry: DiceRoll) -> str:
    if entry.method in NpcRollMethod.values:
        return str(NpcRollMethod(entry.method).label)
    return entry.method


def _group_line(entry: DiceRoll, ruleset: Ruleset) -> LogLine:
    """One roll for several NPCs against a lone PC (services.npc_rolls.npc_group_roll):
    each NPC's level and result, then the PC's skill with the lone fighter's penalty and,
    when the GM gave the PC's result, who hits whom (Fudge 1995 4.64)."""
    bottom, ladder, detail = ruleset.ladder_bottom, ruleset.ladder, entry.detail
    foes = [
        _("{name} {level} → {result}").format(
            name=foe["name"],
            level=level_word(ladder, foe["level"] + foe.get("wounds", 0)),
            result=result_word(foe["result"], bottom, ladder),
        )
        for foe in detail.get("foes", ())
    ]
    if entry.method == NpcRollMethod.ONE_D6:
        how = _("one 1d6 roll each ({section})").format(section=detail.get("section", ""))
    else:
        how = _("one roll for all by {method}: {shift} each ({section})").format(
            method=_method(entry),
            shift=signed(detail.get("shift", 0)),
            section=detail.get("section", ""),
        )
    roll = _("{foes}; {how}").format(foes=", ".join(foes), how=how)
    extra = -detail.get("lone_penalty", 0)
    pc = entry.character.name if entry.character_id else ""
    outcome = _(
        "{pc} fights at {level}: {trait} {listed}, {penalty} for {extra} extra foes"
    ).format(
        pc=pc,
        level=result_word(entry.result, bottom, ladder),
        trait=rules_name(entry.trait) or entry.trait,
        listed=level_word(ladder, entry.level),
        penalty=signed(detail.get("lone_penalty", 0)),
        extra=extra,
    )
    success = None
    if "exchange" in detail:
        exchange = detail["exchange"]
        rolled = result_word(detail["pc_result"], bottom, ladder)
        if exchange["stand_off"]:
            verdict = _("a stand-off: nobody is hurt")
        else:
            parts = []
            if exchange["hit_by"]:
                parts.append(_("hit by {names}").format(names=", ".join(exchange["hit_by"])))
            if exchange["may_hit"]:
                parts.append(
                    _("may wound one of {names}").format(names=", ".join(exchange["may_hit"]))
                )
            verdict = "; ".join(parts)
        outcome += ". " + _("{pc} rolled {result}: {verdict}").format(
            pc=pc, result=rolled, verdict=verdict
        )
        success = not exchange["hit_by"]
    return LogLine(entry, roll, outcome, success, _faces(entry), False)


REACTIONS = {
    "well": pgettext_lazy("NPC reaction", "reacts well"),
    "mildly": pgettext_lazy("NPC reaction", "mildly helpful, but only if it's not too much effort"),
    "unhelpful": pgettext_lazy("NPC reaction", "won't be helpful at all"),
}


def _reaction_line(entry: DiceRoll, ruleset: Ruleset) -> LogLine:
    """A stranger's secret reaction (Fudge 1995 4.9): the modifiers, the result and what
    it means."""
    detail = entry.detail
    modifiers = [
        f"{why} {signed(value)}" if why else signed(value)
        for why, value in detail.get("modifiers", ())
    ]
    start = _("Reaction roll ({section})").format(section=detail.get("section", ""))
    if modifiers:
        start = f"{start}, {', '.join(modifiers)}"
    roll = _("{start}: rolled {total} → {result}").format(
        start=start,
        total=signed(sum(entry.dice)),
        result=result_word(entry.result, ruleset.ladder_bottom, ruleset.ladder),
    )
    reaction = detail.get("reaction", "")
    outcome = str(REACTIONS.get(reaction, reaction))
    success = None if reaction == "mildly" else reaction == "well"
    return LogLine(entry, roll, outcome, success, _faces(entry), False)


# -- live pages: what changed since the last poll ------------------------------------------------


def play_fingerprint(character: Character, user) -> str:
    """Changes when the play state, the build or the shared log changes: two numbers and
    the newest log line `user` reads, read with one query besides the character."""
    state = play_state_of(character)
    return f"{character.version}.{state.revision}.{_last_roll(character, user)}"


def _last_roll(character: Character, user) -> int:
    """The newest line of the log, 0 for a user who does not read it (reads_log, asked in
    the same query: a player removed from the campaign learns nothing from a poll)."""
    if character.campaign_id is None:
        last = _NEWEST_OWN(character.pk)
    elif character.campaign.gm_id == user.pk:
        last = _NEWEST_IN_CAMPAIGN(character.campaign_id)
    else:
        last = _NEWEST_SHOWN_TO(character.campaign_id, user)
    return last[0] if last else 0


def _newest(entries, by: str):
    return entries.order_by().values(by).annotate(last=Max("id")).values_list("last", flat=True)


# A player's page polls every few seconds: each way of reading the log's newest line is
# compiled once (characters.compiled). A player reads what visible_log shows a player.
_NEWEST_OWN = CompiledRead(
    lambda pk: _newest(DiceRoll.objects.filter(character_id=pk), "character")
)
_NEWEST_IN_CAMPAIGN = CompiledRead(
    lambda pk: _newest(DiceRoll.objects.filter(campaign_id=pk), "campaign")
)
_NEWEST_SHOWN_TO = CompiledRead(
    lambda pk, user: _newest(
        DiceRoll.objects.filter(campaign_id=pk)
        .filter(Exists(Membership.objects.filter(campaign_id=pk, user=user)))
        .shown_to_players(),
        "campaign",
    )
)
