"""Issue 25: a pick from the catalogue brings everything the rule text gives.

The sample powers are read back from the rule texts themselves (Mudge 2.53, 2.73, 2.82,
2.91; MicroFudged DIP VIII.1); equipment picked by name alone takes the catalogue's kind and
values, and the damage factors of Mudge 4.55's Leroy and Theodora come out of them; Magery
brings Mana; the GM's review marks what is not as the campaign's catalogue lists it."""

import re

import pytest
from django.urls import reverse

from characters.adapters import character_to_rules, ruleset_for
from characters.models import Campaign, Character, Membership, Trait
from characters.services.campaigns import campaign_create
from characters.services.characters import character_create
from characters.services.review import character_submit
from characters.services.templates import character_apply_template
from rules.catalogues import microfudged, mudge
from rules.combat import damage_factors
from rules.ladder import FAIR, GOOD, GREAT, SUPERB
from rules.report import build_report
from rules.rulesets import BUILTIN
from rules.templates import templates_catalog
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.sources import rule_text

HTMX = {"HTTP_HX_REQUEST": "true"}


# -- the sample powers, checked against the texts --------------------------------------------

SAMPLE_SECTIONS = {
    "2.53": ("2.53 Sample Spells", "2.54 Magic in Combat", "spell"),
    "2.73": ("2.73 Sample Psi Abilities", "2.74 Psi in Combat", "psi"),
    "2.82": ("2.82 Sample Superpowers", "2.9 Cybernetics", "superpower"),
    "2.91": ("2.91 Sample Cybernetics", "3 Action Resolution", "superpower"),
}
FORM_LINE = re.compile(
    r"^(Name|Cost|Target|DF|ODF/DDF|Range|Duration|Effect|Example[^:]*):\s*(.*)$"
)
DIFFICULTY_MARKS = {"VH skill": "very_hard", "VH": "very_hard", "H": "hard"}


def text_samples() -> list[tuple[str, str, dict]]:
    """(section, kind, the text's lines) of every sample in Mudge 2.53-2.91, in the text's
    order, read from the spell form of 2.52 (Name, Cost, Target, DF, Range...)."""
    lines = rule_text("002").splitlines()
    samples = []
    for section, (start, end, kind) in SAMPLE_SECTIONS.items():
        first = next(n for n, line in enumerate(lines) if line.strip() == start and n > 900)
        last = next(n for n, line in enumerate(lines) if line.startswith(end) and n > first)
        entry, key = None, None
        for line in lines[first + 1 : last]:
            match = FORM_LINE.match(line.strip())
            if match:
                key = match.group(1)
                if key == "Name":
                    entry = {"Name": match.group(2)}
                    samples.append((section, kind, entry))
                elif not key.startswith("Example"):
                    entry[key] = match.group(2)
            elif line.strip() and key == "Range":  # Telepathy's range runs onto a second line
                entry[key] += " " + line.strip()
    return samples


def test_the_text_has_twelve_samples():
    """3 spells, 3 psi abilities, 3 superpowers, 3 cybernetics: the parser reads them all."""
    sections = [section for section, _, _ in text_samples()]
    assert {s: sections.count(s) for s in SAMPLE_SECTIONS} == dict.fromkeys(SAMPLE_SECTIONS, 3)


@pytest.mark.parametrize(
    "section,kind,text", text_samples(), ids=lambda v: v["Name"] if isinstance(v, dict) else v
)
def test_every_sample_power_of_mudge_is_in_the_catalogue_as_the_text_gives_it(section, kind, text):
    name, _, mark = text["Name"].partition(", ")
    power = mudge.CATALOG.power(name)
    assert power is not None, f"{name} ({section}) is missing from the catalogue"
    assert (power.name, power.kind, power.section) == (name, kind, f"Mudge {section}")
    assert power.difficulty == DIFFICULTY_MARKS.get(mark, "")
    assert power.cost == text["Cost"]
    assert power.target == text["Target"]
    assert power.damage_factor == text.get("DF", text.get("ODF/DDF"))
    assert power.range == text["Range"]
    assert power.duration == text["Duration"]
    # The effect's paragraph, the text's italics marks aside; a table that follows it in the
    # text (Clairvoyance's difficulties) is named, not copied.
    effect = text["Effect"].replace("*", "").removesuffix("- a general table might be:")
    assert power.effect.startswith(effect)
    # The cost is what a use lowers (Mudge 2.51), labelled so: never a price.
    label = dict(power.details())
    if kind == "spell":
        assert label["Mana a casting lowers"] == text["Cost"]
    elif kind == "psi":
        assert label["Psyche a use lowers"] == text["Cost"]


