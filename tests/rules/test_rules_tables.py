"""Every cost table, cell by cell, against the rule texts.

Each table is parsed out of the rule text itself (../shared/rules-sources) and compared with
the engine, and also written out here as literal numbers, so a wrong parse and a wrong
engine cannot agree by accident.
"""

import re

import pytest

from rules import tables
from rules.advancement import NotAvailable, flat_cost, raise_cost
from rules.character import Character, Power, Trait
from rules.house_rules import apply_house_rules
from rules.ladder import LEGENDARY, SUPERB, TERRIBLE, WORDS, card_rating, level_name, parse_level
from rules.report import build_report
from rules.rulesets import (
    BUILTIN,
    DIFFICULTIES,
    FUDGE_BASICS,
    LEVELS,
    MICROFUDGED_DIP,
    MICROFUDGED_STREAMLINED,
    MUDGE,
)
from tests.support.sources import rule_text

SEVEN = ("Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb")


def between(text: str, start: str, end: str) -> str:
    """The text from the line `start` (a regex, matched at a line start) to the line
    `end`: one section, so a table is never read from the table of contents."""
    head = re.search(rf"^\s*{start}\s*$", text, re.MULTILINE)
    assert head, f"no heading {start!r}"
    tail = re.compile(rf"^\s*{end}", re.MULTILINE).search(text, head.end())
    assert tail, f"no heading {end!r} after {start!r}"
    return text[head.end() : tail.start()]


MUDGE_TEXT = rule_text("002")
FUDGE_BASICS_TEXT = rule_text("000")
FUDGE_TEXT = rule_text("001")
DIP_TEXT = rule_text("003")


def mudge_cost_of_skills() -> dict[tuple[str, str], int]:
    """Mudge 1.62 "COST OF SKILLS": (level word, difficulty) -> skill levels."""
    section = between(MUDGE_TEXT, r"1\.62 Skills", r"1\.63 Gifts")
    rows = re.findall(
        r"^([+-]?\d)\t(\w+)\t(-?\d+)\t(-?\d+)\t(-?\d+)\t(-?\d+)\s*$", section, re.MULTILINE
    )
    return {
        (word.title(), difficulty): int(cell)
        for _, word, *cells in rows
        for difficulty, cell in zip(DIFFICULTIES, cells, strict=True)
    }


# Mudge 1.62, as printed.
COST_OF_SKILLS = {
    "Superb": (4, 5, 6, 7),
    "Great": (3, 4, 5, 6),
    "Good": (2, 3, 4, 5),
    "Fair": (1, 2, 3, 4),
    "Mediocre": (0, 1, 2, 3),
    "Poor": (-1, 0, 1, 2),
    "Terrible": (-2, -1, 0, 1),
}


def price(ruleset, **lists):
    character = Character(ruleset=ruleset.slug, name="Test", **lists)
    return build_report(character, ruleset)


class TestMudgeCostOfSkills:
    def test_the_text_table_has_28_cells_as_printed(self):
        parsed = mudge_cost_of_skills()
        assert len(parsed) == 28
        assert parsed == {
            (word, difficulty): cost
            for word, costs in COST_OF_SKILLS.items()
            for difficulty, cost in zip(DIFFICULTIES, costs, strict=True)
        }

    @pytest.mark.parametrize(
        ("word", "difficulty"), [(w, d) for w in COST_OF_SKILLS for d in DIFFICULTIES]
    )
    def test_the_report_prices_each_cell(self, word, difficulty):
        report = price(MUDGE, skills=(Trait("Skill", parse_level(word), difficulty),))
        assert report.costs["skills"] == [mudge_cost_of_skills()[word, difficulty]]

    def test_the_reference_table_matches_the_text(self):
        header, rows = tables.skill_cost_table(MUDGE)
        assert header == ("Easy", "Average", "Hard", "Very Hard")
        text = mudge_cost_of_skills()
        assert [row.label for row in rows] == [
            "+3 Superb",
            "+2 Great",
            "+1 Good",
            "0 Fair",
            "-1 Mediocre",
            "-2 Poor",
            "-3 Terrible",
        ]
        for row in rows:
            word = row.label.split()[1]
            assert row.cells == tuple(text[word, d] for d in DIFFICULTIES)

    def test_every_copy_on_the_character_sheets_matches(self):
        """Mudge 6.2 and 6.3 print the table again on each sheet (EASY AVG. HARD V.HARD)."""
        copies = re.findall(
            r"^EASY\tAVG\.\tHARD\tV\.HARD\n((?:-?\d+\t-?\d+\t-?\d+\t-?\d+\n){7})",
            MUDGE_TEXT,
            re.MULTILINE,
        )
        assert len(copies) == 3  # the blank sheet, Dolores and James
        _, rows = tables.skill_cost_table(MUDGE)
        for copy in copies:
            cells = [tuple(map(int, line.split("\t"))) for line in copy.strip().split("\n")]
            assert cells == [row.cells for row in rows]

    def test_the_sheet_xp_column_is_the_cost_of_reaching_each_level(self):
        """Brogo's sheet prints LEVEL, DEFAULT, XP and the skill costs on one row each:
        XP is what raising a skill to that level costs (Mudge 5.2)."""
        rows = re.findall(
            r"^([+-]?\d)\t(SUPERB|GREAT|GOOD|FAIR|MEDIOCRE|POOR|TERRIBLE)\t[A-Z ]*\t"
            r"(\d+)\t(-?\d+)\t(-?\d+)\t(-?\d+)\t(-?\d+)$",
            MUDGE_TEXT,
            re.MULTILINE,
        )
        assert [row[1] for row in rows] == [w.upper() for w in reversed(SEVEN)]
        for _, word, xp, *costs in rows:
            level = parse_level(word)
            assert raise_cost(MUDGE, "skill", level - 1).amount == int(xp)
            assert tuple(map(int, costs)) == COST_OF_SKILLS[word.title()]


