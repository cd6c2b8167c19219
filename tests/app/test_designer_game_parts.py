"""Issue 42: the designer's Derived values, Trackers and Prerequisites sections. A GM adds a
Luck tracker, a damage capacity worked out from Constitution (Mudge 4.52) and "spells need
Magery" (Mudge 1.33) with an English and a French message, as a browser posts them: the
saved file holds exactly those entries in format 2 and reads back; bad formulas, starts and
prerequisites are refused beside their fields with nothing saved; removing them all writes
format 1 again."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from characters.forms.designer import SECTIONS
from characters.forms.designer.base import Rows
from characters.models import DesignedRuleset
from characters.services import rulesets as services
from rules.ruleset_file import read_ruleset, ruleset_to_json
from rules.ruleset_file.file_format import FORMAT, FORMAT_2
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for
from tests.app.test_designer_sections import along, beside, fields_of, page, url

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
DAMAGE_CAPACITY = {
    "key": "damage_capacity",
    "name": "Damage capacity",
    "formula": 'level("Constitution") + scale("Strength") + 3',
    "translations": {"fr": {"name": "Capacité de dégâts"}},
}
LUCK = {
    "key": "luck",
    "name": "Luck",
    "kind": "count",
    "size": 5,
    "start": 3,
    "changed_by": "player",
    "resets_on_rest": False,
}
MAGERY = {
    "key": "spells-need-magery",
    "message": "Spells need the Magery gift.",
    "guards_kind": "spell",
    "needs": "Magery",
    "translations": {"fr": {"message": "Les sorts demandent le don Magie."}},
}


@pytest.fixture
def design(gm):
    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(slug="my-mudge", name="My Mudge")
    return services.designed_ruleset_save(owner=gm, file=file).ruleset


def with_rows(client, design, section, count=1) -> dict:
    """The section's page with `count` rows added by its Add button, as a browser posts it."""
    data = page(client, design, section)
    for _ in range(count):
        response = client.post(url(design, section), {**data, "add": section})
        assert response.status_code == 200
        data = fields_of(response)
    return data


def derived_row(data, index=0, **values) -> dict:
    row = {
        "key": "damage_capacity",
        "name": "Damage capacity",
        "formula": DAMAGE_CAPACITY["formula"],
    }
    row["name_fr"] = "Capacité de dégâts"
    return _filled(data, "derived", index, {**row, **values})


def tracker_row(data, index=0, **values) -> dict:
    row = {"key": "luck", "name": "Luck", "kind": "count", "size": "5", "start": "3"}
    return _filled(data, "trackers", index, {**row, **values})


def prerequisite_row(data, index=0, **values) -> dict:
    row = {
        "key": "spells-need-magery",
        "guards_kind": "spell",
        "needs": "Magery",
        "message": MAGERY["message"],
        "message_fr": "Les sorts demandent le don Magie.",
    }
    return _filled(data, "prerequisites", index, {**row, **values})


def _filled(data, rows, index, values) -> dict:
    for name, value in values.items():
        if f"{rows}-{index}-{name}" not in data and value == "":
            continue  # a field this section does not have, left empty
        assert f"{rows}-{index}-{name}" in data, name  # a field the page shows
        data[f"{rows}-{index}-{name}"] = [value]
    return data


def save(client, design, section, data):
    return client.post(url(design, section), {**data, "save": "1"})


def latest_file(design) -> dict:
    return DesignedRuleset.objects.get(pk=design.pk).latest.file


def add_every_part(client, design):
    for section, fill in (
        ("derived", derived_row),
        ("trackers", tracker_row),
        ("prerequisites", prerequisite_row),
    ):
        response = save(client, design, section, fill(with_rows(client, design, section)))
        assert response.status_code == 302, response.content.decode()[:3000]


def test_a_gm_adds_a_tracker_a_derived_value_and_a_prerequisite(gm, design):
    client = client_for(gm)
    add_every_part(client, design)
    file = latest_file(design)
    assert file["format"] == FORMAT_2
    assert file["derived"] == [DAMAGE_CAPACITY]
    assert file["trackers"] == [LUCK]
    assert file["prerequisites"] == [MAGERY]
    ruleset = read_ruleset(file)
    assert [d.formula for d in ruleset.derived] == [DAMAGE_CAPACITY["formula"]]
    assert ruleset.trackers[0].size == 5 and ruleset.trackers[0].start == 3
    prerequisite = ruleset.prerequisites[0]
    assert (prerequisite.guards_kind, prerequisite.needs) == ("spell", "Magery")
    assert prerequisite.translations == (("fr", "Les sorts demandent le don Magie."),)
    # Each section's page shows the rows as saved.
    assert page(client, design, "trackers")["trackers-0-start"] == ["3"]
    assert page(client, design, "derived")["derived-0-name_fr"] == ["Capacité de dégâts"]
    shown = page(client, design, "prerequisites")
    assert shown["prerequisites-0-guards_kind"] == ["spell"]
    assert shown["prerequisites-0-message_fr"] == ["Les sorts demandent le don Magie."]