def test_the_catalogue_holds_no_power_the_text_does_not():
    names = {t["Name"].partition(", ")[0] for _, _, t in text_samples()}
    assert {p.name for p in mudge.CATALOG.powers} == names
    assert {p.group for p in mudge.CATALOG.powers if p.section == "Mudge 2.91"} == {"cybernetics"}


def test_dips_fields_of_power_are_in_its_catalogues_with_their_section():
    text = rule_text("003")
    listed = text[text.index("Psionic fields of power\n") :]
    for catalog in (microfudged.DIP_CATALOG, microfudged.STREAMLINED_CATALOG):
        assert [p.name for p in catalog.powers] == list(microfudged.FIELDS_OF_POWER)
        for power in catalog.powers:
            assert f"\n{power.name}\n" in listed
            assert (power.kind, power.section) == ("field", "MicroFudged DIP VIII.1")
    # The text's first sentence of each field's description is the catalogue's.
    for power in microfudged.DIP_CATALOG.powers:
        first_sentence = power.effect.split(". ")[0]
        assert first_sentence in text


# -- a campaign seeded from its ruleset, and a player in it -----------------------------------


def seeded(gm, player, ruleset: str) -> Campaign:
    campaign = campaign_create(gm=gm, name=f"A {ruleset} table", base_ruleset=ruleset)
    Membership.objects.create(campaign=campaign, user=player)
    return campaign


@pytest.fixture
def mudge_campaign(gm, player):
    return seeded(gm, player, "mudge")


def add_equipment(client, character, **fields):
    url = reverse("equipment_add", args=[character.pk])
    character.refresh_from_db()
    response = client.post(url, {"version": character.version, **fields}, **HTMX)
    assert response.status_code == 200, response.content.decode()[:500]


def add_trait(client, character, kind, **fields):
    url = reverse("trait_add", args=[character.pk, kind])
    character.refresh_from_db()
    return client.post(url, {"version": character.version, **fields}, **HTMX)


@pytest.mark.parametrize("slug", list(BUILTIN))
def test_picking_each_seed_catalogues_weapon_and_armour_fills_their_values(
    gm, player, player_client, slug
):
    """Picked by name alone, as the picker posts it, each weapon, armour and shield of the
    seed catalogue arrives with its kind, values and note (Mudge 4.54, 6.6; DIP's cards)."""
    campaign = seeded(gm, player, slug)
    character = character_create(owner=player, name="Picker", campaign=campaign)
    items = [i for i in BUILTIN[slug].catalog.equipment if i.kind != "gear"]
    assert items
    for item in items:
        add_equipment(player_client, character, name=item.name)
    saved = {e.name: e for e in character.equipment.all()}
    for item in items:
        got = saved[item.name]
        assert (got.kind, got.damage, got.armour) == (item.kind, item.damage, item.armour)
        assert got.notes == item.note[:1000]


