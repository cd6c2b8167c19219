"""The builder: every edit a small POST that re-prices the build, with and without htmx."""

import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from characters.kept import KeptUnderRules
from characters.models import Character, CharacterEvent, ReviewComment, Trait
from characters.services.sharing import share_link_create
from characters.services.threads import comment_thread_start
from rules.ladder import FAIR, GOOD, GREAT, SUPERB
from rules.report import build_report
from tests.support.builder_fixtures import *  # noqa: F403

# A form's CSRF token, as a page or an answer draws it.
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

HTMX = {"HTTP_HX_REQUEST": "true"}
# A fresh Mudge character: 6 attribute levels x 3 + 45 skill levels + 2 gifts x 6 (1.6, 1.64).
FRESH_MUDGE_BALANCE = 6 * 3 + 45 + 2 * 6
# A level change: the session with its user (one statement, characters/sessions.py), the
# character with its traits (its equipment and ledger, which a new draft has none of, are
# known empty from the character's own query, as is whether its undo history has steps to
# end), and in the transaction (a savepoint under the test) the claim of the character's
# row, which moves its version and the audit trail's head if neither moved since the read
# (services.audit.commit_claimed_change; the trail is a chain, characters.audit_chain), the
# trait, the undo history's new step (services.history, also what Undo offers) and the
# event.
EDIT_QUERIES = 9
# The builder page of a draft in a campaign: the session with its user, the character with
# its campaign, GM, owner and portrait and whether it has rows in its lists, review comments,
# a live share link and threads (none of the last three yet: not read), its traits, the
# header's unread notifications and the undo history's steps.
PAGE_QUERIES = 5


def attribute(character, name):
    return character.traits.get(kind=Trait.Kind.ATTRIBUTE, name=name)


def post_trait(client, character, trait, **changes):
    data = {"version": character.version, "name": trait.name, "level": trait.level, **changes}
    return client.post(reverse("trait_update", args=[character.pk, trait.pk]), data, **HTMX)


def test_new_mudge_character_has_the_seven_attributes_at_fair(character):
    names = list(character.traits.filter(kind=Trait.Kind.ATTRIBUTE).values_list("name", "level"))
    assert names == [
        ("Strength", 0),
        ("Dexterity", 0),
        ("Constitution", 0),
        ("Speed", 0),
        ("Intelligence", 0),
        ("Willpower", 0),
        ("Perception", 0),
    ]
    assert character.events.get().action == "character_created"


