"""Issue 29: the designer edits a ruleset field by field, a form a section. Each section's
page posts back what a browser would (the page's own fields, read from its HTML); nonsense
in any section is refused with every problem at once, each beside its field in plain words,
and saves nothing; a good post saves a new version; rows are added and removed without
scripts; renaming a ladder word carries to every level of the file."""

import html as html_text
import re
from html.parser import HTMLParser

import pytest
from django.forms import HiddenInput
from django.urls import reverse

from characters.forms.campaigns import SECTIONS as HOUSE_RULE_SECTIONS
from characters.forms.designer import SECTIONS, SEPARATOR, describe
from characters.models import DesignedRuleset
from characters.services import rulesets as services
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import HTMX, client_for
from tests.app.test_plain_words import CODE, Text

pytestmark = pytest.mark.django_db


class Fields(HTMLParser):
    """What a browser posts for the page's design form: its fields and their values."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self.inside = False
        self.select = self.textarea = None
        self.ids: dict[str, str] = {}  # id -> the text inside it (errors)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "design-form":
            self.inside = True
        if not self.inside or ("name" not in a and tag != "option"):
            return
        if tag == "input" and a.get("type") not in ("submit",):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            default = "on" if a.get("type") in ("checkbox", "radio") else ""
            self.data.setdefault(a["name"], []).append(a.get("value", default))
        elif tag == "select":
            self.select = a["name"]
            self.first = None
        elif tag == "option" and self.select:
            value = a.get("value", "")
            if self.first is None:
                self.first = value
            if "selected" in a:
                self.data[self.select] = [value]
        elif tag == "textarea":
            self.textarea = a["name"]
            self.data[self.textarea] = [""]

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        if tag == "select" and self.select:
            self.data.setdefault(self.select, [self.first or ""])
            self.select = None
        if tag == "textarea":
            self.textarea = None

    def handle_data(self, data):
        if self.textarea:
            self.data[self.textarea][0] += (
                data.removeprefix("\n") if not self.data[self.textarea][0] else data
            )


def fields_of(response) -> dict[str, list[str]]:
    parser = Fields()
    parser.feed(response.content.decode())
    return parser.data


def beside(response, field_id: str) -> str:
    """The messages beside a field: its error list (Django's id: <field id>_error)."""
    html = response.content.decode()
    match = re.search(rf'<ul class="errorlist" id="{field_id}_error">(.*?)</ul>', html, re.S)
    return html_text.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


@pytest.fixture
def design(gm):
    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(slug="my-mudge", name="My Mudge")
    return services.designed_ruleset_save(owner=gm, file=file).ruleset


def along(*labels: str) -> str:
    """Where a problem is, as the designer names it: a section's title, a row, a field."""
    return SEPARATOR.join(labels)


def url(design, section):
    return reverse("ruleset_design_section", args=[design.pk, section])


def page(client, design, section):
    response = client.get(url(design, section))
    assert response.status_code == 200
    return fields_of(response)


def words(response) -> str:
    parser = Text()
    parser.feed(response.content.decode())
    return re.sub(r" ([:.,])", r"\1", " ".join(" ".join(parser.parts).split()))


@pytest.mark.parametrize("section", list(SECTIONS))
def test_each_section_is_fields_explained_in_plain_words(gm, design, section):
    response = client_for(gm).get(url(design, section))
    assert response.status_code == 200
    text = words(response)
    assert SECTIONS[section].title in text and SECTIONS[section].intro in text
    # No field of the section takes the name of the form's own (what changed, the version).
    assert SECTIONS[section].base_fields["note"].label == "What changed"
    assert isinstance(SECTIONS[section].base_fields["based_on"].widget, HiddenInput)
    assert not CODE.findall(text), CODE.findall(text)[:5]
    # Every field the GM types in has a label.
    html = response.content.decode()
    visible = r'<(?:input(?! type="hidden")|select|textarea)[^>]*\bid="([^"]+)"'
    for field_id in re.findall(visible, html):
        assert f'for="{field_id}"' in html, field_id


def test_the_budgets_are_titled_as_the_house_rules_title_them(gm, design):
    # Both groups once read "What a new character gets", one of them "(not used in this system)".
    html = client_for(gm).get(url(design, "numbers")).content.decode()
    shown = re.findall(r"<legend>(.*?)</legend>", html)
    folded = re.findall(r"<summary>(.*?) <small>", html)
    assert (shown[0], folded) == ("Budgets", ["Tokens"])
    titles = [str(title) for title, _system, _fields in HOUSE_RULE_SECTIONS]
    assert titles[:2] == ["Budgets", "Tokens"]


def test_the_game_page_and_my_games_read_in_plain_words(gm, design):
    client = client_for(gm)
    for address in (reverse("ruleset_design", args=[design.pk]), reverse("ruleset_designs")):
        response = client.get(address)
        assert response.status_code == 200
        assert not CODE.findall(words(response)), CODE.findall(words(response))[:5]
    overview = words(client.get(reverse("ruleset_design", args=[design.pk])))
    for section in SECTIONS.values():  # each section named, explained and linked
        assert f"{section.title} {section.intro}" in overview


# section -> (what the GM changes, [(the field's id, what is said beside it)])
NONSENSE = {
    "game": ({"name": ""}, [("id_name", "Must not be empty")]),
    "ladder": (
        {"words-5-word": "Fair", "creation_max": "4"},
        [
            ("id_words-5-word", "'Fair' appears twice"),
            ("id_creation_max", "Must be below Legendary"),
        ],
    ),
    "numbers": (
        {"skill_levels": "-1", "free_gifts": "-1", "attribute_cap_7": "-2"},
        [
            ("id_skill_levels", "Cannot be negative (-1)"),
            ("id_free_gifts", "Must be at least zero (-1)"),
            ("id_attribute_cap_7", "Cannot be negative (-2)"),
        ],
    ),
    "attributes": (
        {"names-1-name": "", "cost": "0", "damage_capacity_attribute": "Brawn"},
        [
            ("id_names-1-name", "Must not be empty"),
            ("id_cost", "Must be from 1 to 100, not 0"),
            ("id_damage_capacity_attribute", "'Brawn' is not one of the ruleset's attributes"),
        ],
    ),
    "skills": (
        {"hard_cost": "1", "named-TOTAL_FORMS": "1", "named-0-skill": "Science"},
        [
            (
                "id_hard_cost",
                "The cost table must increase with difficulty: hard costs 1, no more than "
                "average (2)",
            ),
            ("id_named-0-level", "not a level"),
        ],
    ),
    "powers": (
        {"spell_used": None, "power_levels": "6, 5"},
        [
            ("id_spell_gift", "'spell' is not one of the game's kinds of power"),
            ("id_power_levels", "Must increase"),
        ],
    ),
    "terms": ({"attributes_title": ""}, [("id_attributes_title", "Must not be empty")]),
    "harm": (
        {"track-0-boxes": "0", "grazes-0-wound": "Bruised", "track_title": ""},
        [
            ("id_track-0-boxes", "Must be from 1 to 20, not 0"),
            ("id_grazes-0-wound", "'Bruised' is not a row of the track"),
            ("id_track_title", "Must not be empty"),
        ],
    ),
    "advancement": (
        {"step_6": "3", "unit": ""},
        [
            ("id_step_6", "must not fall as the level rises: 3 is less than 4 at Good"),
            ("id_unit", "Must not be empty"),
        ],
    ),
    "skill-list": (
        {"skills-1-name": "Acrobatics"},
        [("id_skills-1-name", "'Acrobatics' appears twice")],
    ),
    "gift-list": ({"gifts-0-cost": "-1"}, [("id_gifts-0-cost", "Must be from 0")]),
    "fault-list": ({"faults-2-name": " "}, [("id_faults-2-name", "Must not be empty")]),
    "equipment": ({"equipment-0-damage": "99"}, [("id_equipment-0-damage", "from -20 to 20")]),
    "power-list": ({"powers-0-name": ""}, [("id_powers-0-name", "Must not be empty")]),
    "templates": (
        {"templates-0-minimum_attributes": "Strength: Goood", "templates-1-kind": "race"},
        [("id_templates-0-minimum_attributes", "Strength: 'Goood' is not a level")],
    ),
    "sources": ({"topic_creation": ""}, [("id_topic_creation", "Is required")]),
}


@pytest.mark.parametrize("section", list(NONSENSE))
def test_nonsense_in_any_section_is_refused_beside_each_field_and_saves_nothing(
    gm, design, section
):
    client = client_for(gm)
    data = page(client, design, section)
    changes, expected = NONSENSE[section]
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = [value]
    response = client.post(url(design, section), {**data, "save": "1"})
    assert response.status_code == 400
    for field_id, message in expected:
        assert message in beside(response, field_id), (field_id, beside(response, field_id))
    # All at once: the form says how many, and the page has every one.
    alert = re.search(r'role="alert"><p>Not saved: (\d+) problem', response.content.decode())
    assert alert and int(alert.group(1)) >= len(expected)
    assert not CODE.findall(words(response))
    assert design.versions.count() == 1


def test_the_issue_nonsense_at_once(gm, design):
    """Two Fairs, a cost table that does not increase, a budget of -1 and a nameless
    attribute: each section's own, each refused beside its field in one post each."""
    client = client_for(gm)
    ladder = page(client, design, "ladder")
    ladder["words-5-word"] = ["Fair"]
    response = client.post(url(design, "ladder"), {**ladder, "save": "1"})
    assert "'Fair' appears twice" in beside(response, "id_words-5-word")
    assert "exactly once" in response.content.decode()  # the Fair choice, above the rows
    assert design.versions.count() == 1


def test_a_row_that_is_not_a_value_yet_leaves_the_others_checked(gm, design):
    client = client_for(gm)
    data = page(client, design, "harm")
    data.update({"track-0-boxes": ["three"], "track-1-boxes": ["0"]})
    response = client.post(url(design, "harm"), {**data, "save": "1"})
    assert response.status_code == 400
    assert "Enter a whole number." in beside(response, "id_track-0-boxes")
    assert "Must be from 1 to 20, not 0." in beside(response, "id_track-1-boxes")


def test_a_good_post_saves_a_new_version(gm, design):
    client = client_for(gm)
    data = page(client, design, "numbers")
    data.update(skill_levels=["50"], max_skills=["12"], attribute_cap_7=[""], note=["longer"])
    response = client.post(url(design, "numbers"), {**data, "save": "1"})
    assert response.status_code == 302 and response["Location"] == url(design, "numbers")
    latest = design.latest
    assert (latest.number, latest.note) == (2, "longer")
    assert latest.file["numbers"]["skill_levels"] == 50
    assert latest.file["numbers"]["max_skills"] == 12
    assert latest.file["numbers"]["attribute_caps"] == {"Great": 2}  # Superb's cap lifted
    # Everything else as it was.
    before = design.versions.get(number=1).file
    assert {k: v for k, v in latest.file.items() if k != "numbers"} == {
        k: v for k, v in before.items() if k != "numbers"
    }
    # The same post again changes nothing and makes no version.
    data = page(client, design, "numbers")
    response = client.post(url(design, "numbers"), {**data, "save": "1"}, follow=True)
    assert "Nothing changed: still version 2." in response.content.decode()
    assert design.versions.count() == 2


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_every_section_saves_back_what_it_shows(gm, design, language):
    """Posting each page as it is shown gives the file it came from: no field is lost, and
    the built-in words a page shows in the GM's language stay the English the file holds
    (designer.words), which each player reads in theirs."""
    client = client_for(gm)
    for section in SECTIONS:
        shown = client.get(url(design, section), HTTP_ACCEPT_LANGUAGE=language)
        data = {**fields_of(shown), "save": "1"}
        response = client.post(url(design, section), data, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 302, (section, response.content.decode()[:3000])
    assert design.versions.count() == 1


def test_rows_are_added_and_removed_without_scripts(gm, design):
    client = client_for(gm)
    data = page(client, design, "ladder")
    assert data["fair"] == ["4"]
    # A word below the bottom: Fair moves up a row with its word.
    response = client.post(url(design, "ladder"), {**data, "add": "words:bottom"})
    assert response.status_code == 200
    data = fields_of(response)
    assert data["words-TOTAL_FORMS"] == ["10"] and data["fair"] == ["5"]
    assert data["words-0-word"] == [""] and data["words-1-word"] == ["Abysmal"]
    assert re.search(r'<input [^>]*name="words-0-word"[^>]*autofocus', response.content.decode())
    data["words-0-word"] = ["Dreadful"]
    response = client.post(url(design, "ladder"), {**data, "add": "words"})
    data = fields_of(response)
    data["words-10-word"] = ["Mythic"]
    # Removed: Legendary; every later row moves up.
    response = client.post(url(design, "ladder"), {**data, "remove": "words:9"})
    data = fields_of(response)
    assert [data[f"words-{i}-word"][0] for i in range(int(data["words-TOTAL_FORMS"][0]))] == [
        "Dreadful",
        "Abysmal",
        "Terrible",
        "Poor",
        "Mediocre",
        "Fair",
        "Good",
        "Great",
        "Superb",
        "Mythic",
    ]
    assert design.versions.count() == 1  # nothing saved yet
    response = client.post(url(design, "ladder"), {**data, "save": "1"})
    assert response.status_code == 302
    assert design.latest.file["ladder"]["words"][0] == "Dreadful"
    # A ladder of 10 words with Fair the sixth: Superb keeps its place and its caps.
    assert design.latest.file["numbers"]["attribute_caps"] == {"Superb": 1, "Great": 2}


def test_a_renamed_word_is_renamed_everywhere(gm, design):
    client = client_for(gm)
    data = page(client, design, "ladder")
    data["words-4-word"] = ["Fine"]
    assert client.post(url(design, "ladder"), {**data, "save": "1"}).status_code == 302
    file = design.latest.file
    assert file["ladder"]["fair"] == "Fine"
    assert file["attributes"]["default"] == "Fine"
    assert file["advancement"]["skill_steps"]["Fine"] == 2
    assert file["templates"][0]["minimum_attributes"]["Intelligence"] == "Fine"
    # The other pages now offer the new word.
    attributes = client.get(url(design, "attributes")).content.decode()
    assert '<option value="Fine" selected>Fine</option>' in attributes


def test_a_problem_in_another_section_is_named_by_its_title_and_label(gm, design):
    """Mudge's powers cost nothing from Abysmal: a ladder without Abysmal leaves that level
    without a word, and the ladder's page says where."""
    client = client_for(gm)
    data = page(client, design, "ladder")
    response = client.post(url(design, "ladder"), {**data, "remove": "words:0"})
    data = fields_of(response)
    response = client.post(url(design, "ladder"), {**data, "save": "1"})
    assert response.status_code == 400
    text = words(response)
    assert along("Powers", "Power default: 'Abysmal' is not a level") in text
    assert f'<a href="{url(design, "powers")}"><strong>Powers' in response.content.decode()
    assert design.versions.count() == 1


def test_the_live_preview_prices_the_sample_or_lists_every_problem(gm, design):
    client = client_for(gm)
    data = page(client, design, "numbers")
    data["skill_levels"] = ["60"]
    response = client.post(url(design, "numbers"), {**data, "preview": "1"}, headers=HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="preview"')
    assert "Sample character" in html
    data["skill_levels"] = ["-1"]
    data["min_faults"] = ["-2"]
    response = client.post(url(design, "numbers"), {**data, "preview": "1"}, headers=HTMX)
    text = words(response)
    assert "2 problems: nothing is saved" in text
    assert "Free skill levels: Cannot be negative (-1)." in text
    assert "Faults, at least: Cannot be negative (-2)." in text
    assert design.versions.count() == 1


def test_a_save_from_an_older_page_is_refused_once(gm, design):
    client = client_for(gm)
    data = page(client, design, "numbers")
    newer = page(client, design, "game")
    newer["description"] = ["Mine."]
    assert client.post(url(design, "game"), {**newer, "save": "1"}).status_code == 302
    data["skill_levels"] = ["40"]
    response = client.post(url(design, "numbers"), {**data, "save": "1"})
    assert response.status_code == 400
    assert "Version 2 was saved after you opened this page" in response.content.decode()
    again = fields_of(response)
    assert again["skill_levels"] == ["40"] and again["based_on"] == ["2"]
    assert client.post(url(design, "numbers"), {**again, "save": "1"}).status_code == 302
    assert design.latest.file["numbers"]["skill_levels"] == 40
    assert design.latest.file["description"] == "Mine."


def test_changing_the_system_prices_skills_to_fit(gm, design):
    client = client_for(gm)
    data = page(client, design, "game")
    data["system"] = ["tokens"]
    assert client.post(url(design, "game"), {**data, "save": "1"}).status_code == 302
    assert design.latest.file["skills"]["pricing"] == "per_rank"


def test_nobody_else_sees_or_changes_a_design(outsider, design):
    client = client_for(outsider)
    assert client.get(url(design, "ladder")).status_code == 404
    assert client.post(url(design, "ladder"), {"save": "1"}).status_code == 404
    assert client_for(design.owner).get(url(design, "nothing")).status_code == 404


def test_a_malformed_post_is_refused_not_a_server_error(gm, design):
    client = client_for(gm)
    response = client.post(url(design, "ladder"), {"save": "1", "fair": "x"})
    assert response.status_code == 400
    response = client.post(url(design, "harm"), {"add": "nothing", "track-TOTAL_FORMS": "x"})
    assert response.status_code == 200
    assert DesignedRuleset.objects.get().versions.count() == 1


def test_import_names_where_each_problem_is_in_plain_words(gm):
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = ruleset_to_json(BUILTIN["mudge"])
    bad.update(slug="bad")
    bad["harm"]["track"][1]["boxes"] = 0
    upload = SimpleUploadedFile("bad.json", __import__("json").dumps(bad).encode())
    response = client_for(gm).post(reverse("ruleset_designs"), {"action": "import", "file": upload})
    assert response.status_code == 400
    assert along("Wound track", "Row 2", "Boxes: must be from 1 to 20, not 0") in words(response)


def test_describe_names_a_path_as_the_designer_labels_it():
    difficulty = describe("skills.difficulties.very_hard.cost_at_fair")
    assert difficulty == along("Skills", "Very hard: cost at Fair")
    assert describe("attributes.opened_by_gifts.Magery") == along("Attributes", "Gift Magery")
    assert describe("templates[2].minimum_skills.Bow") == (
        along("Templates", "Template 3", "Least skills", "Bow")
    )
    assert describe("harm.martial_arts[2]") == along("Wound track", "Martial arts", "Line 3")
