"""axe-core finds no accessibility violation on any page a player or a GM uses, on a desktop
and on a 375-pixel phone (issue 12). axe comes from its Python package and is injected by
the test alone: the site serves no extra script and its CSP is unchanged."""

import io
import re

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.contrib.auth import get_user_model
from PIL import Image, ImageStat
from playwright.sync_api import expect

from characters.models import Character, DesignedRuleset, Membership
from characters.services.campaigns import campaign_create
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit, character_withdraw
from characters.services.rows import trait_add
from characters.services.rulesets import designed_ruleset_save
from characters.services.threads import (
    comment_reply,
    comment_thread_resolve,
    comment_thread_start,
)
from rules.ladder import GOOD
from rules.ruleset_file import blank_ruleset_file
from tests.support.browser import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def table(db):
    """A Mudge campaign with one approved character (Brogo) and one waiting for review."""
    User = get_user_model()
    gm = User.objects.create_user("greta", password=PASSWORD)
    player = User.objects.create_user("pip", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="The Watch", base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    brogo, tess = (
        character_create(owner=player, name=name, campaign=campaign) for name in ("Brogo", "Tess")
    )
    for character in (brogo, tess):
        trait_add(
            character=character,
            actor=player,
            expected_version=None,
            kind="skill",
            name="Climbing",
            level=GOOD,
        )
        character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=brogo, actor=gm, expected_version=None, override_reason="")
    designed_ruleset_save(owner=gm, file=blank_ruleset_file())  # a game of her own
    # Threads on both, answered and resolved: their controls on the builder and review page.
    climbing = tess.traits.get(name="Climbing")
    thread = comment_thread_start(character=tess, actor=gm, body="Why Climbing?", about=climbing)
    comment_reply(thread=thread, actor=player, body="She grew up on cliffs.")
    comment_thread_start(character=tess, actor=gm, body="And her family?")
    resolved = comment_thread_start(character=brogo, actor=gm, body="A fine build.")
    comment_thread_resolve(thread=resolved, actor=player)
    return campaign, brogo, tess


def pages(campaign, brogo, tess) -> dict[str, list[str]]:
    c, b, t = campaign.pk, brogo.pk, tess.pk
    game = DesignedRuleset.objects.get(owner=campaign.gm).pk
    return {
        "pip": [
            "/",
            "/table/",
            "/characters/new/",
            "/characters/import/",
            f"/characters/{t}/",
            f"/characters/{b}/",
            f"/characters/{b}/sheet/",
            f"/characters/{b}/advancement/",
            f"/characters/{b}/audit/",
            f"/characters/{b}/play/",
            f"/campaigns/{c}/",
            f"/campaigns/{c}/catalogue/",
            "/notifications/",
            "/accounts/",
            "/rulesets/mudge/",
        ],
        "greta": [
            f"/campaigns/{c}/review/",
            f"/characters/{t}/review/",
            f"/campaigns/{c}/catalogue/",
            f"/campaigns/{c}/house-rules/",
            f"/campaigns/{c}/history/",
            f"/campaigns/{c}/pack/",
            f"/campaigns/{c}/party/",
            f"/campaigns/{c}/log/",
            "/campaigns/new/",
            "/games/",
            f"/games/{game}/",
            f"/games/{game}/ladder/",
            f"/games/{game}/harm/",
        ],
    }


def violations(page) -> list[str]:
    page.evaluate(AXE_SCRIPT)
    found = page.evaluate("axe.run({resultTypes: ['violations']})")["violations"]
    return [f"{v['id']}: {node['html'][:120]}" for v in found for node in v["nodes"]]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_page_has_an_axe_violation(open_page, table, viewport):
    found = {}
    for username, paths in pages(*table).items():
        page = open_page(viewport)
        log_in(page, username, PASSWORD)
        for path in paths:
            response = page.goto(path)
            assert response.status == 200, path
            found[path] = violations(page)
    assert found == {path: [] for path in found}