def test_a_tracker_may_start_at_a_derived_value_and_a_prerequisite_need_one(gm, design):
    client = client_for(gm)
    add_every_part(client, design)
    data = tracker_row(page(client, design, "trackers"), start="damage_capacity")
    assert save(client, design, "trackers", data).status_code == 302
    data = page(client, design, "prerequisites")
    # The select offers the game's derived values by name (their keys are for formulas).
    html = client.get(url(design, "prerequisites")).content.decode()
    assert '<option value="damage_capacity">Damage capacity</option>' in html
    data = prerequisite_row(
        data, guards_kind="", guards="Blind Fighting,\nAcrobatics", needs="Dodge"
    )
    data["prerequisites-0-at_least_derived"] = ["damage_capacity"]
    data["prerequisites-0-section"] = ["House rule 3"]
    assert save(client, design, "prerequisites", data).status_code == 302
    file = latest_file(design)
    assert file["trackers"][0]["start"] == "damage_capacity"
    assert file["prerequisites"] == [
        {
            "key": "spells-need-magery",
            "message": MAGERY["message"],
            "guards": ["Blind Fighting", "Acrobatics"],
            "needs": "Dodge",
            "at_least_derived": "damage_capacity",
            "section": "House rule 3",
            "translations": MAGERY["translations"],
        }
    ]


def test_export_import_export_is_the_same_file(gm, outsider, design):
    add_every_part(client_for(gm), design)
    exported = client_for(gm).get(reverse("ruleset_export", args=[design.pk, 4]))
    assert exported.status_code == 200
    text = exported.content
    assert json.loads(text)["trackers"] == [LUCK]
    upload = SimpleUploadedFile("my-mudge.ruleset.json", text, "application/json")
    other = client_for(outsider)
    response = other.post(reverse("ruleset_designs"), {"action": "import", "file": upload})
    assert response.status_code == 302
    imported = DesignedRuleset.objects.get(owner=outsider)
    again = other.get(reverse("ruleset_export", args=[imported.pk, 1]))
    assert again.content == text


def test_the_preview_shows_the_samples_derived_values_and_broken_prerequisites(gm, design):
    client = client_for(gm)
    add_every_part(client, design)
    # Mudge's sample character: every attribute at Fair (0), Strength Scale 0 -> 0 + 0 + 3.
    response = client.get(url(design, "derived"))
    assert "<bdi>Damage capacity</bdi>: 3" in response.content.decode()
    french = client.get(url(design, "derived"), **FRENCH).content.decode()
    assert "<bdi>Capacité de dégâts</bdi> : 3" in french
    # A prerequisite the sample breaks: its first gift (Mudge's list) needs a gift it lacks.
    gift = read_ruleset(latest_file(design)).catalog.gifts[0].name
    data = prerequisite_row(
        page(client, design, "prerequisites"),
        guards_kind="",
        guards=gift,
        needs="Magery",
        message=f"{gift} needs Magery.",
        message_fr=f"{gift} demande Magie.",
    )
    response = client.post(url(design, "prerequisites"), {**data, "preview": "1"}, **FRENCH)
    assert response.status_code == 200
    assert f"<li>{gift} demande Magie.</li>" in response.content.decode()


def test_removing_every_part_writes_format_1_again(gm, design):
    client = client_for(gm)
    before = latest_file(design)
    assert before["format"] == FORMAT and "derived" not in before
    add_every_part(client, design)
    for section in ("prerequisites", "trackers", "derived"):
        data = page(client, design, section)
        response = client.post(url(design, section), {**data, "remove": f"{section}:0"})
        assert response.status_code == 200
        assert save(client, design, section, fields_of(response)).status_code == 302
    after = latest_file(design)
    assert after["format"] == FORMAT
    assert not set(after) & {"derived", "trackers", "prerequisites"}
    assert after == before


BAD = [
    ("derived", "formula", 'level("Constitution") + level("Stardust")', "'Stardust' is not an"),
    ("derived", "formula", "1 / 0", "Divides by zero."),
    ("derived", "formula", '__import__("os")', "__import__() is not a function here"),
    ("derived", "formula", "2 ** 8", "'2 ** 8' is not allowed"),
    ("trackers", "start", "staying_power", "'staying_power' is not a derived value of the game"),
    ("trackers", "size", "0", "Must be from 1 to 100, not 0."),
    ("prerequisites", "needs", "Stardust", "'Stardust' is not an attribute, skill, gift"),
    ("prerequisites", "at_least", "Wondrous", "Select a valid choice."),
    ("prerequisites", "at_most", "1", "Either limits how many may be taken, or needs a trait"),
    ("prerequisites", "key", "Spells Need Magery", "must be lowercase letters, digits"),
]


@pytest.mark.parametrize(("section", "field", "typed", "said"), BAD)
def test_bad_input_is_refused_beside_its_field_and_nothing_saved(
    gm, design, section, field, typed, said
):
    client = client_for(gm)
    fill = {"derived": derived_row, "trackers": tracker_row, "prerequisites": prerequisite_row}
    data = fill[section](with_rows(client, design, section), **{field: typed})
    response = save(client, design, section, data)
    assert response.status_code == 400
    assert said in beside(response, f"id_{section}-0-{field}")
    assert DesignedRuleset.objects.get(pk=design.pk).latest.number == 1


