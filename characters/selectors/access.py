"""Who may see what, and what a priced character needs prefetched."""

from functools import cache

from django.db.models import Exists, OuterRef, Prefetch, Q, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from characters.compiled import CompiledRead, one_or_404
from characters.models import (
    Campaign,
    Character,
    CharacterEvent,
    CommentThread,
    Equipment,
    ExperienceEntry,
    Membership,
    ReviewComment,
    ShareLink,
)
from characters.selectors.history import history_to_prune


def is_gm_of(character: Character, user) -> bool:
    return character.campaign_id is not None and character.campaign.gm_id == user.pk


# -- who may see what ------------------------------------------------------------------------
# A player sees and edits their own characters; a campaign's GM sees every character in it;
# nobody else sees anything. Lookups that fail any of these raise Http404, never 403, so a
# forged id tells nothing about what exists.


# What characters.adapters.character_to_rules reads of a character: prefetch it wherever
# characters are priced, so each costs no query of its own.
BUILD_ROWS = ("traits", "equipment", "ledger")
# Of these, the lists a character often has no row in (a draft has no ledger, a new build no
# equipment): the builder's character query says whether it has any, and an empty list is
# then known without a query of its own (with_build_rows).
OFTEN_EMPTY = {"equipment": Equipment, "ledger": ExperienceEntry}
# What a character's pages show that most characters have none of (a draft has no review
# comment, no share link, no thread): the viewed character's query says whether it has any,
# and the page then reads none of them (with_shown_rows). A draft's builder page read three
# statements that found nothing.
SHOWN_IF_ANY = {
    "comments": ReviewComment.objects.all(),
    "live_share_link": ShareLink.objects.filter(revoked_at__isnull=True),
    "threads": CommentThread.objects.all(),
}
# A sheet's approval stamp: the approvals, the `approved` events they are checked against
# (sheets.approval_stamp) and the events recording the build's digest (adapters.
# build_changed), newest first, in three queries however many characters; whole events, so
# their MACs are checked too (adapters.record_forged).
APPROVAL_RECORD = (
    "approvals",
    Prefetch(
        "events",
        queryset=CharacterEvent.objects.filter(action="approved").select_related("actor"),
        to_attr="approval_events",
    ),
    Prefetch(
        "events",
        queryset=CharacterEvent.objects.exclude(build_sha256="").order_by("-id"),
        to_attr="build_events",
    ),
)


def characters_visible_to(user):
    # The campaign's GM too: the builder's review panel and the sheet name them.
    return Character.objects.visible_to(user).select_related("campaign__gm", "owner")


def character_for_viewer(user, pk):
    return with_shown_rows(with_build_rows(one_or_404(_VIEWED_ONE(user, pk))))


def character_for_owner(user, pk):
    """The user's own character, with what pricing it reads and whether its next edit ends
    steps of its undo history (selectors.history.history_to_prune). Its owner is `user`,
    the request's: not read again with it."""
    character = one_or_404(_OWNED_ONE(user, pk))
    character.owner = user
    return with_build_rows(character)


# The builder's two reads, each built once (their annotations cost as much to build as the
# query does to compile) and compiled once below. Each read filters a copy (a queryset is
# copied, never changed).
@cache
def _viewed():
    # Whether it has a portrait, which the builder and sheet show, in the same statement
    # (models.Character.portrait_sha would read it alone): one row at most, a unique join.
    return holding_rows(
        Character.objects.select_related("campaign__gm", "owner").annotate(
            portrait_sha=Coalesce("portrait__sha256", Value("")),
            **{
                f"has_{name}": Exists(rows.filter(character=OuterRef("pk")))
                for name, rows in SHOWN_IF_ANY.items()
            },
        )
    )


@cache
def _owned():
    return holding_rows(
        Character.objects.select_related("campaign").annotate(history_to_prune=history_to_prune())
    )


# Every builder page and edit reads one of these: each compiled once (characters.compiled).
_VIEWED_ONE = CompiledRead(lambda user, pk: _viewed().visible_to(user).filter(pk=pk))
_OWNED_ONE = CompiledRead(lambda user, pk: _owned().owned_by(user).filter(pk=pk))


def holding_rows(characters):
    """Each character with, for each OFTEN_EMPTY list, whether it has a row in it."""
    return characters.annotate(
        **{
            f"has_{name}": Exists(model.objects.filter(character=OuterRef("pk")))
            for name, model in OFTEN_EMPTY.items()
        }
    )