@pytest.mark.parametrize(
    "strength,constitution,weapon,armour,offensive,defensive",
    [
        # Mudge 4.55, Leroy: Good Strength, a broadsword (medium, +2): ODF 1+0+2 = 3; Good
        # Constitution, scale mail (Effective, +4): DDF 1+0+4 = 5.
        (GOOD, GOOD, "Medium Weapon", "Effective", 3, 5),
        # Theodora: Superb Strength, a poleaxe (large, +3): ODF 3+0+3 = 6; Fair
        # Constitution, boiled leather (Somewhat Effective, +2): the text prints
        # "DDF = 0+0+2 = 3", whose terms add up to 2; the sheet adds the terms.
        (SUPERB, FAIR, "Large Weapon", "Somewhat Effective", 6, 2),
    ],
    ids=["Leroy", "Theodora"],
)
def test_the_sheets_damage_factors_use_the_picked_values(
    mudge_campaign,
    player,
    player_client,
    strength,
    constitution,
    weapon,
    armour,
    offensive,
    defensive,
):
    character = character_create(owner=player, name="Duellist", campaign=mudge_campaign)
    character.traits.filter(name="Strength").update(level=strength)
    character.traits.filter(name="Constitution").update(level=constitution)
    add_equipment(player_client, character, name=weapon)
    add_equipment(player_client, character, name=armour)
    character = Character.objects.prefetch_related("traits", "equipment").get(pk=character.pk)
    factors = damage_factors(character_to_rules(character), ruleset_for(character))
    assert {f.label: f.total for f in factors.offensive}[weapon] == offensive
    assert {f.label: f.total for f in factors.defensive}[f"In {armour}"] == defensive
    sheet = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert weapon in sheet and f"Defensive ({armour})" in sheet


def test_a_value_the_player_types_wins_over_the_catalogues(mudge_campaign, player, player_client):
    character = character_create(owner=player, name="Smith", campaign=mudge_campaign)
    add_equipment(player_client, character, name="Large Weapon", kind="gear", damage="5")
    item = character.equipment.get()
    assert (item.kind, item.damage) == ("gear", 5)


@pytest.mark.parametrize(
    "name,kind,difficulty",
    [
        ("Fireball", "spell", "very_hard"),
        ("Telepathy", "psi", "hard"),
        ("Flight", "superpower", ""),
    ],
)
def test_a_picked_power_takes_its_kind_and_difficulty(
    mudge_campaign, player, player_client, name, kind, difficulty
):
    character = character_create(owner=player, name="Adept", campaign=mudge_campaign)
    response = add_trait(player_client, character, "power", name=name, level=FAIR)
    assert response.status_code == 200
    power = character.traits.get(kind=Trait.Kind.POWER)
    assert (power.power_kind, power.difficulty) == (kind, difficulty)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    row = page[page.index(f'id="trait-{power.pk}"') :]
    row = row[: row.index("</form>")]
    if kind == "spell":  # the row names the Mana a casting lowers, and has no gift-cost box
        assert "Mana a casting lowers" in row and 'name="cost"' not in row
    if kind == "superpower":  # its cost in gifts, said as a label, not "Superpower, gifts"
        assert 'name="cost"' in row and "Superpower cost in gifts" in row
    sheet = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    lowers = {"spell": "lowers Mana 1", "psi": "lowers Psyche 1"}.get(kind)
    if lowers:  # the sheet and the row say what a use lowers (Mudge 2.51, 2.71)
        marks = "***" if difficulty == "very_hard" else "**"
        assert f"<bdi>{name}</bdi> {marks} ({kind.capitalize()}, {lowers})" in sheet
        assert f'<small class="row-in-play">{lowers}</small>' in row


