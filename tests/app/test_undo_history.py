"""The builder's undo history (issue 24): twenty edits of every kind, a template counting as
one, taken back one at a time to exactly the build before each, then put back one at a time;
one Undo and one Redo button naming what they do; each step a change of its own on the
audit trail; a new edit clears what was left to redo."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.adapters import character_file
from characters.models import Character, Equipment, Trait
from characters.selectors.integrity import audit_breaks
from characters.services.history import restore, snapshot
from rules.ladder import GOOD, GREAT, MEDIOCRE, POOR
from tests.support.builder_fixtures import *  # noqa: F403

HTMX = {"HTTP_HX_REQUEST": "true"}


def fresh(character):
    return Character.objects.get(pk=character.pk)


def trait(character, name):
    return Trait.objects.get(character=character, name=name)


def relevel(name, level):
    def post(client, character):
        row = trait(character, name)
        url = reverse("trait_update", args=[character.pk, row.pk])
        return client.post(url, {"version": character.version, "name": name, "level": level})

    return post


def add(kind, name, **fields):
    def post(client, character):
        url = reverse("trait_add", args=[character.pk, kind])
        return client.post(url, {"version": character.version, "name": name, **fields})

    return post


def remove(name):
    def post(client, character):
        url = reverse("trait_delete", args=[character.pk, trait(character, name).pk])
        return client.post(url, {"version": character.version})

    return post


def add_item(name, kind, **fields):
    def post(client, character):
        url = reverse("equipment_add", args=[character.pk])
        data = {"version": character.version, "name": name, "kind": kind, **fields}
        return client.post(url, data)

    return post


def change_item(name, kind, **fields):
    def post(client, character):
        item = character.equipment.get(name=name)
        url = reverse("equipment_update", args=[character.pk, item.pk])
        data = {"version": character.version, "name": name, "kind": kind, **fields}
        return client.post(url, data)

    return post


def remove_item(name):
    def post(client, character):
        item = character.equipment.get(name=name)
        url = reverse("equipment_delete", args=[character.pk, item.pk])
        return client.post(url, {"version": character.version})

    return post


def template(slug):
    def post(client, character):
        url = reverse("template_apply", args=[character.pk])
        return client.post(url, {"version": character.version, "template": slug})

    return post


def concept(words):
    def post(client, character):
        data = {
            "version": character.version,
            "name": character.name,
            "player": character.player,
            "concept": words,
            "race": character.race,
            "scale_strength": character.scale_strength,
            "scale_mass": character.scale_mass,
            "meta_points": character.meta_points or "",
        }
        return client.post(reverse("details_update", args=[character.pk]), data)

    return post


# Twenty distinct edits of every kind, each with the label its Undo and Redo buttons carry.
EDITS = [
    (relevel("Strength", GOOD), "Strength Fair → Good"),
    (relevel("Dexterity", MEDIOCRE), "Dexterity Fair → Mediocre"),
    (add("skill", "Climbing", level=GOOD), "adding Climbing"),
    (add("skill", "Acrobatics", level=0), "adding Acrobatics"),
    (relevel("Climbing", GREAT), "Climbing Good → Great"),
    (add("gift", "Lucky"), "adding Lucky"),
    (add("fault", "Greedy"), "adding Greedy"),
    (add_item("Rope", "gear"), "adding Rope"),
    (add_item("Sword", "weapon", damage=2), "adding Sword"),
    (change_item("Sword", "weapon", damage=3), "the change to Sword"),
    (template("cercopes"), "template Cercopes"),
    (remove("Lucky"), "removing Lucky"),
    (relevel("Intelligence", GOOD), "Intelligence Fair → Good"),
    (remove_item("Rope"), "removing Rope"),
    (add("skill", "Swimming", level=MEDIOCRE), "adding Swimming"),
    (concept("A thief of the old town"), "the change to concept"),
    (add("gift", "Magery"), "adding Magery"),  # with its Mana (Mudge 2.5): one step
    (relevel("Constitution", POOR), "Constitution Fair → Poor"),
    (remove("Climbing"), "removing Climbing"),
    (add_item("Buckler", "shield"), "adding Buckler"),
]


def buttons(client, character) -> tuple[str | None, str | None]:
    """The Undo and Redo buttons' words on the builder page (their text, not their title)."""
    page = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    box = page[page.index('<div id="undo-edit"') :]
    box = box[: box.index("</div>")]
    found = []
    for word in ("Undo: ", "Redo: "):
        start = box.find(f">{word}") + 1
        found.append(box[start : box.index("</button>", start)] if start else None)
    return found[0], found[1]


