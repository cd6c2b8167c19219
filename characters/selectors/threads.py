"""Reads of the threads between the GM and the player (services.threads): each with its
messages and what it is about now, for the builder, the review page and the thread views.
Who may read them is who may see the character (selectors.access): its player and its GM."""

from dataclasses import dataclass, field
from functools import cached_property

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from characters.adapters import trait_target
from characters.models import (
    THREAD_MESSAGE_MAX,
    Character,
    CommentThread,
    Equipment,
    ThreadMessage,
    Trait,
)
from characters.selectors.review_rows import equipment_target, target_said
from rules.rulesets import Ruleset


@dataclass(frozen=True)
class ThreadView:
    thread: CommentThread
    messages: list[ThreadMessage]
    # What it is about now, in words: "the whole build", "Skill: Climbing", "Skill:
    # Longsword (was Sword)" after a rename, "Skill: Sword (removed)" once the row is gone.
    about: str
    # The builder row it sits beside ("trait-12", "equipment-3"); "" for the whole build
    # and for a row that is gone: those sit at the top of the page.
    row: str

    @property
    def pk(self) -> int:
        return self.thread.pk

    @property
    def is_resolved(self) -> bool:
        return self.thread.is_resolved


@dataclass
class Threads:
    """A character's threads, open ones first, for one page."""

    items: list[ThreadView] = field(default_factory=list)
    gm_id: int | None = None
    gm_word: str = "GM"  # the ruleset's: "Narrator" in MicroFudged
    message_max: int = THREAD_MESSAGE_MAX  # the answer box's

    @cached_property
    def on_build(self) -> list[ThreadView]:
        return [t for t in self.items if not t.row]

    @cached_property
    def on_rows(self) -> dict[str, list[ThreadView]]:
        rows: dict[str, list[ThreadView]] = {}
        for item in self.items:
            if item.row:
                rows.setdefault(item.row, []).append(item)
        return rows

    def beside(self, row) -> list[ThreadView]:
        """The threads on a builder row (a Trait or an Equipment row)."""
        return self.on_rows.get(row_key(row), [])

    def get(self, pk: int) -> ThreadView | None:
        return next((t for t in self.items if t.pk == pk), None)


def row_key(row) -> str:
    """How the pages name a trait or piece of equipment: "trait-12", "equipment-3"."""
    return f"{'equipment' if isinstance(row, Equipment) else 'trait'}-{row.pk}"


def thread_target(row: Trait | Equipment | None) -> str:
    """What a thread on `row` is about, as the audit trail names it: "skill:Climbing",
    "equipment:Sword"; "" for the whole build."""
    if row is None:
        return ""
    if isinstance(row, Equipment):
        return equipment_target(row)
    return trait_target(row)


def threads_on(character: Character, ruleset: Ruleset) -> Threads:
    """Every thread of the character with its messages, in one query (none outside a
    campaign: no GM, no thread), each said in the character's `ruleset`'s words (its GM,
    what its lists call a row: "Knack: Riding", not "Skill: Riding"). Reads the character's
    traits and equipment, which its callers prefetch."""
    gm_word = ruleset.terms.gm
    if character.campaign_id is None:
        return Threads(gm_word=gm_word)
    if not getattr(character, "has_threads", True):  # read saying so (access.with_shown_rows)
        return Threads([], character.campaign.gm_id, gm_word)
    messages = (
        ThreadMessage.objects.filter(thread__character=character)
        .select_related("thread__resolved_by", "author")
        .order_by("thread__created_at", "thread_id", "created_at", "id")
    )
    by_thread: dict[int, list[ThreadMessage]] = {}
    threads = {}
    for message in messages:
        threads.setdefault(message.thread_id, message.thread)
        by_thread.setdefault(message.thread_id, []).append(message)
    views = [
        ThreadView(thread, by_thread[pk], *_about(character, thread, ruleset))
        for pk, thread in threads.items()
    ]
    views.sort(key=lambda t: t.is_resolved)  # stable: each group stays oldest first
    return Threads(views, character.campaign.gm_id, gm_word)


def thread_of(character: Character, pk: int) -> CommentThread:
    """One of the character's threads (knowing its character: no query for it); a 404 for
    any other id."""
    return get_object_or_404(character.threads.all(), pk=pk)


def thread_row(character: Character, thread: CommentThread) -> Trait | Equipment | None:
    """The row a thread is about as the character has it now: by its id (a rename, an undo
    or a redo keeps it), else by the name it had (a row put back by hand); None for the
    whole build or a row that is gone."""
    if not thread.target:
        return None
    kind, _, name = thread.target.partition(":")
    if kind == "equipment":
        rows = list(character.equipment.all())
    else:
        rows = [t for t in character.traits.all() if t.kind == kind]
    named = name.casefold()
    return next((r for r in rows if r.pk == thread.row_pk), None) or next(
        (r for r in rows if r.name.casefold() == named), None
    )


def _about(character: Character, thread: CommentThread, ruleset: Ruleset) -> tuple[str, str]:
    if not thread.target:
        return _("the whole build"), ""
    kind, _sep, name = thread.target.partition(":")
    row = thread_row(character, thread)
    if row is None:
        return _("{row} (removed)").format(row=target_said(thread.target, ruleset)), ""
    if row.name != name:
        renamed = target_said(f"{kind}:{row.name}", ruleset)
        return _("{row} (was {name})").format(row=renamed, name=name), row_key(row)
    return target_said(thread.target, ruleset), row_key(row)