def test_magery_brings_mana_and_the_budget_prices_it(mudge_campaign, player, player_client):
    character = character_create(owner=player, name="Mira", campaign=mudge_campaign)
    response = add_trait(player_client, character, "gift", name="Magery")
    assert response.status_code == 200
    mana = character.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Mana")
    # The new attribute row is appended to the attributes, and the player is told why.
    body = response.content.decode()
    assert 'hx-swap-oob="beforeend:#rows-attribute"' in body and f'id="trait-{mana.pk}"' in body
    assert "Magery brings the attribute Mana (Mudge 2.5)" in body
    assert mana.level == FAIR  # Mudge 2.5: "determined per the usual attributes rules"

    def spent_on_attributes():
        fresh = Character.objects.prefetch_related("traits", "equipment").get(pk=character.pk)
        report = build_report(character_to_rules(fresh), ruleset_for(fresh))
        return report.pools["attributes"]["spent"]

    assert spent_on_attributes() == 0
    url = reverse("trait_update", args=[character.pk, mana.pk])
    character.refresh_from_db()
    response = player_client.post(
        url, {"version": character.version, "name": "Mana", "level": GREAT}, **HTMX
    )
    assert response.status_code == 200
    assert spent_on_attributes() == 2  # Fair to Great: two attribute levels (Mudge 1.61)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Remove Magery and Mana" in page and "Remove Magery, keep Mana" in page


@pytest.mark.parametrize("answer,mana_stays", [("remove", False), ("keep", True)])
def test_removing_the_gift_asks_what_becomes_of_its_attribute(
    mudge_campaign, player, player_client, answer, mana_stays
):
    character = character_create(owner=player, name="Mira", campaign=mudge_campaign)
    add_trait(player_client, character, "gift", name="Magery")
    magery = character.traits.get(name="Magery")
    character.refresh_from_db()
    url = reverse("trait_delete", args=[character.pk, magery.pk])
    response = player_client.post(url, {"version": character.version, "attribute": answer})
    assert response.status_code == 302
    assert character.traits.filter(name="Mana").exists() is mana_stays
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    if mana_stays:
        assert "Mana stays; without Magery it breaks a rule" in page
    else:
        assert "Mana went with Magery." in page


def test_the_gift_that_brings_an_attribute_is_ruleset_data_not_a_name_in_code(
    gm, player, player_client
):
    """A house rule's world: the same code brings Psyche with Psionic (Mudge 2.7), from
    `attribute_gifts`, the ruleset's data."""
    campaign = seeded(gm, player, "mudge")
    character = character_create(owner=player, name="Seer", campaign=campaign)
    add_trait(player_client, character, "gift", name="Psionic")
    assert character.traits.filter(kind=Trait.Kind.ATTRIBUTE, name="Psyche", level=FAIR).exists()
    assert BUILTIN["mudge"].attribute_gifts == {"Magery": "Mana", "Psionic": "Psyche"}
    assert not BUILTIN["microfudged-dip"].attribute_gifts