def step(client, character, name, *, htmx=False):
    response = client.post(
        reverse(f"edit_{name}", args=[character.pk]),
        {"version": fresh(character).version},
        **(HTMX if htmx else {}),
    )
    assert response.status_code in (200, 302), response.content.decode()[:500]
    return response


@pytest.mark.django_db
def test_twenty_edits_undone_and_redone_one_at_a_time(player_client, character):
    files = [character_file(fresh(character))]  # files[i]: the build before edit i
    for post, label in EDITS:
        character = fresh(character)
        response = post(player_client, character)
        assert response.status_code == 302, (label, response.content.decode()[:500])
        files.append(character_file(fresh(character)))
        assert files[-1] != files[-2], label  # each edit changed the build
        assert buttons(player_client, character) == (f"Undo: {label}", None)
    assert "Mana" in {row["name"] for row in files[-1]["attributes"]}
    labels = [label for _, label in EDITS]

    # Back, one step at a time (plain posts and htmx in turn): exactly the build before.
    for i in reversed(range(len(EDITS))):
        response = step(player_client, character, "undo", htmx=i % 2 == 0)
        if i % 2 == 0:
            assert response["HX-Redirect"] == reverse("character_builder", args=[character.pk])
        assert character_file(fresh(character)) == files[i], labels[i]
        expected_undo = f"Undo: {labels[i - 1]}" if i else None
        assert buttons(player_client, character) == (expected_undo, f"Redo: {labels[i]}")
    refused = player_client.post(
        reverse("edit_undo", args=[character.pk]), {"version": fresh(character).version}
    )
    assert refused.status_code == 400
    assert "There is nothing to undo" in refused.content.decode()

    # Forward again: exactly the build after each edit.
    for i in range(len(EDITS)):
        step(player_client, character, "redo", htmx=i % 2 == 1)
        assert character_file(fresh(character)) == files[i + 1], labels[i]
        expected_redo = f"Redo: {labels[i + 1]}" if i + 1 < len(EDITS) else None
        assert buttons(player_client, character) == (f"Undo: {labels[i]}", expected_redo)

    # Each undo and redo is a change of its own on the trail, which stays a whole chain.
    character = fresh(character)
    trail = list(character.events.order_by("id").values_list("action", "reason", "version"))
    undos = [(a, r) for a, r, _ in trail if a == "edit_undone"]
    redos = [(a, r) for a, r, _ in trail if a == "edit_redone"]
    assert undos == [("edit_undone", f"undo {label}") for label in reversed(labels)]
    assert redos == [("edit_redone", f"redo {label}") for label in labels]
    assert trail[-1][2] == character.version
    assert list(audit_breaks()) == []


@pytest.mark.django_db
def test_a_new_edit_after_undos_clears_the_redo(player_client, character):
    for post, _ in EDITS[:3]:
        post(player_client, fresh(character))
    step(player_client, character, "undo")
    step(player_client, character, "undo")
    assert buttons(player_client, character) == (
        "Undo: Strength Fair → Good",
        "Redo: Dexterity Fair → Mediocre",
    )
    add("skill", "Swimming", level=GOOD)(player_client, fresh(character))
    assert buttons(player_client, character) == ("Undo: adding Swimming", None)
    refused = player_client.post(
        reverse("edit_redo", args=[character.pk]), {"version": fresh(character).version}
    )
    assert refused.status_code == 400
    assert "There is nothing to redo" in refused.content.decode()


