"""The GM's rolls at the table (docs/play.md, rules.npc): for one NPC by the campaign's
method (Fudge 1995 4.5's 1d6, Mudge's 1dF, 2dF or no roll, or 4dF), once for several NPCs
against a lone PC (Fudge 1995 4.64), and a stranger's secret reaction (Fudge 1995 4.9).

Only the campaign's GM rolls them. Each is a line of the campaign's dice log: `method`
says how it was rolled, `detail` what a line of one result cannot hold, and `gm_only`
keeps it from the players (selectors.play.visible_log): a reaction roll always, a roll
for a hidden NPC always, any other when the GM asks. Rolls are made here, with the
operating system's randomness.
"""

import secrets
from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from characters.errors import NotAllowed, ServiceError
from characters.models import Campaign, Character, DiceRoll, NpcShown
from characters.selectors.play import at_table
from characters.services.play import trait_level, trait_roll_line
from characters.services.webhooks import webhook_queue
from rules import npc, play

Randbelow = Callable[[int], int]
REACTION_MODIFIERS_MAX = 6


def _check_gm(campaign: Campaign, actor) -> None:
    if campaign.gm_id != actor.pk:
        raise NotAllowed(_("Only the campaign's GM rolls for its NPCs."))


def _check_npc(campaign: Campaign, character: Character) -> None:
    if not character.is_npc or character.campaign_id != campaign.pk:
        raise ServiceError(
            _("{name} is not one of {campaign}'s NPCs.").format(
                name=character.name, campaign=campaign.name
            )
        )


def _hidden(character: Character) -> bool:
    return character.npc_shown == NpcShown.HIDDEN


@transaction.atomic
def npc_roll(
    *,
    character: Character,
    actor,
    trait: str = "",
    modifier: int = 0,
    against: int | None = None,
    secret: bool = False,
    randbelow: Randbelow = secrets.randbelow,
) -> DiceRoll:
    """Roll for one NPC's trait by its campaign's method, with its wound penalty and a
    situational modifier, into the campaign's log."""
    campaign = character.campaign
    if campaign is None:
        raise ServiceError(_("{name} is in no campaign.").format(name=character.name))
    _check_gm(campaign, actor)
    _check_npc(campaign, character)
    table = at_table(character)
    level = trait_level(table, trait)
    method = campaign.npc_roll_method
    effective = level + table.penalty + modifier
    roll = npc.roll_npc(method, effective, randbelow)
    entry = trait_roll_line(
        table,
        actor=actor,
        trait=trait,
        level=level,
        modifier=modifier,
        dice=roll.dice,
        result=roll.result,
        against=against,
        method=method,
        gm_only=secret or _hidden(character),
        detail={"section": roll.section},
    )
    if against is not None and method == npc.FOUR_DF:
        entry.chance = int(play.chance_to_reach(effective, against) * 81)
    entry.save()
    webhook_queue(entry)  # none for a secret line
    return entry


@transaction.atomic
def npc_group_roll(
    *,
    campaign: Campaign,
    actor,
    foes: Sequence[tuple[Character, str]],
    pc: Character,
    pc_trait: str,
    pc_result: int | None = None,
    secret: bool = False,
    randbelow: Randbelow = secrets.randbelow,
) -> DiceRoll:
    """One roll for all the NPCs in `foes` (each with the trait it fights with) against
    the lone PC `pc`, at -1 per extra opponent (Fudge 1995 4.64). With the PC's rolled
    result, the line says who hits whom."""
    _check_gm(campaign, actor)
    if len(foes) < 2:
        raise ServiceError(_("A group roll is for two NPCs or more against one PC."))
    names = [character.name for character, _trait in foes]
    if len(set(names)) != len(names):
        raise ServiceError(_("Each NPC takes part in a group roll once."))
    listed = []
    for character, trait in foes:
        _check_npc(campaign, character)
        table = at_table(character)
        listed.append((character, trait, trait_level(table, trait), table.penalty))
    if pc.is_npc or pc.campaign_id != campaign.pk:
        raise ServiceError(
            _("{name} is not a player character of {campaign}.").format(
                name=pc.name, campaign=campaign.name
            )
        )
    pc_table = at_table(pc)
    pc_level = trait_level(pc_table, pc_trait)
    pc_wounds = pc_table.penalty
    method = campaign.npc_roll_method
    roll = npc.roll_group(
        method,
        [(c.name, level + penalty) for c, _t, level, penalty in listed],
        pc_level + pc_wounds,
        randbelow,
    )
    detail = {
        "section": roll.section,
        "shift": roll.shift,
        "lone_penalty": roll.penalty,
        "pc_wounds": pc_wounds,
        "foes": [
            {"name": c.name, "trait": trait, "level": level, "wounds": penalty, "result": f.result}
            for (c, trait, level, penalty), f in zip(listed, roll.foes, strict=True)
        ],
    }
    if pc_result is not None:
        found = npc.exchange(roll.foes, pc_result, two_below=campaign.base_ruleset == "mudge")
        detail["pc_result"] = pc_result
        detail["exchange"] = {
            "hit_by": list(found.hit_by),
            "may_hit": list(found.may_hit),
            "stand_off": found.stand_off,
        }
    return DiceRoll.objects.create(
        campaign=campaign,
        character=pc,
        roller=actor,
        kind=DiceRoll.Kind.GROUP,
        subject=", ".join(names)[:200],
        trait=pc_trait,
        level=pc_level,
        penalty=pc_wounds,
        dice=list(roll.dice),
        result=roll.pc_effective,
        method=method,
        gm_only=secret or any(_hidden(c) for c, *_rest in listed),
        detail=detail,
    )


@transaction.atomic
def npc_reaction_roll(
    *,
    campaign: Campaign,
    actor,
    character: Character | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
    randbelow: Randbelow = secrets.randbelow,
) -> DiceRoll:
    """A secret Situational roll for a stranger's reaction (Fudge 1995 4.9), with the
    modifiers the GM names (a PC's Charisma, a bribe, the NPC's boss nearby). The line is
    the GM's alone."""
    _check_gm(campaign, actor)
    if character is not None:
        _check_npc(campaign, character)
    if len(modifiers) > REACTION_MODIFIERS_MAX:
        raise ServiceError(
            _("At most {most} modifiers to a reaction roll.").format(most=REACTION_MODIFIERS_MAX)
        )
    reaction = npc.roll_reaction(
        [(" ".join(why.split()), value) for why, value in modifiers], randbelow
    )
    return DiceRoll.objects.create(
        campaign=campaign,
        character=character,
        roller=actor,
        kind=DiceRoll.Kind.REACTION,
        subject=character.name if character else "",
        dice=list(reaction.dice),
        modifier=reaction.modifier,
        result=reaction.result,
        method=npc.FOUR_DF,
        gm_only=True,
        detail={
            "section": reaction.section,
            "modifiers": [list(pair) for pair in reaction.modifiers],
            "reaction": reaction.reaction,
        },
    )