def test_the_picker_shows_each_entrys_cost_and_what_adding_it_does(
    mudge_campaign, player, player_client
):
    character = character_create(owner=player, name="Mira", campaign=mudge_campaign)
    builder = reverse("character_builder", args=[character.pk])
    page = player_client.get(builder).content.decode()
    # Closed, a picker says how many entries it has and links to its list (the lists would
    # triple the page's weight): without JavaScript the link opens the page with it whole.
    assert f'href="{builder}?picker=gift#picker-gift"' in page
    assert "Adding it:" not in page
    page = player_client.get(builder + "?picker=gift").content.decode()
    gifts = page[page.index('id="picker-gift"') :]
    gifts = gifts[: gifts.index("</details>")]
    assert "Adding it: takes 2 gifts of your budget; brings the attribute Mana at Fair" in gifts
    # With htmx, opening one fetches its list alone.
    powers = player_client.get(builder + "?picker=power", **HTMX).content.decode()
    assert '<details class="picker" id="picker-power" open>' in powers and "<html" not in powers
    assert "Adding it: at Fair it takes 4 skill levels (a very hard spell, Mudge 1.62)" in powers
    assert "needs the Magery gift first (Mudge 2.5)" in powers
    # The level an entry is added at is shown and chosen in the picker: the add row's.
    chosen = re.search(r'Add at\s*<select name="level"[^>]*>.*?</select>', powers, re.S).group(0)
    assert re.findall(r'<option value="(-?\d+)" selected>', chosen) == [str(FAIR)]
    skills = player_client.get(builder + "?picker=skill", **HTMX).content.decode()
    chosen = re.search(r'Add at\s*<select name="level"[^>]*>.*?</select>', skills, re.S).group(0)
    assert re.findall(r'<option value="-?\d+" selected>([^<]+)<', chosen) == ["Mediocre"]
    assert ">Good</option>" in chosen
    # Each skill's cost is quoted at that level, one less than at Fair (Mudge 1.62: an easy
    # skill takes 1 at Fair, an average 2, a hard 3, a very hard 4).
    for name, cost in (("Area Knowledge", "0 skill levels"), ("Climbing", "1 skill level")):
        pick = skills[skills.index(f"<bdi>{name}</bdi>") :]
        effect = re.search(r"Adding it: ([^.]*)\.", pick).group(1)
        assert effect.startswith(f"at Mediocre it takes {cost} (")
    assert skills.count("Adding it: at Mediocre it takes") == len(BUILTIN["mudge"].catalog.skills)
    # Its Add at set to Great draws it again (htmx), each cost quoted there, and so does
    # the whole page an Undo loads with it (views.builder._query_reopening_picker), its Add
    # at still at Great; a level the list does not offer leaves it at the add row's.
    for level, quoted, headers in (
        (GREAT, "at Great it takes 4 skill levels (", HTMX),
        (99, "at Mediocre it takes 1 skill level (", HTMX),
        (GREAT, "at Great it takes 4 skill levels (", {}),
        (99, "at Mediocre it takes 1 skill level (", {}),
    ):
        again = player_client.get(f"{builder}?picker=skill&level={level}", **headers)
        again = again.content.decode()
        picker = again[again.index('id="picker-skill"') :]
        chosen = re.search(r'Add at\s*<select name="level"[^>]*>.*?</select>', picker, re.S)
        selected = "Great" if quoted.startswith("at Great") else "Mediocre"
        assert re.findall(r'<option value="-?\d+" selected>([^<]+)<', chosen.group(0)) == [selected]
        climbing = picker[picker.index("<bdi>Climbing</bdi>") :]
        assert re.search(r"Adding it: ([^.]*)\.", climbing).group(1).startswith(quoted)
    # The powers' Add at offers "No level" (a superpower has none): chosen, it stays chosen
    # and a spell is quoted at Fair, where the picker answered with a server error.
    powers = player_client.get(f"{builder}?picker=power&level=", **HTMX)
    assert powers.status_code == 200
    powers = powers.content.decode()
    assert '<option value="" selected>No level</option>' in powers
    assert "Adding it: at Fair it takes 4 skill levels (a very hard spell, Mudge 1.62)" in powers
    # The whole page keeps each drawing of a picker by the level it is drawn at: the one at
    # "No level" (Undo's page) is not the one at its add row's level, Fair.
    for query, selected in (("&level=", "No level"), ("", "Fair"), ("&level=", "No level")):
        whole = player_client.get(f"{builder}?picker=power{query}").content.decode()
        whole = whole[whole.index('id="picker-power"') :]
        assert re.findall(r'<option value="-?\d*" selected>([^<]+)<', whole)[0] == selected
    # A list whose entries have no level offers no "Add at", drawn alone or with the page.
    for query in ("?picker=gift", "?picker=fault"):
        for headers in (HTMX, {}):
            assert "Add at" not in player_client.get(builder + query, **headers).content.decode()
    assert "Add at" in player_client.get(builder + "?picker=skill").content.decode()
    equipment = player_client.get(builder + "?picker=equipment", **HTMX).content.decode()
    assert "Damage +3" in equipment  # Sword (when new), Mudge 6.6
    assert player_client.get(builder + "?picker=nonsense", **HTMX).status_code == 404
    # Without JavaScript the picker is a form: its Add button posts the entry's name.
    response = add_trait(player_client, character, "skill", name="Acrobatics", level=FAIR)
    assert character.traits.get(name="Acrobatics").difficulty == "hard"
    assert response.status_code == 200


