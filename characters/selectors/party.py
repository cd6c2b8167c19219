"""The GM's party view: every character at the table with its status panel and card, the
campaign's log beside them, and the fingerprint its poll compares (views.table)."""

from dataclasses import dataclass
from functools import cache

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import get_language

from characters.adapters import character_to_rules, ruleset_for
from characters.compiled import CompiledRead, one_or_404
from characters.kept import KeptUnderRules
from characters.models import Campaign, Character, DiceRoll, PlayState
from characters.selectors.access import BUILD_ROW_MODELS, holding_rows, prefetch_build_rows
from characters.selectors.play import AtTable, LogLine, at_table, gm_log, log_title
from characters.selectors.statblock import Written, every_format, statblock
from characters.sheets import Sheet, sheet_for_character
from rules import character as rc


def campaign_for_party(user, pk) -> Campaign:
    """The campaign its GM runs (selectors.access.campaign_for_gm), with how many of its
    player characters wait for an approval, so are not in play (`waiting`), counted in the
    same statement: the party view says so. The GM's NPCs never wait (in_play)."""
    return one_or_404(_PARTY_CAMPAIGN(user, pk))


@cache
def _with_waiting():
    # Built once: the subquery costs more to build than the statement does to compile.
    # Each request filters a copy (a queryset is copied, never changed).
    waiting = (
        Character.objects.players()
        .filter(campaign=OuterRef("pk"))
        .exclude(state=Character.State.APPROVED)
        .order_by()
        .values("campaign")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Campaign.objects.annotate(waiting=Coalesce(Subquery(waiting), 0))


def party_fingerprint(campaign: Campaign) -> str:
    """The party's builds (who is in it, their versions), their play states and the log,
    in one statement: the first part changing means the page itself must be reloaded. The
    poll's; the page works the same string out from what it read (_party_read)."""
    now = _PARTY_NOW(campaign)[0]
    return _party_said(
        now["count"], now["last"], now["versions"], now["revisions"], now["last_roll"]
    )


@cache
def _party_now():
    # Each number a subquery of the campaign's row, so a party of none still has its row
    # (all noughts); the log's newest line with them, where it was a statement of its own.
    def of(rows, aggregate):
        return Coalesce(Subquery(rows.annotate(value=aggregate).values("value")), 0)

    table = _at_the_table(OuterRef("pk")).order_by().values("campaign")
    log = DiceRoll.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
    return Campaign.objects.annotate(
        count=of(table, Count("id")),
        last=of(table, Max("id")),
        versions=of(table, Sum("version")),
        revisions=of(table, Sum("play_state__revision")),
        last_roll=of(log, Max("id")),
    ).values("count", "last", "versions", "revisions", "last_roll")


# Every few seconds a GM's party view asks (characters.compiled).
_PARTY_NOW = CompiledRead(lambda campaign: _party_now().filter(pk=campaign.pk))


def _party_said(count: int, last: int, versions: int, revisions: int, last_roll: int) -> str:
    return f"{count}-{last}-{versions}.{revisions}.{last_roll}"


def _party_read(tables: list[AtTable], log: list[LogLine]) -> str:
    """party_fingerprint of the characters and the log the party view read, without a
    query: the same characters (_at_the_table), a play state never saved counting as the
    aggregate's missing row does (revision 0), and the log newest first, as gm_log reads it."""
    characters = [table.character for table in tables]
    return _party_said(
        len(characters),
        max((character.pk for character in characters), default=0),
        sum(character.version for character in characters),
        sum(table.state.revision for table in tables),
        log[0].entry.pk if log else 0,
    )


# -- the GM's party view -----------------------------------------------------------------------


@dataclass(frozen=True)
class PartyMember:
    table: AtTable
    # None in a poll's answer, which shows only the status panels.
    sheet: Sheet | None
    statblock: tuple[Written, ...] = ()  # its sheet's statblock in each format
    # Everything its card shows is made of but its rules and the reader's language, by
    # content: the page keeps the card drawn by it (templatetags.kept_drawings).
    drawn_from: tuple | None = None


def _card(
    character: Character, rules: rc.Character, made_of: str
) -> tuple[Sheet, tuple[Written, ...]]:
    """A party card's sheet and statblock. The sheet has no approval stamp, ledger, portrait
    (the card draws it by its URL) or reference tables: none is read or worked out. Kept
    (_CARDS) while its character stands as it did (`made_of`: the repr of `rules`)."""
    ruleset = ruleset_for(character)  # says the campaign's words from here on
    key = (made_of, character.state, get_language(), id(ruleset))
    kept = _CARDS.get(key)
    if kept is not None and kept[0] is ruleset:
        return kept[1]
    sheet = sheet_for_character(character, with_ledger=False, card=True, rules=rules)
    card = sheet, every_format(statblock(sheet))
    _CARDS.put(key, ruleset, card)
    return card


# The party cards' sheets and statblocks, by everything they are made of: the engine's form
# of the character (every field, by its repr: frozen dataclasses all through, so the repr
# is the content), its state, the reader's language and its rules (adapters.ruleset_for
# keeps one per base, house rules and catalogue, which also says the GM's translations).
# The same character at the same table is the same card, and working it out again at
# every page was near a quarter of the party page (issue 40). Kept under its rules
# (characters.kept), an entry under an id reused by other rules is not theirs.
_CARDS = KeptUnderRules(limit=256)  # the characters at the tables of one process's GMs


def _member(character: Character) -> PartyMember:
    rules = character_to_rules(character)  # once, for the card's sheet and its status panel
    made_of = repr(rules)
    sheet, formats = _card(character, rules, made_of)
    table = at_table(character, sheet=sheet, rules=rules)
    return PartyMember(table, sheet, formats, _drawn_from(table, made_of))


def _drawn_from(table: AtTable, made_of: str) -> tuple:
    """What a party card shows is made of, by content, as _CARDS keeps its sheet: the
    engine's form of the character (a build changed behind the app's back is another
    card), its state, its play state's every field (its forms post the revision), and what
    its header shows of the character that the engine's form does not hold."""
    character, state = table.character, table.state
    played = repr([getattr(state, name) for name in _PLAY_FIELDS])
    shown = (character.name, character.concept, character.portrait_sha, character.owner.username)
    npc = (character.is_npc, character.group_size, character.npc_shown)
    return (character.pk, made_of, character.state, played, shown, npc)


_PLAY_FIELDS = tuple(
    field.attname for field in PlayState._meta.concrete_fields if field.name != "updated_at"
)


# The party (its approved player characters) and the GM's NPCs, which no one approves: the
# characters the party view shows and its fingerprint counts.
AT_THE_TABLE = Q(state=Character.State.APPROVED) | Q(is_npc=True)


def _at_the_table(campaign: Campaign):
    return Character.objects.filter(AT_THE_TABLE, campaign=campaign)


@cache
def _party_rows():
    # Built once, like _with_waiting: each request (a GM's poll every few seconds) filters a
    # copy by its campaign.
    # Whether each has equipment and a ledger, in the same statement: prefetch_build_rows
    # then reads neither list when no one has a row in it.
    return holding_rows(
        Character.objects.filter(AT_THE_TABLE)
        .with_game()
        .select_related("owner", "play_state")
        .annotate(portrait_sha=Coalesce("portrait__sha256", Value("")))
        .order_by("name", "pk")
    )


# The page and the GM's poll every few seconds read these (characters.compiled): the
# campaign, its characters at the table, and each list of their rows, in each list's order.
_TABLE_ROWS_OF = {
    name: CompiledRead(
        lambda campaign, rows=rows: rows.objects.filter(character__in=_at_the_table(campaign))
    )
    for name, rows in BUILD_ROW_MODELS.items()
}
_PARTY_CAMPAIGN = CompiledRead(lambda user, pk: _with_waiting().run_by(user).filter(pk=pk))
_PARTY_ROWS = CompiledRead(lambda campaign: _party_rows().filter(campaign=campaign))


def party_context(
    campaign: Campaign, *, with_sheets: bool = True, fingerprint: str | None = None
) -> dict:
    """Every approved character of the campaign at the table, with a fixed number of
    queries however large the party. The whole page's campaign is campaign_for_party's."""
    characters = _PARTY_ROWS(campaign)
    prefetch_build_rows(characters, lambda name: _TABLE_ROWS_OF[name](campaign))
    at_the_table = [
        _member(c) if with_sheets else PartyMember(at_table(c), None) for c in characters
    ]
    log = gm_log(campaign)
    return {
        "campaign": campaign,
        "members": [m for m in at_the_table if not m.table.character.is_npc],
        # The GM's NPCs beside the party (their rolls: selectors.npc_table's "npcs").
        "npc_members": [m for m in at_the_table if m.table.character.is_npc],
        "waiting": campaign.waiting if with_sheets else 0,  # read by campaign_for_party
        "log": log,
        "log_title": log_title(campaign),
        # The poll's own, which it read before deciding to answer; else the page's.
        "fingerprint": fingerprint or _party_read([m.table for m in at_the_table], log),
    }