class TestMudgeAttributeCosts:
    """Mudge 1.61: "+3 Superb ... -3 Terrible", in attribute levels from Fair."""

    def parsed(self) -> dict[str, int]:
        section = between(MUDGE_TEXT, r"1\.61 Attributes", r"1\.62 Skills")
        return {word: int(cost) for cost, word in re.findall(r"^([+-]?\d) (\w+)$", section, re.M)}

    def test_the_text_table(self):
        assert self.parsed() == {
            "Superb": 3,
            "Great": 2,
            "Good": 1,
            "Fair": 0,
            "Mediocre": -1,
            "Poor": -2,
            "Terrible": -3,
        }

    @pytest.mark.parametrize("word", SEVEN)
    def test_the_report_prices_each_level(self, word):
        report = price(MUDGE, attributes=(Trait("Strength", parse_level(word)),))
        assert report.costs["attributes"] == [self.parsed()[word]]
        assert report.pools["attributes"]["spent"] == self.parsed()[word]

    def test_the_reference_table(self):
        rows = tables.attribute_cost_table(MUDGE)
        assert {row.label: row.cells[0] for row in rows} == self.parsed()


def experience_rows(section: str, unit: str) -> list[tuple[str, str, int, bool]]:
    """(from, to, cost, GM permission) rows of a "Raising a skill" table."""
    rows = re.findall(
        rf"^(\w+)\t(\w+(?: ?2 ?nd)?)\t0?(\d+) {unit}( \+ GM permission)?$", section, re.M
    )
    return [(a, b, int(cost), bool(gm)) for a, b, cost, gm in rows]