def test_a_skill_priced_from_its_default_is_quoted_at_the_pickers_add_at(player, player_client):
    """Fudge Basics prices a skill a level at a time from its default, Poor: the picker set
    to Great quotes Climbing at 4 skill levels, and adding it there takes the 4 it said."""
    character = character_create(owner=player, name="Pip", ruleset="fudge-basics")
    builder = reverse("character_builder", args=[character.pk])
    picker = player_client.get(f"{builder}?picker=skill&level={GREAT}", **HTMX).content.decode()
    climbing = picker[picker.index("<bdi>Climbing</bdi>") :]
    assert (
        re.search(r"Adding it: ([^.]*)\.", climbing)
        .group(1)
        .startswith("at Great it takes 4 skill levels (from its default, Poor, ")
    )
    before = build_report(character_to_rules(character), ruleset_for(character)).balance
    add_trait(player_client, character, "skill", name="Climbing", level=GREAT)
    character = Character.objects.get(pk=character.pk)
    after = build_report(character_to_rules(character), ruleset_for(character)).balance
    assert before - after == 4


@pytest.mark.parametrize(
    "kind, name, other, fields",
    [
        ("skill", "Acrobatics", "Acting", {"level": FAIR}),
        ("gift", "Animal Empathy", "Absolute Direction", {}),
    ],
)
def test_the_picker_says_which_entries_the_list_has_already(
    mudge_campaign, player, player_client, kind, name, other, fields
):
    """A list holds a name once: the picker's entry for one the character has says so, with
    no Add button to post it (the service would refuse it) and nothing of what adding it
    would do, in the open list drawn with the page and alone; the rest keep theirs. An add
    from the open picker (its form says `picker`) answers with its entry so, out of band,
    where it is, and a removal while it is open gives it its Add back; with no picker open,
    no entry is sent. A reload shows it too (the kept picker is drawn again when its list
    changes)."""
    character = character_create(owner=player, name="Mira", campaign=mudge_campaign)
    builder = reverse("character_builder", args=[character.pk])

    def entry(picker: str) -> str:
        item = picker[picker.index(f'data-name="{name.lower()}') :]
        return item[: item.index("</li>")]

    before = player_client.get(f"{builder}?picker={kind}", **HTMX).content.decode()
    assert f'name="name" value="{name}"' in entry(before)
    assert "Already on the list" not in before
    picker_input = f'<input type="hidden" name="picker" value="{kind}" id="picker-open-{kind}">'
    assert picker_input in before
    place = re.search(rf'<li class="pick" id="(pick-{kind}-\d+)" data-name="{name.lower()}', before)
    answer = add_trait(player_client, character, kind, name=name, picker=kind, **fields)
    assert character.traits.filter(kind=kind, name=name).count() == 1
    answer = answer.content.decode()
    assert f'<li class="pick" id="{place.group(1)}" hx-swap-oob="true"' in answer
    assert '<small class="pick-taken">Already on the list</small>' in entry(answer)
    assert answer.count('<li class="pick"') == 1
    answer = add_trait(player_client, character, kind, name=other, **fields).content.decode()
    assert character.traits.filter(kind=kind, name=other).exists()
    assert '<li class="pick"' not in answer
    for picker in (
        player_client.get(f"{builder}?picker={kind}", **HTMX).content.decode(),
        player_client.get(f"{builder}?picker={kind}").content.decode(),
    ):
        assert '<small class="pick-taken">Already on the list</small>' in entry(picker)
        assert f'value="{name}"' not in entry(picker) and "Adding it:" not in entry(picker)
        assert picker.count("Already on the list") == 2
        assert (
            picker.count('<button type="submit" class="small" name="name"')
            == picker.count('<li class="pick"') - 2
        )
    french = player_client.get(
        f"{builder}?picker={kind}", HTTP_ACCEPT_LANGUAGE="fr", **HTMX
    ).content.decode()
    assert "Déjà dans la liste" in entry(french)
    # Its row's remove button sends the open picker's input along: the entry can be added
    # again, and says so where it is. Removed with no picker open, nothing is sent for it.
    trait = character.traits.get(kind=kind, name=name)
    page = player_client.get(builder).content.decode()
    row = page[page.index(f'id="trait-{trait.pk}"') :]
    assert f'hx-include="#picker-open-{kind}"' in row[: row.index("</form>")]
    # So does the add row: a name of the catalogue typed there marks its entry too.
    assert re.search(rf'<form id="add-{kind}"[^>]* hx-include="#picker-open-{kind}"', page)
    answer = remove_trait(player_client, character, trait, picker=kind)
    assert not character.traits.filter(pk=trait.pk).exists()
    assert f'<li class="pick" id="{place.group(1)}" hx-swap-oob="true"' in answer
    assert f'name="name" value="{name}"' in entry(answer) and "Adding it:" in entry(answer)
    answer = remove_trait(player_client, character, character.traits.get(kind=kind, name=other))
    assert '<li class="pick"' not in answer


