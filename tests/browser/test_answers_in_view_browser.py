"""Issue 39: every answer lands where the eye is, on a 375-pixel phone.

The class walks: on the builder (with a picker open and a template checked), the play page,
the review page and the sheet, every kind of form (GET forms too) and every button that
sends a form from outside it is used once, on a fresh character, with what the page holds
(the browser's own checks lifted, so that the server answers). Its answer, the role="alert"
or role="status" that has the focus, must be inside the viewport (clear of the builder's
budget chip); nothing may lie over a control on screen, where the answer showed or a
screen further down (an answer that floated did); and a write to the build answers with
Undo on screen. The site header's forms (log out, language) are left out: they answer
with another page, or this one in another language, from its top where they are.

Then the layout in French, Spanish and German, and one phone journey through what a new
GM and two new players found."""

import contextlib
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from characters.models import Character, Membership
from characters.services.campaigns import campaign_create
from characters.services.play import play_condition_add
from characters.services.review import character_submit
from characters.services.rows import trait_add
from characters.services.threads import comment_thread_start
from characters.services.undo import character_undo_edit
from tests.support.browser import PHONE, comes_true, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, approved, build, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every sender on the page, and what kind it is: a form by its method, address, class and
# the part of the page it is in (each list's rows are a kind); a button that sends a form
# from outside it (a trait's Roll) or rolls on the page (the sheet's dice).
SENDERS = """
  const norm = (text) => (text || "").replace(/\\d+/g, "N");
  const keyOf = (el) => el.tagName === "FORM"
    ? ["form", (el.getAttribute("method") || "get").toLowerCase(), norm(el.getAttribute("action")),
       norm(el.className), norm((el.closest("[id]:not(form)") || {}).id)].join(" ")
    : ["button", norm(el.getAttribute("form")), norm((el.closest("[id]") || {}).id)].join(" ");
  const elsewhere = (form) => (form.getAttribute("method") || "get").toLowerCase() === "get"
    && new URL(form.action, location.href).pathname !== location.pathname;  // a PDF
  const senders = () => [
    ...[...document.querySelectorAll("main form")].filter((form) => !elsewhere(form)),
    ...document.querySelectorAll("main button[data-roll]:not([hidden])"),
    ...[...document.querySelectorAll("main button[form]")]
      .filter((button) => button.closest("form") !== button.form),
  ];
"""

KINDS = "() => {" + SENDERS + "return [...new Set(senders().map(keyOf))]; }"

# Marks the first sender of a kind: the button a player would press (the form's first one
# on show), or the form itself when it has none on show (a row that saves on change).
MARK = (
    "(key) => {"
    + SENDERS
    + """
  const sender = senders().find((el) => keyOf(el) === key);
  if (!sender) return null;
  const shut = (el) => el && el.closest("details:not([open])");
  for (let closed = shut(sender); closed; closed = shut(closed.parentElement)) closed.open = true;
  if (sender.tagName !== "FORM") { sender.setAttribute("data-walk", ""); return "press"; }
  sender.noValidate = true;
  const shown = (b) => b.checkVisibility() && !b.disabled && !b.closest(".visually-hidden");
  const button = [...sender.querySelectorAll("button, input[type=submit]")]
    .find((b) => b.form === sender && b.type === "submit" && shown(b));
  (button || sender).setAttribute("data-walk", "");
  return button ? "press" : "submit";
}"""
)

# The answer: what has the focus once the page has answered, or the message of the field
# that has it. Its box, the top of the screen the budget chip leaves free, and its Undo.
FREE = """const free = () => {
  const chip = document.querySelector(".budget-chip");
  const box = chip && getComputedStyle(chip).display !== "none" && chip.getBoundingClientRect();
  return box && box.top <= 1 ? Math.max(0, box.bottom) : 0;
};"""

ANSWER = (
    """() => {
  if (document.readyState !== "complete" || document.querySelector(".htmx-request")) return null;
  const focused = document.activeElement;
  if (!focused || focused === document.body) return null;
  let answer = focused.closest("[role=alert], [role=status]");
  if (!answer && focused.getAttribute("aria-invalid") === "true") {
    answer = focused.closest("form").querySelector(".errorlist, .field-error, [role=alert]");
  }
  if (!answer) return null;
  """
    + FREE
    + """
  const box = answer.getBoundingClientRect();
  const undo = (answer.closest(".messages, .answer") || answer).querySelector("[form=undo-form]");
  const undoBox = undo && undo.getBoundingClientRect();
  return {
    top: box.top, bottom: box.bottom, free: free(), text: answer.innerText.slice(0, 90),
    undo: undoBox ? [undoBox.top, undoBox.bottom] : null, path: location.pathname,
  };
}"""
)