class TestMudgeExperience:
    """Mudge 5.2: XP to raise a skill, attributes triple, gift 4, power 8, meta point 6."""

    section = between(MUDGE_TEXT, r"5\.2 Objective Character Development", r"6 Tips")

    def test_the_text_table(self):
        assert experience_rows(self.section, "XP") == [
            ("Terrible", "Poor", 1, False),
            ("Poor", "Mediocre", 1, False),
            ("Mediocre", "Fair", 1, False),
            ("Fair", "Good", 2, False),
            ("Good", "Great", 4, False),
            ("Great", "Superb", 8, False),
            ("Superb", "Legendary", 16, True),
            ("Legendary", "Legendary 2nd", 30, True),
        ]
        beyond = re.search(
            r"^Each additional level of Legendary:\t+(\d+) XP \+ GM perm", self.section, re.M
        )
        assert int(beyond.group(1)) == 50
        assert "Raising an attribute:** Triple the cost for skills of the same level" in (
            self.section
        )

    def test_each_row_against_the_engine(self):
        for start, _, cost, gm in experience_rows(self.section, "XP"):
            level = parse_level(start)
            skill = raise_cost(MUDGE, "skill", level)
            attribute = raise_cost(MUDGE, "attribute", level)
            assert (skill.amount, skill.unit, skill.needs_gm_permission) == (cost, "XP", gm)
            assert (attribute.amount, attribute.needs_gm_permission) == (3 * cost, gm)

    def test_each_level_beyond_legendary_2nd(self):
        for level in range(LEGENDARY + 1, LEGENDARY + 6):
            cost = raise_cost(MUDGE, "skill", level)
            assert (cost.amount, cost.needs_gm_permission) == (50, True)
            assert raise_cost(MUDGE, "attribute", level).amount == 150

    def test_flat_costs(self):
        assert re.search(r"Adding a gift:\*\* 4 XP \(or more\) \+ GM approval", self.section)
        assert re.search(r"supernormal power:\*\* 8 XP \(or more\) \+ GM approval", self.section)
        assert re.search(r"Buying a Meta Point:\*\* 6 XP", self.section)
        assert (flat_cost(MUDGE, "gift").amount, flat_cost(MUDGE, "gift").unit) == (4, "XP")
        assert flat_cost(MUDGE, "gift").needs_gm_permission
        assert flat_cost(MUDGE, "power").amount == 8
        assert flat_cost(MUDGE, "power").needs_gm_permission
        assert flat_cost(MUDGE, "meta_point").amount == 6
        assert not flat_cost(MUDGE, "meta_point").needs_gm_permission

    def test_mudge_prices_no_buying_off_of_faults(self):
        assert "fault" not in self.section.lower()
        with pytest.raises(NotAvailable):
            flat_cost(MUDGE, "buy_off_fault")

    def test_the_reference_table(self):
        rows = tables.experience_table(MUDGE)
        assert [(row.label, row.cells) for row in rows] == [
            ("Terrible → Poor", (1, 3, False)),
            ("Poor → Mediocre", (1, 3, False)),
            ("Mediocre → Fair", (1, 3, False)),
            ("Fair → Good", (2, 6, False)),
            ("Good → Great", (4, 12, False)),
            ("Great → Superb", (8, 24, False)),
            ("Superb → Legendary", (16, 48, True)),
            ("Legendary → Legendary+1", (30, 90, True)),
            ("Legendary+1 → Legendary+2", (50, 150, True)),
        ]


class TestFudgeBasicsExperience:
    """Fudge Basics "Experience": EP to raise a skill, attributes x3, gift 6 EP, buying off
    a fault 9 EP, 3 FP = 1 EP; the supernormal power (12 EP) and the GM's approval for
    Legendary come from Fudge 5.2."""

    section = between(FUDGE_BASICS_TEXT, "Experience", r"Buying-off a Fault\s*\n.*")

    def test_the_text_table(self):
        assert experience_rows(self.section, "EP") == [
            ("Terrible", "Poor", 1, False),
            ("Poor", "Mediocre", 1, False),
            ("Mediocre", "Fair", 1, False),
            ("Fair", "Good", 2, False),
            ("Good", "Great", 4, False),
            ("Great", "Superb", 8, False),
            ("Superb", "Legendary", 16, False),
            ("Legendary", "Legendary 2 nd", 30, False),
        ]
        assert re.search(r"each additional level of Legendary\t50 EP", self.section)

    def test_each_row_against_the_engine(self):
        for start, _, cost, _ in experience_rows(self.section, "EP"):
            level = parse_level(start)
            assert raise_cost(FUDGE_BASICS, "skill", level).amount == cost
            assert raise_cost(FUDGE_BASICS, "attribute", level).amount == 3 * cost
            assert raise_cost(FUDGE_BASICS, "skill", level).unit == "EP"
        assert raise_cost(FUDGE_BASICS, "skill", LEGENDARY + 1).amount == 50
        assert raise_cost(FUDGE_BASICS, "attribute", LEGENDARY + 1).amount == 150

    def test_legendary_rows_need_the_gm_as_fudge_5_2_says(self):
        fudge = between(FUDGE_TEXT, r"5\.2 Objective Character Development", "However")
        assert re.search(r"from Superb to Legendary:\s+16 EP \(or more\), and GM approval", fudge)
        assert re.search(r"Legendary, 2nd Level:\s+30 EP \(or more\), and GM approval", fudge)
        assert re.search(r"beyond Legendary, 2nd Level:\s+50 EP \(or more\), and GM", fudge)
        needs_gm = {
            level: raise_cost(FUDGE_BASICS, "skill", level).needs_gm_permission
            for level in range(TERRIBLE, LEGENDARY + 3)
        }
        assert needs_gm == {level: level >= SUPERB for level in needs_gm}

    def test_flat_costs(self):
        assert re.search(r"Adding a Gift\s+6 EP \(or more\)", FUDGE_BASICS_TEXT)
        assert re.search(r"Buying-off a Fault\s+9 EP \(or more\)", FUDGE_BASICS_TEXT)
        assert "Three Fudge Points (3 FP) may be turned into one Experience Point" in (
            FUDGE_BASICS_TEXT
        )
        fudge = between(FUDGE_TEXT, r"5\.2 Objective Character Development", "However")
        assert re.search(r"Adding a supernormal power:\s+12 EP \(or more\)", fudge)
        assert flat_cost(FUDGE_BASICS, "gift").amount == 6
        assert flat_cost(FUDGE_BASICS, "buy_off_fault").amount == 9
        assert flat_cost(FUDGE_BASICS, "power").amount == 12
        assert FUDGE_BASICS.advancement.points_per_unit == 3
        with pytest.raises(NotAvailable):  # Fudge Basics buys Fudge points with nothing
            flat_cost(FUDGE_BASICS, "meta_point")