def remove_trait(client, character, trait, **fields) -> str:
    character.refresh_from_db()
    url = reverse("trait_delete", args=[character.pk, trait.pk])
    response = client.post(url, {"version": character.version, **fields}, **HTMX)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_a_picker_search_that_finds_nothing_says_so_and_points_to_the_add_row(
    mudge_campaign, player, player_client
):
    """Searching the skills for "Chanter" leaves the list empty: the picker's status line
    (filled in by the script, which puts in what was typed) says no entry matches and that
    the name is added as the player's own in the add row above the picker."""
    character = character_create(owner=player, name="Mira", campaign=mudge_campaign)
    builder = reverse("character_builder", args=[character.pk])
    for kind, noun in (("skill", "skill"), ("equipment", "equipment")):
        picker = player_client.get(f"{builder}?picker={kind}", **HTMX).content.decode()
        line = re.search(r'<div class="picker-none"[^>]*></div>', picker).group(0)
        assert 'role="status"' in line and f'data-picker-none="picker-list-{kind}"' in line
        said = f"No entry matches “{{query}}”: add it as your own {noun} in the field above."
        assert f'data-said="{said}"' in line
        # The row it points to comes before the picker on the builder.
        page = player_client.get(f"{builder}?picker={kind}").content.decode()
        assert page.index(f'id="add-{kind}"') < page.index(f'id="picker-{kind}"')


def test_the_template_preview_is_in_words_and_a_broad_class_suggests_the_house_rule(
    mudge_campaign, player, player_client
):
    character = character_create(owner=player, name="Recruit", campaign=mudge_campaign)
    url = reverse("character_builder", args=[character.pk]) + "?template=beginning-fighter"
    page = player_client.get(url).content.decode()
    preview = page[page.index('id="template-preview"') :]
    preview = preview[: preview.index("</div>")]
    assert "A broad class (Mudge 6.42)" in preview
    assert "Only 2 attributes may be Great; 4 are" in preview and "Mudge 1.6" in preview
    assert "cap_exceeded" not in preview
    assert "caps off" in preview and "ask your GM" in preview
    assert "Strength Fair → Great" in preview


# -- the GM's review ----------------------------------------------------------------------------


