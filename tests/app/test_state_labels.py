"""Issue 39: one label per state of a build, the same on every page, sheet, PDF and in every
language (characters.states, their one home). A character in each state, reached as players
and GMs reach it (a draft, submitted, sent back for changes, approved, approved and then
changed behind the app, approved and back for review after an update from Foundry), is read
on every page that says where it stands: each says the state's label, and no other's."""

import re

import pytest
from django.utils import translation

from characters import states
from characters.models import Character, Trait
from characters.services.characters import character_create
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
)
from characters.services.rows import trait_add
from tests.support import builder_fixtures
from tests.support.demo_states import foundry_updated
from tests.support.pdf_helpers import texts

pytestmark = pytest.mark.django_db
gm, player, campaign = builder_fixtures.gm, builder_fixtures.player, builder_fixtures.campaign

LANGUAGES = ("en-gb", "fr", "es", "de")  # the site's codes: each is chosen in turn
# Each state as the test reaches it, and the state its pages say.
STATES = {
    "draft": states.DRAFT,
    "submitted": states.SUBMITTED,
    "changes requested": states.CHANGES_REQUESTED,
    "approved": states.APPROVED,
    "changed behind the app": states.CHANGED,
    "back from Foundry": states.SUBMITTED,
}
# The pages that say where one character stands, by whom they are read. The lists (the
# table, the campaign, leaving it) do not hash each build: a build changed behind the app is
# told on its own pages.
PAGES = {
    "table": ("player", "/table/"),
    "campaign": ("player", "/campaigns/{campaign}/"),
    "leave the campaign": ("player", "/campaigns/{campaign}/leave/"),
    "builder": ("player", "/characters/{pk}/"),
    "review": ("gm", "/characters/{pk}/review/"),
    "sheet": ("player", "/characters/{pk}/sheet/"),
    "sheet PDF": ("player", "/characters/{pk}/sheet.pdf"),
    "play": ("player", "/characters/{pk}/play/"),
}
LISTS = {"table", "campaign", "leave the campaign"}

BADGE = re.compile(r'class="badge state-badge state-[a-z_]+">([^<]*)<')
STAMP = re.compile(r'class="sheet-stamp[^"]*">([^<]*)<')
LISTED = re.compile(r"</bdi> \(([^)]*)\)</li>")  # "Brogo (Submitted)": leaving a campaign


@pytest.fixture
def character_in(gm, player, campaign):
    """The character in `state`, as its player and its GM bring it there."""

    def reach(state: str) -> Character:
        character = character_create(owner=player, name="Brogo", campaign=campaign)
        trait_add(
            character=character,
            actor=player,
            expected_version=None,
            kind=Trait.Kind.SKILL,
            name="Climbing",
            level=1,
            difficulty="average",
        )
        if state == "draft":
            return character
        character_submit(character=character, actor=player, expected_version=None)
        if state == "changes requested":
            character_request_changes(
                character=character, actor=gm, expected_version=None, comments=[("", "More.")]
            )
        elif state != "submitted":
            character_approve(
                character=character, actor=gm, expected_version=None, override_reason="test"
            )
        if state == "changed behind the app":
            Trait.objects.filter(character=character, name="Strength").update(level=3)
        if state == "back from Foundry":
            foundry_updated(character)
        return Character.objects.get(pk=character.pk)

    return reach


def said(response) -> list[str]:
    """Where the page says the build stands: its state badges and sheet stamps (the PDF's
    footer and watermark), the state beside its name in a list."""
    if response["Content-Type"].startswith("application/pdf"):
        return [" ".join(text.split()) for text in texts(response.content)]
    html = response.content.decode()
    return BADGE.findall(html) + STAMP.findall(html) + LISTED.findall(html)


@pytest.mark.parametrize("reached", STATES)
def test_every_page_says_the_state_with_its_one_label(client, character_in, gm, player, reached):
    """One character in the state, read on every page in every language (one character for
    the 32 readings: reaching a state is the expensive part). Every wrong reading is listed."""
    state = STATES[reached]
    character = character_in(reached)
    wrong = []
    for page, (reader, address) in PAGES.items():
        if page in LISTS and state == states.CHANGED:
            continue  # a list does not hash each build: the character's own pages say it
        client.force_login({"player": player, "gm": gm}[reader])
        for language in LANGUAGES:
            client.post("/language/", {"language": language, "next": "/"})
            response = client.get(address.format(pk=character.pk, campaign=character.campaign_id))
            assert response.status_code == 200, (page, language)
            wrong += [
                f"{page} [{language}]: {problem}"
                for problem in misread(response, page, state, character, language)
            ]
    assert not wrong, "\n".join(wrong)


def misread(response, page, state, character, language) -> list[str]:
    """What the page says wrongly of the state, read in `language`."""
    with translation.override(language):
        label = states.label(state)
        others = [states.label(s) for s in states.LABELS if states.label(s) != label]
        mark = states.not_approved(state)
    found = said(response)
    if not found:
        return ["says nowhere where the build stands"]
    shown = " | ".join(found)
    problems = []
    if page == "sheet PDF":  # the footer's line, and the watermark across the page
        if state == states.APPROVED:
            if f"{label} · SHA-256" not in shown:
                problems.append(f"no '{label} · SHA-256': {shown}")
        elif not (mark in shown and mark.upper() in shown):
            problems.append(f"no '{mark}' in the footer and the watermark: {shown}")
    elif not any(label in text for text in found):
        problems.append(f"no '{label}': {shown}")
    problems += [f"also says {other}: {shown}" for other in others if other in shown]
    if page == "play" and character.state != Character.State.APPROVED:  # not "in play" yet
        with translation.override(language):
            in_play = translation.gettext("%(name)s in play") % {"name": character.name}
        if in_play in response.content.decode():
            problems.append(f"says '{in_play}' before the build is approved")
    return problems
