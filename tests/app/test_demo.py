"""`manage.py load_demo`: the demo table, loaded once however often the command runs."""

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from characters.models import Campaign, Character, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development_settings(settings):
    settings.DEBUG = True  # as under `make run`; pytest-django runs tests with DEBUG off


def load_demo(*args) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    models = [get_user_model(), *apps.get_app_config("characters").get_models()]
    return {model._meta.label: model.objects.count() for model in models}


def test_loading_twice_changes_nothing():
    output = load_demo()
    first = row_counts()
    assert "fairsheet-demo" in output and "http://127.0.0.1:8000/" in output
    load_demo()
    assert row_counts() == first
    assert first["auth.User"] == 3
    assert first["characters.Campaign"] == 3
    assert first["characters.Character"] == 6
    assert first["characters.RulesetVersion"] == 1


def test_it_names_the_address_make_run_serves():
    assert "Open http://127.0.0.1:8800/ and log in" in load_demo("--url", "http://127.0.0.1:8800/")


def test_demo_table_members_and_owners():
    load_demo()
    mudge = Campaign.objects.get(base_ruleset="mudge")
    dip = Campaign.objects.get(base_ruleset="microfudged-dip")
    assert mudge.gm.username == dip.gm.username == "gm"
    assert dip.house_rules == {"tokens": 6}
    for campaign in (mudge, dip):
        players = campaign.memberships.values_list("user__username", flat=True)
        assert sorted(players) == ["player1", "player2"]
    owners = dict(Character.objects.values_list("name", "owner__username"))
    assert owners == {
        "Brogo the Scout": "player1",
        "Dolores Ramirez": "player1",
        "James Stoddard": "player2",
        "Jim Bones": "player1",
        "Lisa Benny": "player2",
        "Morwen of the Marches": "player1",
    }
    assert set(mudge.characters.values_list("name", flat=True)) == {
        "Brogo the Scout",
        "Dolores Ramirez",
        "James Stoddard",
    }
    assert get_user_model().objects.get(username="player1").check_password("fairsheet-demo")
    assert Membership.objects.count() == 5  # two players in each of two campaigns, one in the third


def test_brogo_is_imported_whole(sample_file):
    load_demo()
    brogo = Character.objects.get(name="Brogo the Scout")
    sample = sample_file("brogo")
    counts = {
        kind: brogo.traits.filter(kind=kind).count()
        for kind in ("attribute", "skill", "gift", "fault", "power")
    }
    assert counts == {
        "attribute": len(sample["attributes"]),
        "skill": len(sample["skills"]),
        "gift": len(sample["gifts"]),
        "fault": len(sample["faults"]),
        "power": len(sample.get("powers", [])),
    }
    assert counts == {"attribute": 7, "skill": 23, "gift": 6, "fault": 6, "power": 0}
    assert brogo.equipment.count() == len(sample["equipment"]) == 3
    assert (brogo.race, brogo.scale_strength) == ("Halfling", -2)


def test_production_settings_refuse_without_force(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        load_demo()
    assert not Campaign.objects.exists()
    load_demo("--force")
    assert Campaign.objects.count() == 3


def test_the_demo_game_is_the_gms_own_with_its_parts():
    """The third campaign runs docs/examples' Swords and sorcery, designed by the demo GM:
    Morwen's sheet has its derived values, and her Sword Mastery meets its prerequisite."""
    from characters.adapters import character_to_rules, ruleset_for
    from rules.report import build_report

    load_demo()
    campaign = Campaign.objects.get(name="Swords and sorcery")
    assert campaign.ruleset_version.ruleset.owner.username == "gm"
    assert list(campaign.memberships.values_list("user__username", flat=True)) == ["player1"]
    morwen = campaign.characters.get()
    ruleset = ruleset_for(morwen)
    assert [t.name for t in ruleset.trackers] == ["Luck", "Grit", "Doom"]
    report = build_report(character_to_rules(morwen), ruleset)
    assert report.to_json()["derived"] == {"body_odf": 1, "body_ddf": 1, "ddf_in_scale_mail": 5}
    assert not [e for e in report.errors if e.code == "prerequisite_unmet"]