def test_the_review_marks_a_home_made_gift_and_a_changed_catalogue_weapon(
    mudge_campaign, gm, player, player_client, client
):
    character = character_create(owner=player, name="Lantern", campaign=mudge_campaign)
    add_trait(player_client, character, "gift", name="Lantern-sight", cost="3")
    add_trait(player_client, character, "gift", name="Luck")
    add_trait(player_client, character, "fault", name="Curious")
    add_equipment(player_client, character, name="Sword (when new)")
    sword = character.equipment.get()
    character.refresh_from_db()
    url = reverse("equipment_update", args=[character.pk, sword.pk])
    player_client.post(
        url, {"version": character.version, "name": sword.name, "kind": "weapon", "damage": "5"}
    )
    character.refresh_from_db()
    character_submit(character=character, actor=player, expected_version=character.version)
    client.force_login(gm)
    page = client.get(reverse("character_review", args=[character.pk])).content.decode()

    def row(name):
        start = page.index(f"<bdi>{name}</bdi>")
        return page[start : page.index("</li>", start)]

    assert "Not in the campaign&#x27;s catalogue." in row("Lantern-sight")
    assert "3 gifts" in row("Lantern-sight")  # each trait with its cost
    assert "catalogue" not in row("Luck") and "2 gifts" in row("Luck")
    assert "Differs from the catalogue: it lists damage +3 (here +5)." in row("Sword (when new)")
    # In the sheet's order: attributes, skills, gifts, faults, powers, then equipment.
    order = [page.index(f"<bdi>{name}</bdi>") for name in ("Strength", "Luck", "Curious")]
    assert order == sorted(order)
    # Equipment takes a comment too.
    assert f'name="equipment_{sword.pk}"' in page


def test_what_mudges_templates_bring_is_a_catalogue_of_their_own():
    """Mudge 6.4's templates name skills, gifts and faults its catalogue does not list: a
    broad class's groups, either of a choice, a race's bonus skills and traits."""
    mudge = BUILTIN["mudge"]
    offered = templates_catalog(mudge)
    for name in ("Covert skills", "Social skills (Fellowship)", "Spear", "Sword"):
        assert offered.skill(name).difficulty == "average", name
    assert offered.skill("Move Quietly") is not None  # the Cercopes' racial bonus
    assert offered.skill("All other skills") is None  # a floor, never a skill
    assert offered.skill("Constitution") is None  # a racial bonus to an attribute
    assert offered.gift("Prehensile Tail").cost == 1
    assert offered.fault("Halfling (scale -2, bonus to Constitution)").value == 1


def test_the_review_does_not_mark_what_the_games_own_template_added(
    mudge_campaign, gm, player, player_client, client
):
    """Beginning Rogue's skills (Mudge 6.42's "Covert skills") are the game's own: the
    template that brought them is part of what the campaign offers, so none is 'not in the
    catalogue'. One made harder than the template has it, and one the player made up, still
    stand out."""
    character = character_create(owner=player, name="Rogue", campaign=mudge_campaign)
    character_apply_template(
        character=character, actor=player, expected_version=None, slug="beginning-rogue"
    )
    added = list(character.traits.filter(kind=Trait.Kind.SKILL).values_list("name", flat=True))
    assert "Covert skills" in added and "Social skills (Fellowship)" in added
    character.traits.filter(name="Urban skills").update(difficulty="very_hard")
    add_trait(player_client, character, "skill", name="Lantern-lore", level=FAIR)
    character.refresh_from_db()
    character_submit(character=character, actor=player, expected_version=character.version)
    client.force_login(gm)
    page = client.get(reverse("character_review", args=[character.pk])).content.decode()

    def row(name):
        start = page.index(f"<bdi>{name}</bdi>")
        return page[start : page.index("</li>", start)]

    for name in added:
        if name != "Urban skills":
            assert "catalogue" not in row(name), name
    assert "Differs from the catalogue: it lists difficulty average (here very hard)." in row(
        "Urban skills"
    )
    assert "Not in the campaign&#x27;s catalogue." in row("Lantern-lore")


def test_the_review_suggests_caps_off_for_a_build_from_a_broad_class(
    mudge_campaign, gm, player, player_client, client
):
    character = character_create(owner=player, name="Recruit", campaign=mudge_campaign)
    url = reverse("template_apply", args=[character.pk])
    player_client.post(url, {"version": character.version, "template": "beginning-fighter"})
    character.refresh_from_db()
    character_submit(character=character, actor=player, expected_version=character.version)
    client.force_login(gm)
    page = client.get(reverse("character_review", args=[character.pk])).content.decode()
    assert "Built from the broad class Beginning Fighter (Mudge 6.42" in page
    assert reverse("campaign_house_rules", args=[mudge_campaign.pk]) in page