# Controls on screen that a tap at their centre would not reach: something lies over them.
# The builder's budget chip is the page's own sticky head: what scrolls under it is left out,
# as is what a scrolling list (a picker's) has scrolled out of its box.
COVERED = (
    """() => {
  """
    + FREE
    + """
  const top = free();
  const inBoxes = (el, x, y) => {
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (!/(auto|scroll|hidden)/.test(style.overflowX + style.overflowY)) continue;
      const r = box.getBoundingClientRect();
      if (x < r.left || x > r.right || y < r.top || y > r.bottom) return false;
    }
    return true;
  };
  const controls = "main button, main a[href], main input:not([type=hidden]), main select, "
    + "main textarea, main summary";
  return [...document.querySelectorAll(controls)].filter((el) => el.checkVisibility()).map((el) => {
    const r = el.getBoundingClientRect();
    // The centre's whole pixel: the browser hits a point on whole pixels, and one in the
    // screen's last fraction of a pixel (811.8 of 812) hits nothing at all.
    const x = Math.floor(r.left + r.width / 2), y = Math.floor(r.top + r.height / 2);
    if (r.width < 2 || r.height < 2 || y < top || y >= innerHeight || x < 0 || x >= innerWidth
        || !inBoxes(el, x, y)) return null;
    const hit = document.elementFromPoint(x, y);
    const labels = [...(el.labels || [])];
    const reached = hit && (el.contains(hit) || labels.some((label) => label.contains(hit)));
    return reached ? null : `${el.tagName} "${(el.textContent || el.name).trim().slice(0, 30)}"`
      + ` under ${hit && hit.tagName}.${hit && hit.className}`;
  }).filter(Boolean);
}"""
)

BUILD_WRITES = re.compile(r"/(traits|equipment|details|personality|template|undo|redo)/")


def answer_of(page):
    """The answer once the page has given it (a reload or a swap), else None after 10 s."""
    for _ in range(100):
        page.wait_for_timeout(100)
        with contextlib.suppress(PlaywrightError):  # a page that is loading again
            found = page.evaluate(ANSWER)
            if found:
                return found
    return None


def covered(page) -> list[str]:
    """What lies under something on screen, here and half a screen further down."""
    found = page.evaluate(COVERED)
    page.evaluate("scrollBy(0, innerHeight / 2)")
    found += page.evaluate(COVERED)
    page.evaluate("scrollBy(0, -innerHeight / 2)")
    return found


def walk(page, fresh) -> list[str]:
    """Each kind of sender on the page `fresh()` opens, used once on a fresh page: what went
    wrong, one line each."""
    page.on("dialog", lambda dialog: dialog.accept())  # a removal's "are you sure?"
    page.goto(fresh())
    kinds = page.evaluate(KINDS)
    assert kinds, "nothing to send on the page"
    problems = []
    for index, kind in enumerate(kinds):
        if index:  # the first kind is sent from the page that listed them, still untouched
            page.goto(fresh())
        how = page.evaluate(MARK, kind)
        sender = page.locator("[data-walk]")
        if how == "press":
            sender.click()
        else:
            sender.scroll_into_view_if_needed()
            sender.evaluate("form => form.requestSubmit()")
        answer = answer_of(page)
        if answer is None:
            problems.append(f"{kind}: no answer has the focus")
            continue
        top, bottom, free = answer["top"], answer["bottom"], answer["free"]
        tall = bottom - top > PHONE["height"] - free
        if top < free - 1 or (bottom > PHONE["height"] and not (tall and top < free + 100)):
            problems.append(f"{kind}: {answer['text']!r} at {top:.0f}..{bottom:.0f} px")
        if (
            BUILD_WRITES.search(kind)
            and "alert" not in kind
            and answer["text"].startswith(("Saved", "Template applied", "Undone", "Redone"))
        ):
            undo = answer["undo"]
            if not undo or undo[0] < free or undo[1] > PHONE["height"]:
                problems.append(f"{kind}: no Undo on screen in {answer['text']!r}")
        problems += [f"{kind}: {what}" for what in covered(page)]
    return problems


@pytest.fixture
def campaign(gm, player, other_player):
    """The play fixtures' campaign, made as a GM makes one: with Mudge's catalogue, which
    the pickers list."""
    campaign = campaign_create(gm=gm, name="The Watch", base_ruleset="mudge")
    for member in (player, other_player):
        Membership.objects.create(campaign=campaign, user=member)
    return campaign


@pytest.fixture
def world(campaign, player, gm):
    with_passwords(player, gm)
    return {"campaign": campaign, "player": player, "gm": gm}


