"""Rulesets are data: a toy fifth ruleset, made of nothing but rules data and its catalogue,
works in the builder, on the sheet and in check_character, with no migration and no code
that knows its name (issue 10, "Measure it")."""

import dataclasses
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from characters.models import Character, Trait
from characters.selectors.rulesets import describe_budgets
from characters.services.campaigns import campaign_create
from rules import play, rulesets, tables
from rules.catalog import Catalog, CatalogFault, CatalogGift, CatalogSkill
from rules.character import Character as Build
from rules.character import Trait as BuildTrait
from rules.ladder import FAIR, GOOD, GREAT, POOR, SUPERB, TERRIBLE
from rules.report import build_report
from rules.rulesets import LEVELS, Harm, Ruleset, Terms, WoundLevel

TOY_CATALOG = Catalog(
    attributes=("Brawn", "Wits"),
    skills=(CatalogSkill("Sneaking", note="quietly"), CatalogSkill("Riddling")),
    gifts=(CatalogGift("Second Sight", 2), CatalogGift("Lucky Hat")),
    faults=(CatalogFault("Cursed", 2),),
    power_kinds=("superpower",),
    section="Toy rules 2",
)
TOY = Ruleset(
    slug="toy-fudge",
    name="Toy Fudge",
    system=LEVELS,
    unit="skill level",
    attribute_names=("Brawn", "Wits"),
    attribute_default=FAIR,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    terms=Terms(
        lists={
            "attributes": ("Qualities", "quality"),
            "skills": ("Knacks", "knack"),
            "gifts": ("Boons", "boon"),
            "faults": ("Flaws", "flaw"),
            "powers": ("Wonders", "wonder"),
        },
        points="luck points",
        gm="Referee",
        equipment_hint="Toy rules 3: a weapon adds its bite.",
        personality_hint="Toy rules 4: who are you?",
    ),
    catalog=TOY_CATALOG,
    attribute_levels=2,
    skill_levels=10,
    free_gifts=1,
    creation_min=TERRIBLE,
    creation_max=SUPERB,
    meta_points_start=1,
    power_kinds=("superpower",),
    damage_capacity_attribute="Brawn",
    muscle_attribute="Brawn",
    harm=Harm(
        title="Bruises",
        caused_by="Damage",
        track=(WoundLevel("Bruised", "1-2", 0, 2), WoundLevel("Battered", "3+", -1, 1)),
    ),
    sections={"creation": "Toy rules 1"},
)


@pytest.fixture
def toy(monkeypatch):
    """The toy ruleset, registered the way a new built-in one is: in BUILTIN, nowhere else."""
    monkeypatch.setitem(rulesets.BUILTIN, TOY.slug, TOY)
    return TOY


@pytest.fixture
def player_client(client, django_user_model):
    user = django_user_model.objects.create_user("toyplayer", password="pw-toy-12345")
    client.force_login(user)
    client.user = user
    return client


# makemigrations checks the migration history of every database, the owner's too.
@pytest.mark.django_db(databases="__all__")
def test_it_needs_no_migration(toy):
    call_command("makemigrations", "characters", "--check", "--dry-run", verbosity=0)


def test_the_landing_page_and_the_new_character_form_offer_it(toy, player_client):
    home = player_client.get(reverse("home")).content.decode()
    assert "Toy Fudge" in home and "toy-fudge" in home
    assert "2 qualities from Fair with 2 free quality levels; 10 knack levels" in home
    form = player_client.get(reverse("character_new")).content.decode()
    radio = r'<input type="radio" name="ruleset" value="toy-fudge"[^>]*>\s*Toy Fudge<'
    assert re.search(radio, form)  # one of the ruleset's radios, named
    assert player_client.get(reverse("ruleset", args=["toy-fudge"])).status_code == 200


def test_its_summary_counts_in_its_own_words():
    """One of a budget is said as one: "1 free boon", "1 knack level", "1 token"."""
    even = dataclasses.replace(TOY, trade_values={**TOY.trade_values, "attribute": 1})
    summary = tables.describe_rules(even)
    assert "; 1 free boon; " in summary
    assert "trades: 1 quality level = 1 knack level, 1 boon = 6" in summary
    assert dict(describe_budgets(even))["Trade values"].startswith(
        "1 quality level = 1 knack level; "
    )
    tokens = dataclasses.replace(
        rulesets.BUILTIN["microfudged-streamlined"], tokens_carried=1, attribute_cost=1
    )
    assert "at most 1 token carried into play" in tables.describe_rules(tokens)


def test_its_report_names_a_skill_too_high_in_its_own_words():
    capped = dataclasses.replace(TOY, creation_max=GREAT)
    pip = Build("toy-fudge", "Pip", skills=(BuildTrait("Sneaking", SUPERB),))
    [issue] = [i for i in build_report(pip, capped).errors if i.code == "level_out_of_range"]
    assert issue.message == "No knack may start above Great; Sneaking is Superb. Lower it to Great."