@pytest.mark.django_db
def test_a_level_change_after_undos_clears_the_redo(player_client, character):
    """The builder's commonest edit reads from the character's own query whether the
    history has steps to end (selectors.history.history_to_prune): after an undo it has."""
    for post, _ in EDITS[:3]:
        post(player_client, fresh(character))
    step(player_client, character, "undo")
    relevel("Strength", GREAT)(player_client, fresh(character))
    assert buttons(player_client, character) == ("Undo: Strength Good → Great", None)
    refused = player_client.post(
        reverse("edit_redo", args=[character.pk]), {"version": fresh(character).version}
    )
    assert refused.status_code == 400
    assert "There is nothing to redo" in refused.content.decode()


@pytest.mark.django_db
def test_the_history_is_trimmed_to_its_length_every_few_edits(player_client, character):
    from characters.models import BuildStep
    from characters.selectors.history import HISTORY_SLACK, HISTORY_STEPS

    most = HISTORY_STEPS + HISTORY_SLACK - 1
    for n in range(most + 5):
        relevel("Strength", GOOD if n % 2 == 0 else GREAT)(player_client, fresh(character))
        assert BuildStep.objects.filter(character=character).count() <= most
    assert BuildStep.objects.filter(character=character).count() >= HISTORY_STEPS
    assert buttons(player_client, character)[0] == "Undo: Strength Good → Great"


@pytest.mark.django_db
def test_a_stale_undo_is_refused_and_changes_nothing(player_client, character):
    relevel("Strength", GOOD)(player_client, fresh(character))
    stale = fresh(character).version - 1
    before = character_file(fresh(character))
    url = reverse("edit_undo", args=[character.pk])
    response = player_client.post(url, {"version": stale}, **HTMX)
    assert response.status_code == 409
    assert "changed in another tab" in response.content.decode()
    assert character_file(fresh(character)) == before
    assert not fresh(character).events.filter(action="edit_undone").exists()


@pytest.mark.django_db
def test_the_review_names_the_broad_class_while_its_template_stands(player_client, character, gm):
    """Mudge 6.42's broad classes break the caps: the review page names the house rule that
    fits (caps off) while the template stands, not once it is undone, again once redone."""
    gm_client = Client()
    gm_client.force_login(gm)
    review = reverse("character_review", args=[character.pk])
    template("beginning-fighter")(player_client, fresh(character))
    assert "caps off" in gm_client.get(review).content.decode()
    step(player_client, character, "undo")
    assert "caps off" not in gm_client.get(review).content.decode()
    step(player_client, character, "redo")
    assert "caps off" in gm_client.get(review).content.decode()


@pytest.mark.django_db
def test_a_snapshot_keeps_only_what_differs_from_the_defaults_and_restores_every_field(
    character,
):
    """Undo's snapshot leaves out each field at its default (an attribute's empty cost, a
    skill's empty Foundry id) and the restore gives every field of every row back."""
    Trait.objects.create(
        character=character, kind="gift", name="Lucky", cost=2, foundry_id="f-1", position=3
    )
    Trait.objects.create(
        character=character,
        kind="skill",
        name="Sailing",
        level=GOOD,
        difficulty="hard",
        defined_in_play=True,
        position=9,
    )
    Equipment.objects.create(character=character, name="Rope", quantity=3, notes="50 ft")
    Equipment.objects.create(character=character, name="Sword", kind="weapon", damage=2)

    def rows():
        return [
            list(model.objects.filter(character=character).order_by("id").values())
            for model in (Trait, Equipment)
        ]

    before = rows()
    build = snapshot(fresh(character))
    strength = next(row for row in build["traits"] if row["name"] == "Strength")
    assert set(strength) == {"id", "kind", "name", "level"}  # Fair: level 0 is no default
    rope = next(row for row in build["equipment"] if row["name"] == "Rope")
    assert rope == {"id": rope["id"], "name": "Rope", "notes": "50 ft", "quantity": 3}
    Trait.objects.filter(character=character).update(level=None, cost=7, foundry_id="x")
    Equipment.objects.filter(character=character).update(quantity=9, kind="armour")
    restore(fresh(character), build)
    assert rows() == before