def draft_with_everything(world, name="Bree"):
    """A draft with an edit to undo and one to redo, a gift that brought an attribute
    (Magery, Mana: Mudge 2.5) and a thread from the GM on a row."""
    bree = build(world["player"], world["campaign"], name)
    trait_add(
        character=bree, actor=world["player"], expected_version=None, kind="gift", name="Magery"
    )
    comment_thread_start(
        character=bree,
        actor=world["gm"],
        body="Why Climbing?",
        about=bree.traits.get(name="Climbing"),
    )
    character_undo_edit(character=bree, actor=world["player"], expected_version=None)
    return bree


def in_play(world):
    tess = approved(build(world["player"], world["campaign"], "Tess"), world["gm"])
    play_condition_add(character=tess, actor=world["player"], expected_revision=None, text="wet")
    return tess


def submitted(world):
    cato = draft_with_everything(world, "Cato")
    character_submit(character=cato, actor=world["player"], expected_version=None)
    return cato


PAGES = {
    "builder and picker": (
        "pip",
        lambda w: (
            f"/characters/{draft_with_everything(w).pk}/?template=beginning-fighter&picker=gift"
        ),
    ),
    "play": ("pip", lambda w: f"/characters/{in_play(w).pk}/play/"),
    "review": ("gwen", lambda w: f"/characters/{submitted(w).pk}/review/"),
    "sheet": ("pip", lambda w: f"/characters/{in_play(w).pk}/sheet/"),
}


@pytest.mark.parametrize("name", PAGES)
def test_every_form_answers_in_view(open_page, world, name):
    who, url = PAGES[name]
    page = open_page(PHONE)
    log_in(page, who, PASSWORD)
    problems = walk(page, lambda: url(world))
    assert not problems, "\n".join(problems)


# The rows whose remove button (the cross) sits on a line of its own: no other part of the
# row shares its line.
REMOVE_ALONE = """() => [...document.querySelectorAll("form.trait-row")].filter((row) => {
  const cross = row.querySelector(".trait-fields .remove, .gift-remove > summary");
  if (!cross) return false;
  const r = cross.getBoundingClientRect();
  const others = ".trait-fields input:not([type=hidden]), .trait-fields select, "
    + ".trait-fields button:not(.remove), .row-cost, .trait-fields label:not(.visually-hidden)";
  return ![...row.querySelectorAll(others)].some((other) => {
    const q = other.getBoundingClientRect();
    return other.offsetParent && q.height && q.top < r.bottom - 4 && q.bottom > r.top + 4;
  });
}).map((row) => row.querySelector("input[name=name]").value)"""


# Each option of the template select against the room its box leaves for words.
TEMPLATE_CUT = """() => {
  const select = document.querySelector("#template-select");
  const style = getComputedStyle(select);
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.whiteSpace = "pre";
  document.body.append(probe);
  const cut = [...select.options].filter((option) => {
    probe.textContent = option.textContent;
    return probe.getBoundingClientRect().width > room;
  }).map((option) => option.textContent);
  probe.remove();
  return cut;
}"""


def in_language(page, code):
    page.select_option("#header-language-select", code)
    with page.expect_navigation():
        page.locator("#header-language button[type=submit]").click()


