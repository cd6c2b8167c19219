"""rules.npc: the GM's rolls for NPCs (Fudge 1995 4.5; Mudge 3.5, 4.33), one roll for a
crowd of NPCs against a lone PC (Fudge 1995 4.64, Mudge 4.34: the three pirates), a secret
reaction roll (Fudge 1995 4.9) and the damage threshold (Fudge 1995 4.73), checked against
the rule texts' own words and examples."""

import itertools

import pytest

from rules import npc
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE, SUPERB
from tests.support.sources import rule_text

FUDGE_TEXT = " ".join(rule_text("001").split())
MUDGE_TEXT = " ".join(rule_text("002").split())
SCRATCH, HURT, VERY_HURT, INCAPACITATED, NEAR_DEATH = range(5)


def dice(*values):
    """A randbelow that hands out `values` in turn: randbelow(6) + 1 is a d6 face, so the
    d6 face 4 is given as 3; randbelow(3) - 1 a Fudge die, so + is 2, 0 is 1, - is 0."""
    faces = iter(values)
    return lambda _: next(faces)


def quoted(text: str, source: str = FUDGE_TEXT) -> str:
    """Fail loudly if the test's quotation is not the text's."""
    assert " ".join(text.split()) in source, text
    return text


class TestOneD6:
    """Fudge 1995 4.5: "the GM can simply roll 1d6 for an NPC. On a result of 2-5, the NPC
    gets the listed trait level as a result. On a result of 1, the NPC did worse than her
    trait level; on a result of 6 the NPC did better than her trait level. (... Or the GM
    can simply roll another d6: 1,2,3 = +/-1, whichever is appropriate; 4,5 = +/-2; 6 =
    +/-3.)" """

    def test_the_text(self):
        quoted("On a result of 2-5, the NPC gets the listed trait level as a result.")
        quoted("1,2,3 = +/-1, whichever is appropriate; 4,5 = +/-2; 6 = +/-3.")

    @pytest.mark.parametrize("face", [2, 3, 4, 5])
    def test_two_to_five_is_the_listed_level(self, face):
        roll = npc.read_npc_roll(npc.ONE_D6, GOOD, [face])
        assert (roll.result, roll.dice, roll.section) == (GOOD, (face,), "Fudge 1995 4.5")

    # "On a result of 1, the NPC did worse ...; on a result of 6 ... better", by the second d6.
    @pytest.mark.parametrize(
        ("first", "second", "shift"),
        [
            (1, 1, -1),
            (1, 2, -1),
            (1, 3, -1),
            (1, 4, -2),
            (1, 5, -2),
            (1, 6, -3),
            (6, 1, +1),
            (6, 2, +1),
            (6, 3, +1),
            (6, 4, +2),
            (6, 5, +2),
            (6, 6, +3),
        ],
    )
    def test_one_and_six_by_the_second_d6(self, first, second, shift):
        roll = npc.read_npc_roll(npc.ONE_D6, FAIR, [first, second])
        assert (roll.shift, roll.result, roll.dice) == (shift, FAIR + shift, (first, second))

    def test_every_pair_of_faces(self):
        # Across all 36 pairs: 2-5 never move (24 pairs), a 1 or a 6 always does.
        shifts = [npc.one_d6_shift(a, b) for a, b in itertools.product(range(1, 7), repeat=2)]
        assert shifts.count(0) == 24
        assert sorted(set(shifts)) == [-3, -2, -1, 0, 1, 2, 3]

    def test_rolled_the_second_die_only_on_one_or_six(self):
        assert npc.roll_npc(npc.ONE_D6, GREAT, dice(2)).dice == (3,)  # face 3: no second die
        roll = npc.roll_npc(npc.ONE_D6, GREAT, dice(5, 3))  # faces 6, then 4
        assert (roll.dice, roll.result) == ((6, 4), GREAT + 2)

    def test_bad_faces_are_refused(self):
        with pytest.raises(npc.NpcRuleError):
            npc.read_npc_roll(npc.ONE_D6, FAIR, [7])
        with pytest.raises(npc.NpcRuleError, match="second d6"):
            npc.read_npc_roll(npc.ONE_D6, FAIR, [6])


