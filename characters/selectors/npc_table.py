"""Reads for the GM's side of the table (docs/play.md): the campaign's NPCs and the party's
characters with the traits they roll, as the party view's NPC roller offers them, and
the NPCs picked by what a form posted. Only the GM reads these (views check with
selectors.access.campaign_for_gm first)."""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from characters.adapters import campaign_ruleset
from characters.models import Campaign, Character
from characters.selectors.access import APPROVAL_RECORD, BUILD_ROWS
from characters.selectors.play import against_choices, at_table, rollable_traits
from characters.sheets import sheet_for_character

REACTION_ROWS = 3  # modifiers a reaction roll's form offers (forms.play.ReactionForm)
TRAIT_SEPARATOR = "|"  # a choice's value: "<character pk>|<trait name>"


def campaign_npcs(campaign: Campaign):
    """The campaign's current NPCs, the GM's own, by name."""
    return (
        Character.objects.filter(campaign=campaign, is_npc=True, archived_at__isnull=True)
        .with_game()
        .select_related("play_state")
        .prefetch_related(*BUILD_ROWS, *APPROVAL_RECORD)
        .order_by("name", "pk")
    )


def campaign_pcs(campaign: Campaign):
    """The party: the campaign's approved player characters."""
    return (
        Character.objects.filter(
            campaign=campaign,
            is_npc=False,
            state=Character.State.APPROVED,
            archived_at__isnull=True,
        )
        .with_game()
        .select_related("play_state")
        .prefetch_related(*BUILD_ROWS, *APPROVAL_RECORD)
        .order_by("name", "pk")
    )


@dataclass(frozen=True)
class TraitChoices:
    """A select's options grouped by character: (name, [(value, "Sword (Good)")])."""

    groups: list[tuple[str, list[tuple[str, str]]]]

    @property
    def values(self) -> set[str]:
        return {value for _name, options in self.groups for value, _label in options}


def trait_choices(characters) -> TraitChoices:
    """Each character's rollable traits; callers prefetch rows and approvals
    (campaign_npcs, campaign_pcs)."""
    return _choices((c, sheet_for_character(c, with_ledger=False), at_table(c)) for c in characters)


def party_trait_choices(members) -> TraitChoices:
    """The same for the party view's members, whose sheets and tables are read already."""
    return _choices((m.table.character, m.sheet, m.table) for m in members)


def _choices(rows) -> TraitChoices:
    groups = []
    for character, sheet, table in rows:
        options = [
            (
                f"{character.pk}{TRAIT_SEPARATOR}{trait.name}",
                f"{trait.group}: {trait.name} ({trait.effective or trait.word})",
            )
            for trait in rollable_traits(sheet, table.penalty, table.ruleset)
        ]
        if options:
            groups.append((character.name, options))
    return TraitChoices(groups)


def split_choice(value: str) -> tuple[int, str]:
    pk, _sep, trait = value.partition(TRAIT_SEPARATOR)
    return int(pk), trait


def npc_of(campaign: Campaign, pk: int) -> Character:
    """One of the campaign's NPCs with its rows, or a 404."""
    return get_object_or_404(campaign_npcs(campaign), pk=pk)


def pc_of(campaign: Campaign, pk: int) -> Character:
    return get_object_or_404(campaign_pcs(campaign), pk=pk)


def npc_table_context(campaign: Campaign, party: dict) -> dict:
    """What the party view's NPC roller offers: the traits of the NPCs and of the party,
    as selectors.party.party_context read them (with their sheets and tables), the levels a
    roll may be against, and the campaign's method. No query of its own."""
    return {
        "npcs": [member.table.character for member in party["npc_members"]],
        "npc_traits": party_trait_choices(party["npc_members"]),
        "pc_traits": party_trait_choices(party["members"]),
        "npc_against": against_choices(campaign_ruleset(campaign)),
        "npc_method": campaign.get_npc_roll_method_display(),
        "reaction_rows": range(1, REACTION_ROWS + 1),
    }