@pytest.mark.parametrize("language", ["fr", "es", "de"])
def test_rows_and_the_template_picker_fit_a_phone(open_page, world, language):
    """A power's row (its long "Superpoder, en dones") keeps its remove cross beside its
    cost, and every template's name shows whole in its select."""
    bree = draft_with_everything(world)
    trait_add(
        character=bree,
        actor=world["player"],
        expected_version=None,
        kind="power",
        name="Shrink to 1 inch for up to one hour",
        cost=2,
    )
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{bree.pk}/")
    in_language(page, language)
    page.wait_for_load_state("load")
    assert page.locator("#rows-power form.trait-row").count() == 1
    assert page.evaluate(REMOVE_ALONE) == []
    assert page.evaluate(TEMPLATE_CUT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def pdf_lines(page, url, folder: Path) -> list[str]:
    """The PDF at `url` as pdftotext -layout reads it, line by line."""
    response = page.request.get(url)
    assert response.status == 200
    path = folder / "sheet.pdf"
    path.write_bytes(response.body())
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.replace("\u00a0", " ").splitlines()


def test_a_new_players_phone_evening(open_page, world, live_server, tmp_path):
    """What a new GM and two new players found, on a 375-pixel phone, each put right."""
    bree = draft_with_everything(world)
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{bree.pk}/")

    # A template's Check reloads the page: the check is on screen, below the budget chip.
    page.select_option("#template-select", "beginning-fighter")
    page.locator("#templates").get_by_role("button", name="Check").click()
    check = page.locator("#templates [role=status]")
    expect(check).to_be_focused()
    expect(check).to_be_in_viewport()
    assert check.bounding_box()["y"] >= page.locator("#budget-bar").bounding_box()["height"]

    # Blanking the name saves nothing and says why, beside the field.
    name = page.locator("#details input[name=name]")
    name.fill("")
    name.blur()  # "change": no submit, so the browser's own message would never show
    refusal = page.locator("#details [role=alert]")
    expect(refusal).to_be_in_viewport()
    expect(refusal).to_contain_text("required")
    assert Character.objects.get(pk=bree.pk).name == "Bree"

    # A gift from the picker: the answer is beside its entry, with links to the new rows
    # (Psionic, and the Psyche it brings: Mudge 2.7) and Undo, all on screen.
    page.goto(f"/characters/{bree.pk}/?picker=gift#picker-gift")
    page.get_by_role("button", name="Add Psionic").click()
    answer = page.locator("#picker-list-gift .answer")
    expect(answer).to_contain_text("Added Psionic: show it.")
    expect(answer).to_be_in_viewport()
    assert not page.evaluate(COVERED)  # over no note or button of the catalogue
    undo = answer.get_by_role("button", name="Undo: adding Psionic")
    expect(undo).to_be_in_viewport()
    answer.get_by_role("link", name="Show Psyche").click()
    expect(
        page.locator("#rows-attribute form.trait-row:has(input[value=Psyche])")
    ).to_be_in_viewport()
    page.go_back()
    answer.get_by_role("link", name="show it").click()
    psionic = page.locator("#rows-gift form.trait-row:has(input[value=Psionic])")
    expect(psionic).to_be_in_viewport()

    # Undo from down the page: its news is where the reader is, over nothing.
    psionic.scroll_into_view_if_needed()
    page.locator("#undo-edit button").first.evaluate("button => button.click()")
    news = page.locator(".messages [role=status]")
    expect(news).to_contain_text("Undone: adding Psionic.")
    expect(news).to_be_in_viewport()
    # Still down the page once the swap has settled (the page keeps its place after the
    # rows are swapped in): polled, as a reader would see it, not read mid-swap.
    assert comes_true(page, "scrollY > 1000")
    assert not covered(page)

    # Undo from the answer beside the skills picker's last entry, found by a search: the page
    # comes back with the picker open and the search as typed, the entry in view where it
    # was, and the news beside it.
    page.goto(f"/characters/{bree.pk}/?picker=skill#picker-skill")
    page.locator("#picker-skill input[type=search]").fill("writ")
    page.get_by_role("button", name="Add Writing").click()
    answer = page.locator("#picker-list-skill .answer")
    answer.get_by_role("button", name="Undo: adding Writing").click()
    # In the skills section once the page has put it there (it loads at the top).
    news = page.locator("#section-skill .messages [role=status]")
    expect(news).to_contain_text("Undone: adding Writing.")
    expect(news).to_be_in_viewport()
    assert not covered(page)
    expect(page.locator("#picker-skill")).to_have_attribute("open", "")
    expect(page.locator("#picker-skill input[type=search]")).to_have_value("writ")
    expect(page.get_by_role("button", name="Add Writing")).to_be_in_viewport()
    expect(page.locator("#picker-list-skill li.pick", has_text="Acrobatics")).to_be_hidden()

    # At the table: a trait's roll answers beside the trait; a screen on, by "Changes at
    # the table", nothing lies over the roller or the history.
    tess = in_play(world)
    page.goto(f"/characters/{tess.pk}/play/")
    page.get_by_role("button", name="Roll Climbing").click()
    roll = page.locator("#play-traits li:has-text('Climbing') .roll-result")
    expect(roll).to_contain_text("Climbing Good: rolled")
    expect(roll).to_be_in_viewport()
    page.locator("#play-history").scroll_into_view_if_needed()
    assert not covered(page)
    page.locator(".roller").scroll_into_view_if_needed()
    assert not covered(page)
    # The page's poll redraws the traits: the roll stays beside Climbing.
    page.wait_for_timeout(3500)
    expect(roll).to_be_visible()

    # In Spanish: a power's remove cross beside its cost, the template picker whole; on the PDF the
    # Scale fact and a power's level each on one line.
    trait_add(
        character=bree,
        actor=world["player"],
        expected_version=None,
        kind="power",
        name="Control Inanimate Electronic Devices",
        cost=2,
    )
    page.goto(f"/characters/{bree.pk}/")
    in_language(page, "es")
    assert page.evaluate(REMOVE_ALONE) == []
    assert page.evaluate(TEMPLATE_CUT) == []
    lines = pdf_lines(page, f"{live_server.url}/characters/{bree.pk}/sheet.pdf", tmp_path)
    assert any(re.search(r"Escala \(Fue/Masa\): 0 / 0", line) for line in lines), lines[:12]
    assert any(line.rstrip().endswith(": sin nivel") for line in lines), lines