def with_build_rows(character: Character) -> Character:
    """`character` (read through holding_rows) with its BUILD_ROWS read, as prefetching them
    would leave it: a list it has no row in costs no query. Each list is read by a read
    compiled once, its rows then knowing their character (prefetch_build_rows): for one
    character, prefetch_related's own machinery costs more than the query."""
    prefetch_build_rows([character], lambda name: _BUILD_ROWS_OF[name](character))
    return character


# Each list's rows: Trait, Equipment, ExperienceEntry.
BUILD_ROW_MODELS = {name: Character._meta.get_field(name).related_model for name in BUILD_ROWS}


def _rows_read(model) -> CompiledRead:
    return CompiledRead(lambda character: model.objects.filter(character=character))


_BUILD_ROWS_OF = {name: _rows_read(model) for name, model in BUILD_ROW_MODELS.items()}


def _prefetched(character: Character) -> dict:
    """Where prefetch_related keeps a character's lists, which its related managers read."""
    return character.__dict__.setdefault("_prefetched_objects_cache", {})


def _known(character: Character, name: str, rows: list) -> None:
    """The list `name` kept as prefetched, as `rows`: its manager reads them, and a queryset
    made from it (a filter) reads the database afresh."""
    kept = getattr(character, name).all()
    kept._result_cache = rows
    _prefetched(character)[name] = kept


def prefetch_build_rows(characters: list[Character], rows_of) -> None:
    """with_build_rows for many characters (read through holding_rows), as prefetching their
    BUILD_ROWS would leave them: `rows_of(name)` reads the rows of list `name` of all of them
    in one statement, compiled once by the caller (prefetch_related's machinery cost as
    much again as its queries, issue 40), each row then knowing its character; and none
    for a list no character has a row in (the party view's six approved characters often
    have no equipment and no ledger: two statements that found nothing)."""
    by_pk = {character.pk: character for character in characters}
    for name in BUILD_ROWS:
        kept = {c.pk: [] for c in characters if getattr(c, f"has_{name}", True)}
        if kept:
            known_parent = Character._meta.get_field(name).remote_field
            for row in rows_of(name):
                rows = kept.get(row.character_id)
                # A character that came to the table since `characters` were read is not on
                # this page; one that left it in that instant is, with no rows: the page's
                # fingerprint then differs, and its first poll reloads it.
                if rows is not None:
                    known_parent.set_cached_value(row, by_pk[row.character_id])
                    rows.append(row)
        for character in characters:
            _known(character, name, kept.get(character.pk, []))


def with_shown_rows(character: Character) -> Character:
    """`character` (read through _viewed) knowing what it has none of (SHOWN_IF_ANY): its
    latest review comments and its live share link are known without a statement, as read
    then (models.Character keeps each once read); selectors.threads.threads_on reads
    `has_threads` itself."""
    if not character.has_comments:
        character.__dict__["latest_comments"] = []
    if not character.has_live_share_link:
        character.__dict__["live_share_link"] = None
    return character


def character_for_uncommitted(user, pk):
    """A character whose uncommitted traits (Mudge 1.7) `user` may define: one in a campaign
    the user runs, or the user's own outside any campaign. The service checks the rest."""
    characters = Character.objects.filter(
        Q(campaign__gm=user) | Q(owner=user, campaign__isnull=True)
    ).select_related("campaign", "owner")
    return get_object_or_404(characters, pk=pk)


def campaign_for_gm(user, pk):
    return one_or_404(_RUN_ONE(user, pk))


# Every page of a GM's campaign reads it, and the party view's poll every few seconds.
_RUN_ONE = CompiledRead(lambda user, pk: Campaign.objects.run_by(user).filter(pk=pk))


def campaign_for_member(user, pk):
    return get_object_or_404(Campaign.objects.joined_by(user), pk=pk)


def archived_character_for_owner(user, pk):
    """One of the user's archived characters (a deleted draft is gone for good)."""
    characters = Character.all_objects.filter(
        owner=user, archived_at__isnull=False, deleted_at__isnull=True
    )
    return get_object_or_404(characters.select_related("campaign"), pk=pk)


def membership_of(user, campaign_pk):
    """The user's own place in a campaign they play in (not one they run)."""
    return get_object_or_404(
        Membership.objects.select_related("campaign", "user"), campaign_id=campaign_pk, user=user
    )