class TestMudgeMethods:
    def test_no_roll_the_level_is_the_difficulty(self):
        # Mudge 4.33: "the NPC's trait becomes the difficulty level".
        quoted("the NPC's trait becomes the difficulty level", MUDGE_TEXT)
        roll = npc.roll_npc(npc.NO_ROLL, GREAT, dice())
        assert (roll.dice, roll.result, roll.section) == ((), GREAT, "Mudge 4.33")

    @pytest.mark.parametrize(("method", "count"), [(npc.ONE_DF, 1), (npc.TWO_DF, 2)])
    def test_one_or_two_fudge_dice(self, method, count):
        # Mudge 3.5: "the GM can roll 1dF or 2dF when rolling for an NPC in an Opposed action".
        quoted(
            "the GM can roll 1dF or 2dF when rolling for an NPC in an Opposed action", MUDGE_TEXT
        )
        for faces in itertools.product((-1, 0, 1), repeat=count):
            roll = npc.read_npc_roll(method, FAIR, faces)
            assert (roll.result, roll.section) == (FAIR + sum(faces), "Mudge 3.5")
        assert npc.roll_npc(method, FAIR, dice(2, 2)).result == FAIR + count

    def test_four_fudge_dice_as_for_the_players(self):
        roll = npc.roll_npc(npc.FOUR_DF, FAIR, dice(2, 2, 1, 0))
        assert (roll.dice, roll.result) == ((1, 1, 0, -1), GOOD)

    def test_a_wrong_count_is_refused(self):
        with pytest.raises(npc.NpcRuleError, match="2df needs 2"):
            npc.read_npc_roll(npc.TWO_DF, FAIR, [1])


class TestThreePirates:
    """Fudge 1995 4.64: Molly, Annie and Maggie, Fair, Good and Mediocre, against Tucker,
    a Superb swordsman at -2 for two extra foes."""

    PIRATES = (("Molly", FAIR), ("Annie", GOOD), ("Maggie", MEDIOCRE))

    def test_the_text(self):
        quoted("if the GM gets a +4 result, each attacker actually scores a +3. A zero result")
        quoted("his skill is Good for this combat.")
        quoted(
            "On the first round, she gets a +2. This becomes a +1 (moved closer to zero), "
            "and the pirates have just gotten Good, Great, and Fair results, respectively."
        )

    @pytest.mark.parametrize(
        ("total", "moved"), [(4, 3), (3, 2), (2, 1), (1, 0), (0, 0), (-1, 0), (-2, -1), (-4, -3)]
    )
    def test_moved_one_degree_closer_to_zero(self, total, moved):
        assert npc.closer_to_zero(total) == moved

    def first_round(self):
        # "she gets a +2": four Fudge dice summing to +2.
        return npc.group_roll(npc.FOUR_DF, self.PIRATES, SUPERB, [1, 1, 0, 0])

    def test_the_first_round(self):
        roll = self.first_round()
        # "is at -2 for having two extra fighters attacking him at once: his skill is Good"
        assert (roll.penalty, roll.pc_effective) == (-2, GOOD)
        # "This becomes a +1 ... Good, Great, and Fair results, respectively."
        assert roll.shift == 1
        assert [(foe.name, foe.result) for foe in roll.foes] == [
            ("Molly", GOOD),
            ("Annie", GREAT),
            ("Maggie", FAIR),
        ]
        assert roll.section == "Fudge 1995 4.64"

    def test_tucker_great_is_a_stand_off(self):
        # "If Tucker scores a Great result that round (equal to the best pirate result), the
        # round is a stand-off (nobody takes wounds on either side ...)"
        assert npc.exchange(self.first_round().foes, GREAT) == npc.Exchange((), (), True)

    def test_tucker_superb_hits_the_pirate_of_his_choice(self):
        # "if Tucker scores a Superb result, he could hit the pirate of his choice and remain
        # unhit."
        found = npc.exchange(self.first_round().foes, SUPERB)
        assert found == npc.Exchange((), ("Molly", "Annie", "Maggie"), False)

    def test_tucker_fair_is_hit_by_molly_and_annie(self):
        # "If poor Tucker rolls a Fair result, both Molly and Annie would hit him."
        found = npc.exchange(self.first_round().foes, FAIR)
        assert found.hit_by == ("Molly", "Annie") and found.may_hit == ()

    def test_mudge_applies_two_fudge_dice_as_they_are(self):
        # Mudge 4.34: "Rolling 2dF, she gets a +1 on the first round. The pirates have just
        # gotten Good, Great, and Fair results ... On a Great result, Tucker would be unhit,
        # and could land a blow on Maggie. On a Good result, he doesn't hit anyone, but Annie
        # hits him."
        quoted(
            "On a Great result, Tucker would be unhit, and could land a blow on Maggie.", MUDGE_TEXT
        )
        roll = npc.group_roll(npc.TWO_DF, self.PIRATES, SUPERB, [1, 0])
        assert [foe.result for foe in roll.foes] == [GOOD, GREAT, FAIR]
        assert roll.section == "Mudge 4.34"
        assert npc.exchange(roll.foes, GREAT, two_below=True) == npc.Exchange(
            (), ("Maggie",), False
        )
        assert npc.exchange(roll.foes, GOOD, two_below=True).hit_by == ("Annie",)

    def test_the_1d6_method_rolls_for_each(self):
        # 4.64: "Alternately, the GM could simply use the 1d6 method discussed in Section 4.5"
        quoted("Alternately, the GM could simply use the 1d6 method discussed in Section 4.5")
        roll = npc.group_roll(npc.ONE_D6, self.PIRATES, SUPERB, [[3], [6, 5], [1, 1]])
        assert [foe.result for foe in roll.foes] == [FAIR, GOOD + 2, MEDIOCRE - 1]
        assert roll.pc_effective == GOOD

    def test_one_foe_no_penalty(self):
        assert npc.lone_fighter_penalty(1) == 0
        assert npc.roll_group(npc.NO_ROLL, [("Molly", FAIR)], GOOD, dice()).pc_effective == GOOD