# Controls, and links that stand alone (not inside a sentence), as WCAG 2.5.5 counts them.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main button, main select, main textarea, main summary, main [role=button],'
    + 'main input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
    + 'header a, header button, main nav a, .crumbs a, .panel-links a'
  )].filter(e => e.offsetParent !== null).map(e => [e, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([e, r]) => `${e.tagName} ${(e.textContent || e.name).trim().slice(0, 30)}`
    + ` ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def test_every_control_is_a_44_pixel_target_on_a_phone(open_page, table):
    _, _, tess = table

    def small_targets(username, path):
        page = open_page(PHONE)
        log_in(page, username, PASSWORD)
        page.goto(path)
        return page.evaluate(SMALL_TARGETS)

    assert small_targets("greta", f"/characters/{tess.pk}/review/") == []
    # Back with the player, so the builder offers every control.
    character_withdraw(character=tess, actor=tess.owner, expected_version=None)
    assert small_targets("pip", f"/characters/{tess.pk}/") == []


def test_the_budget_stays_in_view_while_editing_on_a_phone(open_page, table):
    _, _, tess = table
    character_withdraw(character=tess, actor=tess.owner, expected_version=None)
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{tess.pk}/")
    bar = page.locator("#budget-bar")
    climbing = page.locator(
        "form.trait-row", has=page.locator("input[name=name][value='Climbing']")
    )
    climbing.scroll_into_view_if_needed()
    expect(page.locator("#budget-panel")).not_to_be_in_viewport()
    expect(bar).to_be_in_viewport()
    before = page.locator("#balance-value").inner_text()
    climbing.locator("select[name=level]").select_option(label="Great")
    # Good -> Great is one more skill level (Mudge 1.62): the bar and the panel agree.
    expect(page.locator("#balance-value")).not_to_have_text(before)
    expect(bar.locator("strong")).to_have_text(page.locator("#balance-value").inner_text())
    expect(bar).to_be_in_viewport()


def tab_to(page, selector: str, limit: int = 300) -> None:
    """Press Tab until `selector` has the focus, as a keyboard user moves through a page."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            "s => document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_build_with_the_keyboard_alone(open_page, table):
    """From "New character" to "Submit for review" with Tab, Enter, arrow keys and typing
    only (issue 12): every step can be reached and used without a mouse."""
    page = open_page(DESKTOP)
    log_in(page, "pip", PASSWORD)
    page.goto("/table/")
    tab_to(page, "a[href='/characters/new/']")
    page.keyboard.press("Enter")
    page.wait_for_url("**/characters/new/")
    tab_to(page, "input[name=name]")
    page.keyboard.type("Kit")
    # pip plays in one campaign: it is chosen already, with its ruleset.
    expect(page.locator("select[name=campaign] option:checked")).to_have_text("The Watch")
    expect(page.locator("input[name=ruleset][value=mudge]")).to_be_checked()
    tab_to(page, "form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/characters/\d+/$"))

    tab_to(page, "select[name=level][id^=trait-]")  # the first attribute, Strength
    page.keyboard.press("ArrowUp")  # Fair -> Good: 1 attribute level, 3 skill levels
    # Mudge 1.6: 6 attribute levels x 3 + 45 skill levels + 2 gifts x 6 = 75, less 3.
    expect(page.locator("#balance-value")).to_have_text("72 skill levels")
    tab_to(page, "#add-skill input[name=name]")
    page.keyboard.type("Climbing")
    tab_to(page, "#add-skill select[name=level]")
    page.keyboard.press("ArrowDown")
    tab_to(page, "#add-skill button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#rows-skill")).to_contain_text("skill level")
    tab_to(page, "#review-status button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#review-status .state-badge")).to_have_text("Submitted")
    kit = Character.objects.get(name="Kit")
    assert kit.state == Character.State.SUBMITTED
    assert list(kit.traits.filter(kind="skill").values_list("name", flat=True)) == ["Climbing"]


def test_the_join_button_reads_on_one_line_on_a_phone(open_page, table):
    """Beside a refused code (its field narrowed by the error mark) the button stayed as
    wide as it could: "Joi" over "n"."""
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto("/table/")
    page.locator("#join input[name=code]").fill("wrongcode1")
    page.locator("#join button").click()
    expect(page.locator("#join")).to_contain_text("No campaign has this invite code")
    lines = page.locator("#join button").evaluate(
        "b => { const text = document.createRange(); text.selectNodeContents(b);"
        " return text.getClientRects().length; }"
    )
    assert lines == 1


# A select whose chosen option, or an empty text input whose placeholder, is wider than the
# room the control leaves for words: a phone showed "As the catalo…" and "Cualquier esta…".
# A textarea's placeholder wraps, and is left out. And a field's hint drawn over the field
# (Pico pulls a hint up under a field it expects a margin below): "Basis: 6" was struck
# through by the house rules' fields' borders.
CUT_WORDS = """() => {
  const ruler = document.createElement('canvas').getContext('2d');
  const room = (e, style) =>
    e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cut = [];
  for (const e of document.querySelectorAll('main select, main input[type=text]')) {
    if (e.offsetParent === null) continue;
    const words = e.tagName === 'SELECT'
      ? (e.selectedOptions[0] || {}).text
      : (e.value || e.placeholder);
    if (!words) continue;
    const style = getComputedStyle(e);
    ruler.font = style.font;
    if (ruler.measureText(words).width > room(e, style) + 0.5) cut.push(`${e.name}: ${words}`);
  }
  for (const hint of document.querySelectorAll(':is(input, select, textarea) + small')) {
    const field = hint.previousElementSibling;
    if (field.offsetParent === null || hint.offsetParent === null) continue;
    const over = field.getBoundingClientRect().bottom - hint.getBoundingClientRect().top;
    if (over > 0.5) cut.push(`${field.name}'s hint over its field: ${hint.textContent.trim()}`);
  }
  return cut;
}"""


@pytest.mark.parametrize(
    ("viewport", "language"),
    [(PHONE, "en"), (PHONE, "fr"), (PHONE, "es"), (PHONE, "de"), (DESKTOP, "fr"), (DESKTOP, "de")],
    ids=["phone-en", "phone-fr", "phone-es", "phone-de", "desktop-fr", "desktop-de"],
)
def test_every_choice_and_hint_shows_its_words_whole(open_page, table, viewport, language):
    """On every page with a form, in each language: each select's chosen option and each
    text field's value (or, empty, its placeholder) fit their control, where a phone cut
    them short (a German ladder's "Abgrundtief"), and each field's hint is drawn under the
    field, not over it."""
    campaign, brogo, tess = table
    character_withdraw(character=tess, actor=tess.owner, expected_version=None)  # add rows
    game = DesignedRuleset.objects.get(owner=campaign.gm).pk
    c, b, t = campaign.pk, brogo.pk, tess.pk
    forms = {
        "pip": ["/table/", "/characters/new/", "/characters/import/", f"/characters/{t}/"]
        + [f"/characters/{b}/{part}/" for part in ("advancement", "play")],
        "greta": [
            "/campaigns/new/",
            f"/campaigns/{c}/house-rules/",
            f"/campaigns/{c}/catalogue/",
            f"/campaigns/{c}/pack/",
            f"/campaigns/{c}/party/",
            f"/characters/{t}/review/",
            "/games/",
            "/games/library/",
        ]
        + [f"/games/{game}/{part}/" for part in ("game", "ladder", "attributes", "skills", "harm")],
    }
    found = {}
    for username, paths in forms.items():
        page = open_page(viewport)
        page.set_extra_http_headers({"Accept-Language": language})
        log_in(page, username, PASSWORD)
        for path in paths:
            response = page.goto(path)
            assert response.status == 200, path
            found[path] = page.evaluate(CUT_WORDS)
    assert found == {path: [] for path in found}


# A designer row's fields that begin a line of their row lower than another field on it:
# each line of a row's fields (a new one starts where a field sits left of the one before)
# with its labels' tops, where they differ.
UNEVEN_LABELS = """() => [...document.querySelectorAll(
  '.design-row:not(.tall), .design-row-details[open] .design-row-body'
)].flatMap(body => {
    const lines = [];
    let left = Infinity;
    for (const field of body.querySelectorAll(':scope > .design-field')) {
      const box = field.getBoundingClientRect();
      if (box.left <= left) lines.push([]);
      left = box.left;
      const label = field.querySelector('label, legend');
      lines.at(-1).push([label.textContent.trim(), Math.round(label.getBoundingClientRect().top)]);
    }
    return lines.filter(line => new Set(line.map(([, top]) => top)).size > 1);
  })"""


def test_a_designer_rows_fields_line_up_by_their_labels(open_page, table):
    """The fields of a designer row (a skill's, a tracker's: each in a list of the game's
    own) begin their labels level, line by line, where they were drawn bottom-aligned and a
    field with a short hint stood lower than the one beside it (a tracker's Name, 16 px
    under its Key)."""
    campaign, _, _ = table
    game = DesignedRuleset.objects.get(owner=campaign.gm).pk
    page = open_page(DESKTOP)
    log_in(page, "greta", PASSWORD)
    uneven, rows = {}, 0
    for section in ("skill-list", "equipment", "power-list", "templates", "derived", "trackers"):
        page.goto(f"/games/{game}/{section}/")
        page.locator(".design-rows > button[name=add]").last.click()
        expect(page.locator(".design-row")).not_to_have_count(0)
        rows += page.locator(".design-row-details[open]").count()
        uneven[section] = page.evaluate(UNEVEN_LABELS)
    assert rows == 5  # each list's new row, open; a skill's is short, on one line
    assert uneven == {section: [] for section in uneven}


# The boxes on the page that scroll sideways, each marked for the test by its number.
SIDEWAYS = """() => [...document.querySelectorAll('main *')].filter(e => {
  const overflow = getComputedStyle(e).overflowX;
  return ['auto', 'scroll'].includes(overflow) && e.scrollWidth > e.clientWidth + 1;
}).map((e, n) => { e.dataset.sideways = n; return e.className; })"""


def right_edge_darkness(box) -> float:
    """How much darker the box's last four pixel columns are with its background than
    without it (its background set to none by script: the CSP lets a script's CSSOM in)."""

    def edge():
        shot = Image.open(io.BytesIO(box.screenshot())).convert("L")
        return ImageStat.Stat(shot.crop((shot.width - 4, 0, shot.width, shot.height))).mean[0]

    with_shadow = edge()
    box.evaluate("e => { e.style.backgroundImage = 'none'; }")
    without = edge()
    box.evaluate("e => { e.style.backgroundImage = ''; }")
    return without - with_shadow


def test_a_table_wider_than_a_phone_shows_it_scrolls(open_page, table):
    """The rules' cost tables scroll sideways on a phone, in French wider than in English: a
    shadow at the box's right edge says there is more, and goes once the end is reached."""
    campaign, brogo, _ = table
    page = open_page(PHONE)
    page.set_extra_http_headers({"Accept-Language": "fr"})
    log_in(page, "pip", PASSWORD)
    boxes = {}
    paths = ("/rulesets/mudge/", f"/campaigns/{campaign.pk}/", f"/characters/{brogo.pk}/sheet/")
    for path in paths:
        page.goto(path)
        for n, kind in enumerate(page.evaluate(SIDEWAYS)):
            box = page.locator(f"[data-sideways='{n}']")
            box.scroll_into_view_if_needed()
            shadow = right_edge_darkness(box)
            box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            boxes[f"{path} {n}"] = (kind, shadow > 20, right_edge_darkness(box) < 2)
    # Mudge's skill costs and experience table; the campaign's costs; the sheet fits.
    assert len(boxes) == 3, boxes
    assert set(boxes.values()) == {("table-scroll", True, True)}, boxes