def test_the_builder_works_for_it(toy, player_client):
    response = player_client.post(
        reverse("character_new"), {"name": "Pip", "ruleset": "toy-fudge", "campaign": ""}
    )
    character = Character.objects.get(name="Pip")
    assert response.status_code == 302 and character.ruleset == "toy-fudge"
    # its fixed qualities, at their default
    assert list(character.traits.values_list("name", "level")) == [("Brawn", 0), ("Wits", 0)]
    # a boon from its catalogue takes the catalogue's cost
    player_client.post(
        reverse("trait_add", args=[character.pk, Trait.Kind.GIFT]),
        {"version": character.version, "name": "Second Sight"},
    )
    assert character.traits.get(kind=Trait.Kind.GIFT).cost == 2
    character.refresh_from_db()
    brawn = character.traits.get(name="Brawn")
    player_client.post(
        reverse("trait_update", args=[character.pk, brawn.pk]),
        {"version": character.version, "name": "Brawn", "level": GOOD},
    )
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    for words in ("Qualities", "Knacks", "Boons", "Flaws", "Wonders", "Add a knack", "Luck points"):
        assert words in page, words
    assert "Toy rules 3: a weapon adds its bite." in page
    # 2 free qualities, 1 spent (x3 = 3 left); 10 knack levels; 1 boon, 2 spent (-6):
    # 3 + 10 - 6 = 7, traded: 6 knack levels -> 1 boon, in the toy's own words
    assert "7 knack levels" in page
    assert "6 knack levels → 1 boon" in page
    main = page[page.index("<main") : page.index("</main>")]
    assert "Strength Scale" not in main and "Mudge" not in main  # no Scale, no templates


def test_the_sheet_works_for_it(toy, player_client):
    character = Character.objects.create(owner=player_client.user, ruleset="toy-fudge", name="Pip")
    Trait.objects.create(character=character, kind=Trait.Kind.ATTRIBUTE, name="Brawn", level=GOOD)
    Trait.objects.create(character=character, kind=Trait.Kind.FAULT, name="Cursed")
    page = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    for words in ("Toy Fudge character sheet", "Qualities", "Knacks", "Flaws", "Luck points"):
        assert words in page, words
    assert "<bdi>Cursed</bdi> (worth 2)" in page  # valued from the toy catalogue
    assert "Bruises" in page and "Bruised" in page and "3+" in page
    assert "Unarmed: Brawn [1] + Misc. [0] = +1" in page  # its muscle attribute, no Scale
    assert "damage die" not in page


def test_play_at_the_table_reads_its_data():
    pip = Build("toy-fudge", "Pip")
    track = play.harm_track(pip, TOY)
    assert track.section == "Toy rules 1"  # its own rules, not Fudge Basics' or Mudge's
    assert [track.level_of_damage(d) for d in (1, 2, 3, 9)] == [0, 0, 1, 1]  # "1-2", "3+"
    assert (play.table_pool(pip, TOY).name, play.table_pool(pip, TOY).on_record) == (
        "luck points",
        1,
    )
    # No damage die and no grazes (those are Mudge's, 4.61 and 4.56): 1 + 1 - 0 = 2.
    hit = play.blow(TOY, margin=1, offense=1, defence=0, damage_die=1)
    assert (hit.damage, hit.wound, hit.note) == (2, "Bruised", "")


def test_check_character_reads_it(toy, tmp_path, capsys):
    path = tmp_path / "pip.json"
    path.write_text(
        json.dumps(
            {
                "ruleset": "toy-fudge",
                "name": "Pip",
                "attributes": [{"name": "Wits", "level": "Great"}],
                "skills": [{"name": "Sneaking", "level": "Good"}],
                "gifts": [{"name": "Second Sight"}],
            }
        )
    )
    call_command("check_character", str(path))  # exit code 0: returns
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is True
    # Wits Great 2 of 2; Sneaking Good from Poor 3 of 10; Second Sight 2 (catalogue) of 1:
    # 0 + 7 - 6 = 1 skill level left.
    assert report["ruleset"] == "toy-fudge"
    assert report["pools"]["gifts"] == {"budget": 1, "spent": 2}
    assert report["balance"] == 1
    assert report["trades"] == [
        {"give": {"pool": "skills", "amount": 6}, "get": {"pool": "gifts", "amount": 1}}
    ]


def test_a_campaign_starts_from_its_catalogue(toy, django_user_model):
    gm = django_user_model.objects.create_user("referee")
    campaign = campaign_create(gm=gm, name="Toy table", base_ruleset="toy-fudge")
    entries = set(campaign.catalog.values_list("kind", "name"))
    assert {("attribute", "Brawn"), ("skill", "Riddling"), ("gift", "Second Sight")} <= entries
    assert campaign.get_base_ruleset_display() == "Toy Fudge"