class TestStreamlinedTokens:
    """MicroFudged DIP VIII.3: raising fields 3/3/3/6/12/24 tokens, abilities triple;
    at creation an ability rank is 3 tokens, a field rank 1."""

    section = between(
        DIP_TEXT, "3 \N{EN DASH} Streamlined MicroFudged character creation", "4 - Creative"
    )

    def parsed(self) -> list[tuple[str, str, int]]:
        rows = re.findall(r"^(\w+)\t(\w+)\t(\d+)$", self.section, re.M)
        return [(a, b, int(c)) for a, b, c in rows]

    def test_the_text_table(self):
        assert self.parsed() == [
            ("Terrible", "Poor", 3),
            ("Poor", "Mediocre", 3),
            ("Mediocre", "Fair", 3),
            ("Fair", "Good", 6),
            ("Good", "Great", 12),
            ("Great", "Superb", 24),
        ]
        assert "Raising Abilities\n\nTriple the cost of Fields of the same Rank" in self.section

    def test_each_row_against_the_engine(self):
        for start, _, tokens in self.parsed():
            level = parse_level(start)
            field = raise_cost(MICROFUDGED_STREAMLINED, "skill", level)
            ability = raise_cost(MICROFUDGED_STREAMLINED, "attribute", level)
            assert (field.amount, field.unit) == (tokens, "token")
            assert ability.amount == 3 * tokens

    def test_the_text_gives_no_cost_beyond_superb(self):
        with pytest.raises(NotAvailable):
            raise_cost(MICROFUDGED_STREAMLINED, "skill", SUPERB)

    def test_creation_trading_values(self):
        assert re.search(r"Ability Rank ±3\nField Rank 1", self.section)
        assert MICROFUDGED_STREAMLINED.attribute_cost == 3
        assert MICROFUDGED_STREAMLINED.skill_cost == 1
        assert "You may spend 15 Tokens for customisation" in self.section
        assert MICROFUDGED_STREAMLINED.tokens == 15
        assert "no more than 3 Tokens may be gained this way" in DIP_TEXT
        assert MICROFUDGED_STREAMLINED.tokens_carried == 3


class TestDipTokens:
    """MicroFudged DIP I and II: every trait from Poor, 1 token a rank; 6/11/16/21 tokens."""

    def test_one_token_a_rank_at_creation_and_in_play(self):
        assert "Spending a Token increases one of a character's Traits by 1 Rank" in DIP_TEXT
        assert "gains +1 to the relevant Trait for each token spent" in DIP_TEXT
        for kind in ("attribute", "skill", "power"):
            for level in range(TERRIBLE - 1, LEGENDARY + 3):
                cost = raise_cost(MICROFUDGED_DIP, kind, level)
                assert (cost.amount, cost.unit, cost.needs_gm_permission) == (1, "token", False)

    @pytest.mark.parametrize("word", SEVEN)
    def test_the_report_prices_one_token_a_rank_from_poor(self, word):
        level = parse_level(word)
        report = price(
            MICROFUDGED_DIP,
            attributes=(Trait("Strength", level),),
            skills=(Trait("Medicine", level),),
        )
        assert report.costs["attributes"] == [level - parse_level("Poor")]
        assert report.costs["skills"] == [level - parse_level("Poor")]

    def test_power_levels(self):
        section = between(DIP_TEXT, "Starting tokens", "Reminders")
        assert tuple(map(int, re.findall(r"(\d+) tokens", section))) == (6, 11, 16, 21)
        assert MICROFUDGED_DIP.power_levels == (6, 11, 16, 21)