def test_builder_page_shows_the_budget(player_client, character):
    response = player_client.get(reverse("character_builder", args=[character.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"{FRESH_MUDGE_BALANCE} skill levels" in body
    assert body.count('class="trait-row"') == 7


def test_each_add_form_posts_to_its_own_list_as_a_form_and_with_htmx(player_client, character):
    """Every list's add row posts where the list's rows are added, with and without htmx, on
    the page and in an edit's answer that empties the add row for the next one; each
    picker loads its list from the page, with htmx and by a plain link."""
    builder = reverse("character_builder", args=[character.pk])
    body = player_client.get(builder).content.decode()
    lists = [(kind, reverse("trait_add", args=[character.pk, kind])) for kind in Trait.Kind]
    lists.append(("equipment", reverse("equipment_add", args=[character.pk])))
    for kind, url in lists:
        assert re.search(
            rf'<form id="add-{kind}" class="add-row" method="post"\s+action="{url}"\s+'
            rf'hx-post="{url}"',
            body,
        ), kind
        if f'id="picker-{kind}"' in body:
            assert f'hx-get="{builder}?picker={kind}"' in body, kind
            assert f'href="{builder}?picker={kind}#picker-{kind}"' in body, kind
    assert body.count('hx-get="/characters/') >= 3  # the lists with a catalogue: one each
    character.refresh_from_db()
    skill = reverse("trait_add", args=[character.pk, "skill"])
    answer = player_client.post(
        skill, {"version": character.version, "name": "Climbing", "level": 1}, **HTMX
    ).content.decode()
    assert re.search(
        rf'<form id="add-skill" class="add-row" method="post"\s+action="{skill}"', answer
    )


def test_raising_an_attribute_reprices_and_swaps_the_panel_out_of_band(player_client, character):
    strength = attribute(character, "Strength")
    response = post_trait(player_client, character, strength, level=GOOD)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="trait-{strength.pk}"' in body
    assert 'id="budget-panel"' in body and 'hx-swap-oob="true"' in body
    # Mudge 1.61: Good costs 1 attribute level, worth 3 skill levels (1.64).
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in body
    assert json.loads(response["HX-Trigger"]) == {"versionChanged": {"value": 2}}
    strength.refresh_from_db()
    assert strength.level == GOOD
    event = CharacterEvent.objects.filter(action="trait_relevelled").get()
    assert (event.before["level"], event.after["level"], event.target) == (
        "Fair",
        "Good",
        "attribute:Strength",
    )


def test_renaming_swaps_the_heading_and_the_title(player_client, character):
    """The name shows in the page's heading and title as well as its box: a rename sends
    both, escaped, or the page names the character as it was."""
    url = reverse("details_update", args=[character.pk])
    details = {"version": character.version, "scale_strength": 0, "scale_mass": 0}
    details |= {"name": "Brogo <b>the Bold</b>", "concept": "Halfling scout"}
    response = player_client.post(url, details, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<title>Brogo &lt;b&gt;the Bold&lt;/b&gt; · Fairsheet</title>" in body
    assert '<div id="identity" hx-swap-oob="true">' in body
    assert "<h1><bdi>Brogo &lt;b&gt;the Bold&lt;/b&gt;</bdi></h1>" in body
    assert '<p class="concept">Halfling scout</p>' in body


def test_the_player_printed_on_the_sheet_is_set_in_the_details(player_client, character):
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert f'name="player" value="{character.owner.username}"' in page  # to start with
    url = reverse("details_update", args=[character.pk])
    details = {"version": character.version, "name": character.name, "player": "Ana Sousa"}
    response = player_client.post(url, details | {"scale_strength": 0, "scale_mass": 0})
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.player == "Ana Sousa"
    sheet = player_client.get(reverse("character_sheet", args=[character.pk]))
    assert "Ana Sousa" in sheet.content.decode()


def test_without_javascript_the_same_form_posts_and_redirects(player_client, character):
    strength = attribute(character, "Strength")
    response = player_client.post(
        reverse("trait_update", args=[character.pk, strength.pk]),
        {"version": 1, "name": "Strength", "level": GOOD},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"#trait-{strength.pk}")
    page = player_client.get(response["Location"]).content.decode()
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in page


def test_a_stale_write_from_a_second_tab_is_refused_and_changes_nothing(player_client, character):
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    assert post_trait(player_client, character, strength, level=GOOD).status_code == 200
    # The second tab still holds version 1.
    response = post_trait(player_client, character, dexterity, level=GOOD)
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#alerts"
    assert "changed in another tab" in response.content.decode()
    dexterity.refresh_from_db()
    character.refresh_from_db()
    assert (dexterity.level, character.version) == (0, 2)


def test_two_superb_attributes_break_the_cap_with_a_message(player_client, character):
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    post_trait(player_client, character, strength, level=SUPERB)
    character.refresh_from_db()
    body = post_trait(player_client, character, dexterity, level=SUPERB).content.decode()
    assert "Only 1 attribute may be Superb; 2 are (Strength, Dexterity)" in body
    assert "Mudge 1.6" in body


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"level": "99"}, "Select a valid choice"),
        ({"name": "x" * 10_000}, "at most 100 characters"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_bad_input_gets_a_message_and_a_400_and_changes_nothing(
    player_client, character, changes, message
):
    strength = attribute(character, "Strength")
    response = post_trait(player_client, character, strength, **changes)
    assert response.status_code == 400
    assert message in response.content.decode()
    strength.refresh_from_db()
    assert (strength.name, strength.level) == ("Strength", 0)
    assert not CharacterEvent.objects.filter(action__startswith="trait_").exists()


def test_a_negative_gift_cost_is_refused(player_client, character):
    url = reverse("trait_add", args=[character.pk, "gift"])
    response = player_client.post(url, {"version": 1, "name": "Luck", "cost": "-2"}, **HTMX)
    assert response.status_code == 400
    assert "greater than or equal to 0" in response.content.decode()
    assert not character.traits.filter(kind=Trait.Kind.GIFT).exists()


def test_gift_and_fault_costs_show_as_written(player_client, character):
    """A cost of 1 shows as "1" and a half as "0.5", not as the column's "1.00" (issue 12)."""
    Trait.objects.create(
        character=character, kind=Trait.Kind.GIFT, name="Lucky", cost=1, position=0
    )
    Trait.objects.create(
        character=character, kind=Trait.Kind.FAULT, name="Shy", cost="0.5", position=0
    )
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    costs = re.findall(r'name="cost"[^>]*value="([^"]*)"', page)
    assert costs == ["1", "0.5"]
    # Read out, a half is written as the rule texts write it.
    assert '<output class="row-cost" title="What this costs at creation">½ fault</output>' in page
    sheet = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "<bdi>Shy</bdi> (worth ½)" in sheet  # a fault by its worth, not a cost


def test_adding_a_catalogue_skill_takes_its_difficulty(player_client, character):
    url = reverse("trait_add", args=[character.pk, "skill"])
    response = player_client.post(url, {"version": 1, "name": "Acrobatics", "level": 0}, **HTMX)
    assert response.status_code == 200
    skill = character.traits.get(kind=Trait.Kind.SKILL)
    assert (skill.name, skill.difficulty) == ("Acrobatics", "hard")
    body = response.content.decode()
    # Mudge 1.62: a Hard skill at Fair costs 3 skill levels.
    assert "3 skill levels" in body
    assert 'hx-swap-oob="beforeend:#rows-skill"' in body
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in body


def test_a_second_trait_of_the_same_name_is_refused(player_client, character):
    url = reverse("trait_add", args=[character.pk, "attribute"])
    response = player_client.post(url, {"version": 1, "name": "strength", "level": 0}, **HTMX)
    assert response.status_code == 400
    assert "Brogo already has the attribute strength" in response.content.decode()
    assert character.traits.filter(kind=Trait.Kind.ATTRIBUTE).count() == 7


def test_someone_elses_character_is_not_found(client, outsider, character):
    client.force_login(outsider)
    strength = attribute(character, "Strength")
    assert client.get(reverse("character_builder", args=[character.pk])).status_code == 404
    response = post_trait(client, character, strength, level=SUPERB)
    assert response.status_code == 404
    strength.refresh_from_db()
    assert strength.level == 0


def test_the_gm_sees_but_cannot_edit_a_players_character(client, gm, character):
    client.force_login(gm)
    page = client.get(reverse("character_builder", args=[character.pk]))
    assert page.status_code == 200
    assert "viewing <bdi>player</bdi>" in page.content.decode()
    strength = attribute(character, "Strength")
    assert post_trait(client, character, strength, level=GOOD).status_code == 404


def test_removing_a_trait(player_client, character):
    strength = attribute(character, "Strength")
    url = reverse("trait_delete", args=[character.pk, strength.pk])
    response = player_client.post(url, {"version": 1}, **HTMX)
    assert response.status_code == 200
    assert not character.traits.filter(pk=strength.pk).exists()
    assert CharacterEvent.objects.filter(action="trait_removed").get().before == {
        "name": "Strength",
        "level": "Fair",
    }


def test_applying_the_ranger_template_raises_minimums(player_client, character):
    url = reverse("template_apply", args=[character.pk])
    response = player_client.post(url, {"version": 1, "template": "ranger"})
    assert response.status_code == 302
    levels = dict(character.traits.values_list("name", "level"))
    # Mudge 6.41: Dexterity, Perception, Strength Good or better; Bow Good; Survival Good.
    assert levels["Dexterity"] == levels["Perception"] == levels["Strength"] == GOOD
    assert levels["Bow"] == levels["Survival"] == GOOD
    page = player_client.get(response["Location"]).content.decode()
    assert "Every minimum is met." in page


def test_builder_query_count_does_not_grow_with_traits(
    player_client, character, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("character_builder", args=[character.pk])
    player_client.get(url)  # the process keeps the campaign's catalogue from the first view
    with CaptureQueriesContext(connection) as few:
        assert player_client.get(url).status_code == 200
    Trait.objects.bulk_create(
        Trait(
            character=character,
            kind=Trait.Kind.SKILL,
            name=f"Skill {i}",
            level=0,
            difficulty="average",
            position=i,
        )
        for i in range(53)
    )
    with django_assert_max_num_queries(len(few)) as many:
        assert player_client.get(url).status_code == 200
    assert len(many) == len(few) == PAGE_QUERIES


# What a draft seldom has, each made as its writer makes it, and what the page then shows of
# it: read only once there is some (selectors.access.SHOWN_IF_ANY), one statement each.
SELDOM_HAD = {
    "review comment": lambda character, gm: (
        ReviewComment.objects.create(
            character=character,
            author=gm,
            body="Lower Climbing, please.",
            version=character.version,
        ).body
    ),
    "share link": lambda character, gm: (
        share_link_create(character=character, actor=character.owner).token
    ),
    "thread": lambda character, gm: (
        comment_thread_start(character=character, actor=gm, body="Who taught Brogo to climb?")
        .messages.get()
        .body
    ),
}


@pytest.mark.parametrize("kind", SELDOM_HAD)
def test_what_a_draft_seldom_has_is_read_once_it_has_some(
    kind, player_client, character, gm, django_assert_num_queries
):
    url = reverse("character_builder", args=[character.pk])
    player_client.get(url)
    shown = SELDOM_HAD[kind](character, gm)
    with django_assert_num_queries(PAGE_QUERIES + 1):
        html = player_client.get(url).content.decode()
    assert shown in html


# -- undo and redo: the builder's history, each step a new recorded change (issues 12, 24) -----
# (tests/app/test_undo_history.py takes twenty edits of every kind back and forth)


def undo(player_client, character, name="undo"):
    character.refresh_from_db()
    url = reverse(f"edit_{name}", args=[character.pk])
    return player_client.post(url, {"version": character.version}, follow=True)


def test_undo_takes_back_the_last_relevel_and_redo_puts_it_back(player_client, character):
    strength = character.traits.get(name="Strength")
    url = reverse("trait_update", args=[character.pk, strength.pk])
    data = {"version": character.version, "name": "Strength", "level": GOOD}
    swapped = player_client.post(url, data, **HTMX).content.decode()
    # The buttons are swapped in out of band, naming the edit just made.
    box = swapped[swapped.index('<div id="undo-edit" class="undo-redo" hx-swap-oob="true">') :]
    assert "Undo: Strength Fair → Good</button>" in box[: box.index("</div>")]
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Undo: Strength Fair → Good</button>" in page
    response = undo(player_client, character)
    assert "Undone: Strength Fair → Good." in response.content.decode()
    strength.refresh_from_db()
    assert strength.level == 0  # Fair again
    assert "Redo: Strength Fair → Good</button>" in response.content.decode()
    assert "Undo: " not in response.content.decode()  # nothing before it
    response = undo(player_client, character, "redo")
    assert "Redone: Strength Fair → Good." in response.content.decode()
    strength.refresh_from_db()
    assert strength.level == GOOD
    events = list(character.events.order_by("-id").values_list("action", "reason")[:3])
    assert events == [
        ("edit_redone", "redo Strength Fair → Good"),
        ("edit_undone", "undo Strength Fair → Good"),
        ("trait_relevelled", ""),
    ]


def test_undo_brings_a_removed_gift_back_with_its_cost(player_client, character):
    add = reverse("trait_add", args=[character.pk, "gift"])
    player_client.post(add, {"version": 1, "name": "Lucky", "cost": "2"})
    lucky = character.traits.get(name="Lucky")
    character.refresh_from_db()
    remove = reverse("trait_delete", args=[character.pk, lucky.pk])
    player_client.post(remove, {"version": character.version})
    assert not character.traits.filter(name="Lucky").exists()
    assert "Undone: removing Lucky." in undo(player_client, character).content.decode()
    assert character.traits.get(name="Lucky").cost == 2
    # And an added trait goes again.
    assert "Undone: adding Lucky." in undo(player_client, character).content.decode()
    assert not character.traits.filter(name="Lucky").exists()


def test_undo_refuses_once_something_outside_the_builder_changed(player_client, character):
    """The history holds while only the builder's edits changed the character: a submission
    (or anything else that moves its version) ends it."""
    strength = character.traits.get(name="Strength")
    url = reverse("trait_update", args=[character.pk, strength.pk])
    player_client.post(url, {"version": character.version, "name": "Strength", "level": GOOD})
    character.refresh_from_db()
    from characters.services.review import character_submit, character_withdraw

    character_submit(character=character, actor=character.owner, expected_version=None)
    character_withdraw(character=character, actor=character.owner, expected_version=None)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Undo: " not in page
    character.refresh_from_db()
    response = player_client.post(
        reverse("edit_undo", args=[character.pk]), {"version": character.version}
    )
    assert response.status_code == 400
    assert "There is nothing to undo" in response.content.decode()
    strength.refresh_from_db()
    assert strength.level == GOOD


def test_a_row_carries_its_catalogue_note(player_client, player, character, gm):
    """Mudge 1.32 lists Artist as "type: painter, sculptor, etc." (a character outside a
    campaign builds from the ruleset's catalogue); a campaign's entry carries its GM's note.
    The note shows while the row is being edited (builder.css)."""
    from characters.services.campaigns import catalog_entry_add
    from characters.services.characters import character_create

    def add_skill(hero, name):
        hero.refresh_from_db()
        url = reverse("trait_add", args=[hero.pk, "skill"])
        player_client.post(url, {"version": hero.version, "name": name, "level": 0})

    def row_of(hero, name):
        page = player_client.get(reverse("character_builder", args=[hero.pk])).content.decode()
        start = page.index(f'value="{name}"')
        return page[start : page.index("</form>", start)]

    solo = character_create(owner=player, name="Solo", ruleset="mudge")
    add_skill(solo, "Artist")
    assert '<p class="row-note"><small>Catalogue: type: painter, sculptor, etc.</small></p>' in (
        row_of(solo, "Artist")
    )
    assert "row-note" not in row_of(solo, "Strength")
    catalog_entry_add(
        campaign=character.campaign,
        actor=gm,
        kind="skill",
        name="Lore: Old Roads",
        difficulty="hard",
        note="Waystones of the old kingdom",
    )
    add_skill(character, "Lore: Old Roads")
    assert "Catalogue: Waystones of the old kingdom" in row_of(character, "Lore: Old Roads")


def test_a_changed_catalogue_is_read_again_by_the_next_edit(player_client, character, gm):
    """The process keeps a campaign's catalogue between requests (characters.adapters); the
    GM's change to it moves its version, so the very next page prices and notes by it."""
    from characters.services.campaigns import catalog_entry_update

    def magery_costs():
        character.refresh_from_db()
        url = reverse("trait_add", args=[character.pk, "gift"])
        added = player_client.post(url, {"version": character.version, "name": "Magery"}, **HTMX)
        assert added.status_code == 200
        return re.search(r'class="row-cost"[^>]*>([^<]+)<', added.content.decode()).group(1)

    assert magery_costs() == "2 gifts"
    character.traits.filter(name="Magery").delete()
    entry = character.campaign.catalog.get(name="Magery")
    catalog_entry_update(entry=entry, actor=gm, name="Magery", cost=3, note="Rare in the Watch")
    assert magery_costs() == "3 gifts"
    row = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Catalogue: Rare in the Watch" in row


def test_an_edit_sends_the_marks_of_only_the_rows_it_changed(player_client, character):
    """Mudge 1.6: one attribute may be Superb. The second Superb row is marked; taking the
    first back down clears that mark on the other row, out of band. An edit that changes no
    mark sends none."""
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    post_trait(player_client, character, strength, level=SUPERB)
    character.refresh_from_db()
    broke = post_trait(player_client, character, dexterity, level=SUPERB).content.decode()
    assert 'data-code="cap_exceeded"' in broke
    character.refresh_from_db()
    perception = attribute(character, "Perception")
    quiet = post_trait(player_client, character, perception, level=GOOD).content.decode()
    assert "issues-trait-" not in quiet.replace(f'id="issues-trait-{perception.pk}"', "")
    assert 'id="review-verdict"' not in quiet  # still the same rules broken
    character.refresh_from_db()
    mended = post_trait(player_client, character, strength, level=GOOD).content.decode()
    swapped = f'<div id="issues-trait-{dexterity.pk}" class="row-issues" hx-swap-oob="true"></div>'
    assert swapped in mended
    assert 'id="review-verdict"' in mended


@pytest.mark.parametrize("drawn_before", [True, False], ids=["page drawn", "drawn elsewhere"])
def test_an_edit_prices_the_build_once_after_the_page_it_answers(
    drawn_before, player_client, character, monkeypatch
):
    """The verdict the page drew is the one the edit compares against: the edit prices the
    build after it only. Where this process did not draw it (another worker drew the page),
    the edit prices the build as it was too, and the answer is the same."""
    from characters.pages import builder as page

    url = reverse("character_builder", args=[character.pk])
    strength = attribute(character, "Strength")
    player_client.get(url)
    if not drawn_before:
        monkeypatch.setattr(page, "_DRAWN_VERDICTS", KeptUnderRules(limit=512))
    priced = []
    monkeypatch.setattr(page, "build_report", lambda *a: priced.append(a) or build_report(*a))
    raised = post_trait(player_client, character, strength, level=GOOD)
    assert len(priced) == (1 if drawn_before else 2)
    # Mudge 1.61: Good costs 1 attribute level, worth 3 skill levels (1.64).
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in raised.content.decode()


def test_an_edit_on_a_page_drawn_before_the_house_rules_changed_redraws_the_verdict(
    player_client, character, gm
):
    """The page was drawn under Mudge as written; the GM then asks for at least one fault
    (Mudge 1.5). The player's next edit on that page (still open) answers with the budget
    panel under the new rules, and with the review verdict too: it counted no broken rule,
    the panel beside it one. And every row's mark is drawn again, not only the changed
    ones: the page's marks were drawn under the old rules."""
    from characters.services.campaigns import campaign_update_house_rules

    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "The build breaks" not in page
    campaign_update_house_rules(
        campaign=character.campaign, actor=gm, house_rules={"min_faults": 1}
    )
    character.refresh_from_db()
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    answer = post_trait(player_client, character, strength, level=GOOD).content.decode()
    assert "1 rule broken" in answer  # the budget panel
    verdict = re.search(r'<p id="review-verdict"[^>]*>(.*?)</p>', answer, re.S)
    assert verdict and "The build breaks 1 rule" in verdict.group(1)
    assert f'id="issues-trait-{dexterity.pk}"' in answer


def test_a_page_drawn_again_draws_only_the_rows_that_changed(
    player_client, player, character, monkeypatch
):
    """The page keeps each trait row, add form and picker it drew (templatetags.
    kept_drawings): drawn again, it draws no row; after Strength goes to Good, Strength's
    row alone. Every form of the page still carries the page's version and the reader's own
    CSRF token, drawn in at each page and never kept: a second session of the same player
    gets its own in every form, its open picker's too."""
    from django.middleware.csrf import _unmask_cipher_token
    from django.test import Client

    from characters.templatetags import builder_rows, kept_drawings

    monkeypatch.setattr(kept_drawings, "_KEPT", KeptUnderRules(limit=3072))
    drawn = []
    draw = builder_rows.trait_row
    monkeypatch.setattr(
        builder_rows,
        "trait_row",
        lambda context: drawn.append(context["row"].trait.name) or draw(context),
    )
    url = reverse("character_builder", args=[character.pk])

    def page(client, query=""):
        drawn.clear()
        return client.get(url + query).content.decode()

    page(player_client)
    assert sorted(drawn) == sorted(character.traits.values_list("name", flat=True))
    page(player_client)
    assert drawn == []
    post_trait(player_client, character, attribute(character, "Strength"), level=GOOD)
    character.refresh_from_db()
    for client, query in ((player_client, ""), (Client(), ""), (Client(), "?picker=skill")):
        client.force_login(player)
        html = page(client, query)
        assert drawn == (["Strength"] if client is player_client else [])
        rows = re.findall(r'<form id="trait-\d+" class="trait-row".*?</form>', html, re.S)
        assert len(rows) == character.traits.count()
        versions = re.findall(r'name="version" value="(\d+)"', html)
        # A row each, an add form and a picker's each (Mudge: five lists), and Undo.
        assert versions == [str(character.version)] * len(versions)
        assert len(versions) >= len(rows) + 5 + (1 if query else 0)
        tokens = TOKEN.findall(html)
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(token) for token in tokens} == {secret}
        assert len(tokens) >= len(rows) + 5
    strength = next(row for row in rows if 'value="Strength"' in row)
    assert f'<option value="{GOOD}" selected>Good</option>' in strength
    assert 'id="picker-list-skill"' in html  # the open picker's list, drawn for this page


def test_a_broken_rule_names_the_traits_as_the_rows_do(player_client, character):
    """Mudge 1.6: one attribute may be Superb. On a German page the rule that two break
    names them as their rows do, Stärke and Geschicklichkeit, not in the English of the
    file."""
    for name in ("Strength", "Dexterity"):
        character.refresh_from_db()
        post_trait(player_client, character, attribute(character, name), level=SUPERB)
    url = reverse("character_builder", args=[character.pk])
    page = player_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "(Stärke, Geschicklichkeit)" in page
    assert "(Strength, Dexterity)" not in page
    english = player_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "(Strength, Dexterity)" in english


def test_a_trait_edit_makes_a_fixed_number_of_queries(
    player_client, character, django_assert_num_queries
):
    """What a level change costs the database, however many rows the character has: the
    session with its user, the character with its rows, the claimed write (claim, row, step,
    event) on the copies the view read; Undo's label comes from the event just recorded."""
    Trait.objects.bulk_create(
        Trait(character=character, kind="skill", name=f"Skill {i}", level=0, position=i)
        for i in range(53)
    )
    strength = attribute(character, "Strength")
    post_trait(player_client, character, strength, level=GOOD)  # the catalogue, kept
    character.refresh_from_db()
    with django_assert_num_queries(EDIT_QUERIES):
        assert post_trait(player_client, character, strength, level=SUPERB).status_code == 200


def test_a_kind_the_rules_have_no_list_for_is_not_found(player_client, player):
    """MicroFudged DIP has no gifts or faults (its abilities and fields of expertise are the
    lists): adding one is a 404, and nothing is saved."""
    from characters.services.characters import character_create

    hero = character_create(owner=player, name="Jim", ruleset="microfudged-dip")
    url = reverse("trait_add", args=[hero.pk, "gift"])
    response = player_client.post(url, {"version": hero.version, "name": "Lucky"}, **HTMX)
    assert response.status_code == 404
    assert not hero.traits.filter(kind=Trait.Kind.GIFT).exists()


def test_saving_a_row_unchanged_answers_with_the_row_not_a_reload(player_client, character):
    strength = attribute(character, "Strength")
    response = post_trait(player_client, character, strength)
    assert response.status_code == 200
    assert "HX-Refresh" not in response
    assert f'id="trait-{strength.pk}"' in response.content.decode()
    assert json.loads(response["HX-Trigger"]) == {"versionChanged": {"value": 1}}


def test_a_row_added_after_removals_goes_last(player_client, character):
    """Brogo's seven attributes, two removed, one added: it stands last on the page, where
    the htmx answer put it, not between the others after a reload."""
    for name in ("Strength", "Dexterity"):
        character.refresh_from_db()
        url = reverse("trait_delete", args=[character.pk, attribute(character, name).pk])
        assert player_client.post(url, {"version": character.version}).status_code == 302
    character.refresh_from_db()
    url = reverse("trait_add", args=[character.pk, "attribute"])
    player_client.post(url, {"version": character.version, "name": "Luck", "level": 0})
    names = list(character.traits.filter(kind=Trait.Kind.ATTRIBUTE).values_list("name", flat=True))
    assert names[-1] == "Luck"


def test_a_trait_edit_changes_the_callers_copies_only_when_they_are_current(character, player):
    """services.trait_update changes the trait the caller holds when the caller read it at
    the version it locks; a copy read at an older version is left alone and a fresh one
    changed instead, so nothing stale is saved or shown."""
    from characters.selectors.access import character_for_owner
    from characters.services.rows import trait_update

    held = character_for_owner(player, character.pk)
    strength = next(t for t in held.traits.all() if t.name == "Strength")
    saved = trait_update(trait=strength, actor=player, expected_version=1, level=GOOD)
    assert saved is strength and saved.character is held
    assert (held.version, strength.level) == (2, GOOD)

    stale = character_for_owner(player, character.pk)
    dexterity = next(t for t in stale.traits.all() if t.name == "Dexterity")
    trait_update(trait=strength, actor=player, expected_version=2, level=SUPERB)  # moves on
    saved = trait_update(trait=dexterity, actor=player, expected_version=None, level=GOOD)
    assert saved is not dexterity and saved.character is not stale
    assert (stale.version, dexterity.level) == (2, 0)  # the stale copies are untouched
    assert attribute(character, "Dexterity").level == GOOD
    assert attribute(character, "Strength").level == SUPERB


LOCK_READ = (
    'SELECT "characters_character"."version" AS "version", '
    '"characters_character"."audit_head" AS "audit_head" FROM'
)


def test_locking_a_current_copy_reads_only_its_version_and_trail_head(character, player):
    """The builder's edit holds the character read at the page's version: it claims the row
    without reading it (tests/app/test_claimed_edit.py). A write without a page's version
    locks it, and then reads the version and the audit trail's head, not the row with its
    campaign and owner again. A copy read before another write is read whole under the lock."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from characters.selectors.access import character_for_owner
    from characters.services.rows import trait_update

    def character_reads(queries) -> list[str]:
        return [q["sql"] for q in queries if q["sql"].startswith('SELECT "characters_character"')]

    held = character_for_owner(player, character.pk)
    strength = next(t for t in held.traits.all() if t.name == "Strength")
    with CaptureQueriesContext(connection) as claimed:
        trait_update(trait=strength, actor=player, expected_version=1, level=GOOD)
    assert character_reads(claimed.captured_queries) == []
    with CaptureQueriesContext(connection) as current:
        trait_update(trait=strength, actor=player, expected_version=None, level=GREAT)
    [lock] = character_reads(current.captured_queries)
    assert lock.startswith(LOCK_READ)
    assert ("FOR UPDATE" in lock) == connection.features.has_select_for_update

    stale = character_for_owner(player, character.pk)
    trait_update(trait=strength, actor=player, expected_version=3, level=SUPERB)
    dexterity = next(t for t in stale.traits.all() if t.name == "Dexterity")
    with CaptureQueriesContext(connection) as older:
        trait_update(trait=dexterity, actor=player, expected_version=None, level=GOOD)
    number, row = character_reads(older.captured_queries)
    assert number.startswith(LOCK_READ)
    assert '"auth_user"' in row and '"characters_campaign"' in row


def test_a_refused_trait_edit_leaves_the_callers_copy_as_committed(character, player):
    """Renaming Strength to Dexterity clashes (one name per kind): the service refuses it,
    and the copy the caller holds still says Strength, so a page drawn from it is right."""
    from characters.errors import ServiceError
    from characters.selectors.access import character_for_owner
    from characters.services.rows import trait_update

    held = character_for_owner(player, character.pk)
    strength = next(t for t in held.traits.all() if t.name == "Strength")
    with pytest.raises(ServiceError, match="already has the attribute Dexterity"):
        trait_update(trait=strength, actor=player, expected_version=1, name="Dexterity")
    assert (strength.name, held.version) == ("Strength", 1)


def test_a_templates_new_skills_go_after_the_others(player_client, character):
    """Mudge 6.41's ranger adds Bow and Survival: after six of seven skills were removed,
    they still stand after the one left, not before it."""
    names = ["Climbing", "Riding", "Swimming", "Cooking", "Singing", "Fishing", "Sailing"]
    for name in names:
        character.refresh_from_db()
        url = reverse("trait_add", args=[character.pk, "skill"])
        player_client.post(url, {"version": character.version, "name": name, "level": 0})
    for name in names[:-1]:
        character.refresh_from_db()
        skill = character.traits.get(kind=Trait.Kind.SKILL, name=name)
        url = reverse("trait_delete", args=[character.pk, skill.pk])
        player_client.post(url, {"version": character.version})
    character.refresh_from_db()
    url = reverse("template_apply", args=[character.pk])
    player_client.post(url, {"version": character.version, "template": "ranger"})
    skills = list(character.traits.filter(kind=Trait.Kind.SKILL).values_list("name", flat=True))
    assert skills[0] == "Sailing" and set(skills[1:]) >= {"Bow", "Survival"}


def test_a_campaigns_ruleset_is_made_once_and_follows_its_changes(character, gm):
    """The builder asks for the character's rules several times a request: the same rules
    object each time (house rules parsed and catalogue wrapped once), and new rules as soon
    as the GM changes the house rules or the catalogue, read from a fresh copy."""
    from characters.adapters import ruleset_for
    from characters.selectors.access import character_for_owner
    from characters.services.campaigns import campaign_update_house_rules, catalog_entry_add

    first = ruleset_for(character)
    again = character_for_owner(character.owner, character.pk)
    assert ruleset_for(again) is first
    assert first.catalog.skill("Acrobatics").difficulty == "hard"

    campaign_update_house_rules(
        campaign=character.campaign, actor=gm, house_rules={"skill_levels": 40}
    )
    ruled = ruleset_for(character_for_owner(character.owner, character.pk))
    assert ruled is not first and ruled.skill_levels == 40 and first.skill_levels != 40

    catalog_entry_add(campaign=character.campaign, actor=gm, kind="skill", name="Juggling")
    listed = ruleset_for(character_for_owner(character.owner, character.pk))
    assert listed is not ruled and listed.catalog.skill("Juggling") is not None
    assert listed.skill_levels == 40


def test_an_edit_links_after_an_event_that_left_the_version_alone(character, player):
    """A share link is recorded on the trail without a new version: an edit made on a copy
    read before it still links its event after it, since the lock reads the trail's head
    with the version (services.audit), and every chain then holds."""
    from characters.selectors.access import character_for_owner
    from characters.selectors.integrity import audit_breaks
    from characters.services.rows import trait_update
    from characters.services.sharing import share_link_create

    held = character_for_owner(player, character.pk)
    share_link_create(character=character, actor=player)
    shared = CharacterEvent.objects.filter(character=character).latest("id")
    assert Character.objects.get(pk=character.pk).version == held.version  # left alone
    strength = next(t for t in held.traits.all() if t.name == "Strength")
    trait_update(trait=strength, actor=player, expected_version=held.version, level=GOOD)
    edit = CharacterEvent.objects.filter(character=character).latest("id")
    assert (edit.action, edit.previous_hash) == ("trait_relevelled", shared.record_hash)
    assert Character.objects.get(pk=character.pk).audit_head == edit.record_hash
    assert list(audit_breaks()) == []


def test_the_add_lists_follow_the_catalogue_and_the_readers_language(
    character, campaign, gm, player_client
):
    """Each add form's suggestions (its <datalist>) are kept by the process for the game as
    it stands (pages.builder_rows.catalog_datalist): a GM's new entry and its translation are
    on the next page, in the reader's language, and the other language keeps its own."""
    from characters.models import CatalogEntry
    from characters.services.campaigns import catalog_changed, catalog_entry_add

    url = reverse("character_builder", args=[character.pk])

    def skills(language: str) -> list[str]:
        page = player_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        datalist = re.search(r'<datalist id="options-skill">(.*?)</datalist>', page).group(1)
        return re.findall(r'<option value="([^"]+)">', datalist)

    assert ("Acrobatie" in skills("fr"), "Acrobatics" in skills("en")) == (True, True)
    assert "Juggling" not in skills("en")
    catalog_entry_add(campaign=campaign, actor=gm, kind="skill", name="Juggling")
    assert ("Juggling" in skills("fr"), "Juggling" in skills("en")) == (True, True)
    CatalogEntry.objects.filter(campaign=campaign, name="Juggling").update(
        translations={"fr": {"name": "Jonglerie"}}
    )
    catalog_changed(campaign)
    french, english = skills("fr"), skills("en")
    assert "Jonglerie" in french and "Juggling" not in french and "Acrobatie" in french
    assert "Juggling" in english and "Jonglerie" not in english and "Acrobatics" in english


def test_an_answer_masks_its_token_once_and_each_answer_anew(player, character):
    """characters.csrf: the fragments of an edit's answer (its row, the panels with Undo)
    carry one masked token, which the next post is accepted with; the next answer masks
    it anew (BREACH), and a log-in's new token is masked from the new secret."""
    from django.middleware.csrf import _unmask_cipher_token
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    login = client.get(reverse("login")).content.decode()
    token = TOKEN.search(login).group(1)
    client.post(
        reverse("login"),
        {"csrfmiddlewaretoken": token, "username": "player", "password": "pw-player-12345"},
    )
    page = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    token = TOKEN.search(page).group(1)
    strength = attribute(character, "Strength")
    answers = []
    for level in (GOOD, FAIR):
        character.refresh_from_db()
        answer = client.post(
            reverse("trait_update", args=[character.pk, strength.pk]),
            {"version": character.version, "name": "Strength", "level": level},
            headers={"HX-Request": "true", "X-CSRFToken": token},
        )
        assert answer.status_code == 200
        tokens = set(TOKEN.findall(answer.text))
        assert len(tokens) == 1, tokens  # the row's form and Undo's: one mask
        (token,) = tokens  # the next edit posts with it
        answers.append(token)
    assert answers[0] != answers[1]  # each answer its own mask
    secret = client.cookies[settings.CSRF_COOKIE_NAME].value
    assert {_unmask_cipher_token(t) for t in answers} == {secret}
    assert _unmask_cipher_token(token) != _unmask_cipher_token(
        TOKEN.search(login).group(1)
    )  # the log-in rotated the secret the page before it was masked from


@pytest.mark.parametrize("failure", ["form expired", "row gone"])
@pytest.mark.parametrize("htmx", [True, False])
def test_an_edit_refused_before_its_view_says_so_where_the_page_shows_it(
    player, character, failure, htmx
):
    """An htmx edit refused before its view runs (a tab loaded before its player logged out
    and in again: an expired form; a row removed in another tab) is answered in #alerts,
    with a way to reload, never with a whole page htmx would swap into the row; a plain post
    gets the page. Nothing is saved."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    page = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    token = TOKEN.search(page).group(1)
    strength = attribute(character, "Strength")
    pk = strength.pk
    if failure == "form expired":
        client.logout()
        client.force_login(player)  # a new session: the page's token is not its own
    else:
        strength.delete()
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page_url(character)}"}
    answer = client.post(
        reverse("trait_update", args=[character.pk, pk]),
        {"version": character.version, "name": "Strength", "level": GOOD},
        headers={**(headers if htmx else {}), "X-CSRFToken": token},
    )
    said = {
        "form expired": "Nothing was saved: the page was loaded before you last logged in or out",
        "row gone": "There is nothing here, or it is not yours to see.",
    }[failure]
    assert answer.status_code == (403 if failure == "form expired" else 404)
    assert said in answer.text
    if htmx:
        assert (answer["HX-Retarget"], answer["HX-Reswap"]) == ("#alerts", "innerHTML")
        assert "<html" not in answer.text and 'role="alert"' in answer.text
        assert f'href="{page_url(character)}"' in answer.text  # Reload
    else:
        assert "<html" in answer.text and "HX-Retarget" not in answer
    assert not character.traits.filter(name="Strength", level=GOOD).exists()


def page_url(character) -> str:
    return reverse("character_builder", args=[character.pk])


@pytest.mark.parametrize(
    ("posted", "opens"),
    [
        (["", "skill", ""], "?picker=skill"),  # every picker's input; the open one's kind
        (["equipment"], "?picker=equipment"),
        (["", ""], ""),
        (["attribute"], ""),  # a list with no picker
        (["<script>"], ""),
        # With the open picker's Add at: passed on (the page offers only its own levels).
        ({"picker": ["", "skill"], "level": "2"}, "?picker=skill&level=2"),
        ({"picker": ["skill"], "level": "<b>"}, "?picker=skill&level=%3Cb%3E"),
        ({"picker": [""], "level": "2"}, ""),
    ],
)
def test_undo_and_redo_load_the_page_with_the_open_picker(player_client, character, posted, opens):
    """Undo and Redo send each picker's `picker` input and the open one's Add at
    (hx-include): the page they load has the one that was open open again, at that level;
    anything else opens none."""
    posted = posted if isinstance(posted, dict) else {"picker": posted}
    strength = character.traits.get(name="Strength")
    url = reverse("trait_update", args=[character.pk, strength.pk])
    player_client.post(url, {"version": character.version, "name": "Strength", "level": GOOD})
    builder = reverse("character_builder", args=[character.pk])
    for undo in ("edit_undo", "edit_redo"):
        character.refresh_from_db()
        response = player_client.post(
            reverse(undo, args=[character.pk]),
            {"version": character.version, **posted},
            HTTP_HX_REQUEST="true",
        )
        assert response["HX-Redirect"] == builder + opens