class TestReactions:
    """Fudge 1995 4.9: "On a Fair result, for example, the NPC will be mildly helpful, but
    only if it's not too much effort. She won't be helpful at all on Mediocre or worse
    results, but will react well on a Good result or better." """

    def test_the_text(self):
        quoted("She won't be helpful at all on Mediocre or worse results, but will react well")

    @pytest.mark.parametrize(
        ("faces", "reaction"),
        [
            ((1, 1, 1, 1), npc.REACTS_WELL),
            ((1, 0, 0, 0), npc.REACTS_WELL),  # Good
            ((0, 0, 0, 0), npc.MILDLY_HELPFUL),  # Fair
            ((-1, 0, 0, 0), npc.UNHELPFUL),  # Mediocre
            ((-1, -1, -1, -1), npc.UNHELPFUL),
        ],
    )
    def test_result_words(self, faces, reaction):
        found = npc.read_reaction(faces)
        assert (found.reaction, found.section) == (reaction, "Fudge 1995 4.9")

    def test_nathaniel_and_the_vegetable_seller(self):
        # "is charismatic: +1 to any Reaction roll ... another +1 ... -2 in general ... This
        # cancels Nathaniel's bonuses. The GM rolls in secret, and gets a Fair result."
        quoted("This cancels Nathaniel's bonuses. The GM rolls in secret, and gets a Fair result.")
        modifiers = [("Charisma", 1), ("small talk", 1), ("the sinister duke", -2)]
        found = npc.roll_reaction(modifiers, dice(2, 0, 1, 1))  # + - 0 0
        assert (found.modifier, found.result, found.reaction) == (0, FAIR, npc.MILDLY_HELPFUL)

    def test_modifiers_move_the_result(self):
        found = npc.read_reaction((0, 0, 0, -1), [("bribe", 2)])
        assert (found.result, found.reaction) == (1, npc.REACTS_WELL)


class TestDamageThreshold:
    def test_three_levels_in_one_blow(self):
        # 4.73: "an unwounded character could be Scratched, Hurt, or Very Hurt in one blow
        # ... A Hurt character could go all the way to Near Death in one blow"
        quoted("A Hurt character could go all the way to Near Death in one blow")
        assert npc.within_threshold(None, NEAR_DEATH) == VERY_HURT
        assert npc.within_threshold(None, HURT) == HURT
        assert npc.within_threshold(HURT, NEAR_DEATH) == NEAR_DEATH
        assert npc.within_threshold(SCRATCH, NEAR_DEATH) == INCAPACITATED