class TestCardRatings:
    """MicroFudged DIP I and V: Abysmal (0) ... Legendary (8+)."""

    def parsed(self) -> dict[str, int]:
        section = between(DIP_TEXT, "I \N{EN DASH} Character creation basics", "II - Using Tokens")
        return {w: int(n) for w, n in re.findall(r"^(\w+)\t\((\d)\+?\)", section, re.M)}

    def test_the_text_ladder(self):
        assert self.parsed() == {word: n for n, word in enumerate(WORDS)}
        assert list(self.parsed()) == list(WORDS)

    def test_the_engine(self):
        for word, rating in self.parsed().items():
            assert card_rating(parse_level(word)) == rating
        assert card_rating(parse_level("Legendary+2")) == 10  # "8+"

    def test_the_reference_table(self):
        rows = tables.ladder_table(MICROFUDGED_DIP)
        assert {row.label: row.cells[1] for row in rows} == self.parsed()
        assert [level_name(parse_level(row.label)) for row in rows] == list(reversed(WORDS))


@pytest.mark.parametrize("slug", ["fudge-basics", "mudge"])
def test_levels_rulesets_trade_at_the_texts_rates(slug):
    """Mudge 1.6 and Fudge Basics "Trading Values": 1 attribute level = 3 skill levels,
    1 gift = 6 skill levels = 2 attribute levels = 1 fault."""
    text = {"fudge-basics": FUDGE_BASICS_TEXT, "mudge": MUDGE_TEXT}[slug]
    rates = dict(re.findall(r"^1 (attribute level|gift) = (\d+ \w+(?: \w+)?)$", text, re.M))
    assert rates["attribute level"] == "3 skill levels"
    assert set(re.findall(r"^1 gift = (.+)$", text, re.M)) >= {
        "6 skill levels",
        "2 attribute levels",
        "1 fault",
    }
    tv = BUILTIN[slug].trade_values
    assert (tv["attribute"], tv["gift"], tv["fault"]) == (3, 6, 6)
    assert tv["gift"] / tv["attribute"] == 2


# -- the levels a trait may start at: what a level list offers at creation --------------------

VARIANTS = [(slug, {}) for slug in BUILTIN] + [
    ("mudge", {"legendary_at_creation": True}),
    ("mudge", {"creation_max": "Great", "creation_min": "Poor"}),
    ("microfudged-dip", {"legendary_at_creation": True}),
]
LISTS = {"attributes": "Attr", "skills": "Science", "powers": "Field"}


def out_of_bounds(ruleset, list_name: str, level: int) -> bool:
    """Whether the build report finds a trait of `list_name` at `level` out of the creation
    bounds (level_out_of_range naming it)."""
    name = LISTS[list_name]
    if list_name == "powers":
        kind = next(iter(ruleset.power_gifts), ruleset.power_kinds[0])  # priced as a skill
        rows = {
            "powers": (Power(name, kind, level, "hard" if ruleset.skill_difficulties else None),)
        }
    else:
        difficulty = "average" if ruleset.skill_difficulties and list_name == "skills" else None
        rows = {list_name: (Trait(name, level, difficulty),)}
    report = price(ruleset, **rows)
    return any(e.code == "level_out_of_range" and e.trait == name for e in report.errors)


@pytest.mark.parametrize(("slug", "house_rules"), VARIANTS)
@pytest.mark.parametrize("list_name", LISTS)
def test_creation_choices_are_the_levels_the_report_allows_at_creation(
    slug, house_rules, list_name
):
    ruleset = apply_house_rules(BUILTIN[slug], house_rules)
    if list_name == "powers" and ruleset.system == LEVELS and not ruleset.power_gifts:
        pytest.skip("a superpower is priced in gifts, its level unbounded (Fudge Basics)")
    choices = tables.creation_choices(ruleset, list_name)
    assert choices.step == -1 and len(choices) > 2
    for level in choices:
        assert not out_of_bounds(ruleset, list_name, level), (level, list(choices))
    assert out_of_bounds(ruleset, list_name, choices[-1] - 1)  # one below the lowest
    if not ruleset.legendary_at_creation:  # Legendary is offered only where it is allowed
        assert out_of_bounds(ruleset, list_name, choices[0] + 1)
        assert ruleset.ladder.top_word_level not in choices
    else:
        assert ruleset.ladder.top_word_level + 3 in choices