def test_a_loop_between_two_values_is_refused_with_its_path(gm, design):
    client = client_for(gm)
    data = with_rows(client, design, "derived", count=2)
    data = derived_row(data, 0, key="attack", name="Attack", formula="defence + 1", name_fr="")
    data = derived_row(data, 1, key="defence", name="Defence", formula="attack - 1", name_fr="")
    response = save(client, design, "derived", data)
    assert response.status_code == 400
    assert "Reads itself: attack → defence → attack." in beside(response, "id_derived-0-formula")
    assert DesignedRuleset.objects.get(pk=design.pk).latest.number == 1


def test_another_sections_problem_is_named_by_its_title_and_label(gm, design):
    """A derived value a tracker starts at, removed: the tracker's start is refused, named
    from the Derived values page by the Trackers section's title and its field's label."""
    client = client_for(gm)
    add_every_part(client, design)
    data = tracker_row(page(client, design, "trackers"), start="damage_capacity")
    assert save(client, design, "trackers", data).status_code == 302
    data = page(client, design, "derived")
    response = client.post(url(design, "derived"), {**data, "remove": "derived:0"})
    response = save(client, design, "derived", fields_of(response))
    assert response.status_code == 400
    body = response.content.decode()
    assert f"<strong>{along('Trackers', 'Tracker 1', 'Start')}</strong>" in body
    assert "&#x27;damage_capacity&#x27; is not a derived value of the game." in body
    assert DesignedRuleset.objects.get(pk=design.pk).latest.number == 5


def test_the_french_page_shows_french_labels(gm, design):
    client = client_for(gm)
    add_every_part(client, design)
    for section, labels in (
        ("derived", ("Formule", "Nom en Français", "Ajouter une valeur dérivée")),
        ("trackers", ("Taille", "Départ", "Nom en Deutsch", "Ajouter un compteur")),
        ("prerequisites", ("Ce qu\u2019il demande", "Message en Español", "Ajouter un prérequis")),
    ):
        body = client.get(url(design, section), **FRENCH).content.decode()
        for label in labels:
            assert label in body, (section, label)
        assert "Name in" not in body and "Message in" not in body


def test_a_bad_formula_is_refused_in_french(gm, design):
    client = client_for(gm)
    data = derived_row(with_rows(client, design, "derived"), formula="defence + 1 / 0")
    response = client.post(url(design, "derived"), {**data, "save": "1"}, **FRENCH)
    assert response.status_code == 400
    assert beside(response, "id_derived-0-formula").strip() == "Divise par zéro."


@pytest.mark.parametrize(
    ("section", "fill", "entry"),
    [
        ("derived", derived_row, {k: v for k, v in DAMAGE_CAPACITY.items() if k != "translations"}),
        ("trackers", tracker_row, LUCK),
        (
            "prerequisites",
            prerequisite_row,
            {k: v for k, v in MAGERY.items() if k != "translations"},
        ),
    ],
)
def test_empty_optional_fields_are_left_out_of_the_entry(gm, design, section, fill, entry):
    """As the section writes the file, before the reader: nothing written as ""."""
    client = client_for(gm)
    data = fill(with_rows(client, design, section), name_fr="", message_fr="")
    latest = DesignedRuleset.objects.get(pk=design.pk).latest
    form = SECTIONS[section](
        MultiValueDict(data), file=latest.file, ruleset=read_ruleset(latest.file), version=1
    )
    assert form.file()[section] == [entry]
    assert form.file()["format"] == FORMAT_2


@pytest.mark.parametrize("kept", ['{"fr": "Chance"}', "[1, 2]", "{not json"])
def test_a_tampered_row_of_translations_is_no_error(gm, design, kept):
    client = client_for(gm)
    data = tracker_row(with_rows(client, design, "trackers"), name_fr="Chance")
    data["trackers-0-translations"] = [kept]
    assert save(client, design, "trackers", data).status_code == 302
    assert latest_file(design)["trackers"][0]["translations"] == {"fr": {"name": "Chance"}}


# Every list whose rows declare defaults (a tracker counts, a skill is of average difficulty).
ROWS_WITH_DEFAULTS = [
    (section.key, part.name, name, str(field.initial))
    for section in SECTIONS.values()
    for part in section.parts
    if isinstance(part, Rows)
    for name, field in part.form.base_fields.items()
    if field.initial is not None
]


@pytest.mark.parametrize(("section", "rows", "field", "default"), ROWS_WITH_DEFAULTS)
def test_a_row_added_starts_at_its_defaults(gm, design, section, rows, field, default):
    """A row added by its Add button shows its fields' defaults chosen, where its choices
    (radios) would otherwise have none and a select showed its first."""
    client = client_for(gm)
    data = page(client, design, section)
    added = int(data[f"{rows}-TOTAL_FORMS"][0])
    response = client.post(url(design, section), {**data, "add": rows})
    assert response.status_code == 200
    assert fields_of(response)[f"{rows}-{added}-{field}"] == [default]
