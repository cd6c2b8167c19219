"""Issue 24: every write in the product answers where the eye is. For each write form (one
list: a new form is covered by adding it here), a refused and an accepted submission on a
375-pixel phone each put their answer, a role="alert" or role="status", inside the
viewport, beside the form that sent it; a refused form keeps what was typed and a refused
row shows the saved value again."""

import io
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from PIL import Image
from playwright.sync_api import expect

from characters.models import CommentThread
from characters.services.advancement import experience_award
from characters.services.review import character_submit
from characters.services.rulesets import designed_ruleset_save
from characters.services.threads import comment_thread_resolve, comment_thread_start
from rules.ruleset_file import blank_ruleset_file
from tests.support.browser import DESKTOP, PHONE, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, build, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Write:
    name: str
    who: str  # "player" or "gm"
    url: Callable[[dict], str]
    form: str  # the form that is sent, a selector on that page
    refuse: Callable | None  # (page, form) -> what must still show typed, or None
    accept: Callable  # (page, form)
    viewport: dict = field(default_factory=lambda: PHONE)  # the GM's party view: a desktop


def stale(page, form):
    """Another tab saved meanwhile: the page's version is behind."""
    page.evaluate(
        "document.querySelectorAll('input[name=version]')"
        ".forEach(i => i.value = Number(i.value) - 1)"
    )


def unchecked(form):
    """The server's own checks, not the browser's: min, max and required lifted."""
    form.evaluate("f => f.noValidate = true")


def typed(form, field, value):
    unchecked(form)
    form.locator(f"[name={field}]").fill(value)
    return value


def press(form, label):
    form.get_by_role("button", name=label, exact=True).click()


def builder_level(page, form):
    form.locator("select[name=level]").select_option(label="Great")


def refused_level(page, form):
    stale(page, form)
    builder_level(page, form)
    # The row shows the saved level again, not the refused one.
    expect(form.locator("select[name=level] option:checked")).to_have_text("Good")


def add_skill(name):
    def add(page, form):
        form.locator("input[name=name]").fill(name)
        press(form, "Add")
        return None

    return add


def details(name):
    def change(page, form):
        unchecked(form)
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=name]").press("Enter")

    return change


def blow(value):
    def mark(page, form):
        typed(form, "damage", value)
        press(form, "Mark")
        return value if value != "5" else None

    return mark


def spend_points(count):
    def spend(page, form):
        typed(form, "count", count)
        press(form, "Spend")
        return count if count != "1" else None

    return spend


def award(amount):
    def give(page, form):
        typed(form, "amount", amount)
        form.locator("[name=reason]").fill("a fine session")
        press(form, "Award")
        return amount if amount != "1" else None

    return give


def review(page, form):
    press(form, "Approve")


def refused_review(page, form):
    stale(page, form)
    review(page, form)


def thread_answer(page, form):
    typed(form, "body", "Because she climbed the sea walls.")
    press(form, "Send")


def thread_resolved_meanwhile(click):
    """The GM resolves the thread while the page shows it open: the click is refused. The
    thread is open again once the refusal shows, for the next load of the page."""

    def refuse(page, form):
        thread = CommentThread.objects.get(resolved_at__isnull=True)
        gm = thread.character.campaign.gm
        comment_thread_resolve(thread=thread, actor=gm)
        kept = click(page, form)
        expect(page.locator("[role=alert]:visible").last).to_be_visible()
        comment_thread_resolve(thread=thread, actor=gm, resolved=False)
        return kept

    return refuse


def refused_thread_answer(page, form):
    thread_answer(page, form)
    return "Because she climbed the sea walls."  # still typed


def thread_start(text):
    def start(page, form):
        typed(form, "body", text)
        press(form, "Start the thread")
        return None

    return start


def resolve(page, form):
    press(form, "Mark resolved")


def house_rules(value):
    def save(page, form):
        typed(form, "skill_levels", value)
        if form.locator("[name=reason]").count():
            form.locator("[name=reason]").fill("a longer campaign")
        press(form, "Save house rules")
        return value if value != "60" else None

    return save


def catalogue(name):
    def add(page, form):
        page.locator("summary", has_text="Add skill").click()  # a closed <details>
        typed(form, "name", name)
        press(form, "Add skill")
        return None

    return add


def design_start(name):
    def start(page, form):
        form.locator("input[name=start][value=blank]").check()
        typed(form, "name", name)
        press(form, "Start designing")
        return None

    return start


def design_budget(value):
    def save(page, form):
        typed(form, "skill_levels", value)
        press(form, "Save as a new version")
        return value if value != "60" else None

    return save


def new_campaign(name):
    def create(page, form):
        typed(form, "name", name)
        press(form, "Create campaign")
        return None

    return create


def token(name):
    def create(page, form):
        typed(form, "name", name)
        press(form, "Create a token")
        return None

    return create


def password(old):
    def change(page, form):
        form.locator("[name=old_password]").fill(old)
        form.locator("[name=new_password1]").fill("a-new-long-secret-42")
        form.locator("[name=new_password2]").fill("a-new-long-secret-42")
        press(form, "Change my password")
        return None

    return change


def png() -> bytes:
    picture = io.BytesIO()
    Image.new("RGB", (64, 64), (120, 60, 30)).save(picture, "PNG")
    return picture.getvalue()


def template(page, form):
    press(form, "Apply Beginning Fighter")


def refused_template(page, form):
    stale(page, form)
    template(page, form)


def upload(name, content):
    def send(page, form):
        page.locator("summary", has_text="Add a portrait").click()  # a closed <details>
        form.locator("input[type=file]").set_input_files(
            {"name": name, "mimeType": "image/png", "buffer": content}
        )
        press(form, "Upload")
        return None

    return send


def share_and_revoke(page, form):
    page.locator("summary", has_text="Share the sheet").click()
    press(form, "Make a share link")
    page.wait_for_load_state()
    # Revoked, the link's <details> comes back closed: its answer is still shown.
    press(page.locator("#share form"), "Revoke the link")


def new_session(page, form):
    page.once("dialog", lambda dialog: dialog.accept())
    press(form, "New session")


def confirm_spend(stale_first):
    def spend(page, form):
        form.get_by_role("button").click()
        confirm = page.locator("#confirm-spend form")
        expect(confirm).to_be_visible()
        if stale_first:
            stale(page, confirm)
        press(confirm, "Spend 4 XP")
        return None

    return spend


def spent_then_take_back(page, form):
    confirm_spend(False)(page, form)
    expect(page.locator("#take-back form")).to_be_visible()
    stale(page, form)
    press(page.locator("#take-back form"), "Take it back")


def take_back(page, form):
    press(page.locator("#take-back form"), "Take it back")


WRITES = [
    Write(
        "builder row",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "form.trait-row:has(input[value=Strength])",
        refused_level,
        builder_level,
    ),
    Write(
        "builder add",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "#add-skill",
        add_skill("Climbing"),  # she has it already
        add_skill("Swimming"),
    ),
    Write(
        "builder details",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "#details form",
        details(""),
        details("Bree of the Hills"),
    ),
    Write(
        "play blow",
        "player",
        lambda w: f"/characters/{w['tess'].pk}/play/",
        "form[action$='/play/blow/']",
        blow("99"),
        blow("5"),
    ),
    Write(
        "advancement points",
        "player",
        lambda w: f"/characters/{w['tess'].pk}/advancement/",
        "form[action$='/points/spend/']",
        spend_points("9"),
        spend_points("1"),
    ),
    Write(
        "advancement award",
        "gm",
        lambda w: f"/characters/{w['tess'].pk}/advancement/",
        "form.award-form",
        award("0"),
        award("1"),
    ),
    Write(
        "review",
        "gm",
        lambda w: f"/characters/{w['submitted'].pk}/review/",
        "#review-form",
        refused_review,
        review,
    ),
    Write(
        "thread answer",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "form.thread-reply",
        thread_resolved_meanwhile(refused_thread_answer),
        thread_answer,
    ),
    Write(
        "thread resolve",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "form.thread-resolve",
        thread_resolved_meanwhile(resolve),
        resolve,
    ),
    Write(
        "thread start",
        "gm",
        lambda w: f"/characters/{w['submitted'].pk}/review/",
        "#thread-start",
        thread_start(""),
        thread_start("Tell me about Cato's brother."),
    ),
    Write(
        "house rules",
        "gm",
        lambda w: f"/campaigns/{w['campaign'].pk}/house-rules/",
        "form[action$='/house-rules/']",
        house_rules("-5"),
        house_rules("60"),
    ),
    Write(
        "catalogue",
        "gm",
        lambda w: f"/campaigns/{w['campaign'].pk}/catalogue/",
        "form[action*='/catalogue/add/skill/']",
        catalogue(""),
        catalogue("Juggling"),
    ),
    Write(
        "campaign",
        "gm",
        lambda w: "/campaigns/new/",
        "form[action$='/campaigns/new/']",
        new_campaign(""),
        new_campaign("The Second Watch"),
    ),
    Write(
        "design start",
        "gm",
        lambda w: "/games/",
        "form:has(button[value=start])",
        design_start(""),
        design_start("Moor and Marsh"),
    ),
    Write(
        "design section",
        "gm",
        lambda w: f"/games/{w['design'].pk}/numbers/",
        "#design-form",
        design_budget("-5"),
        design_budget("60"),
    ),
    Write(
        "account token",
        "player",
        lambda w: "/accounts/",
        "form.token-form",
        token(""),
        token("my laptop"),
    ),
    Write(
        "template",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/?template=beginning-fighter",
        "#templates form[action$='/template/']",
        refused_template,
        template,
    ),
    Write(
        "portrait",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "form[action$='/portrait/upload/']",
        upload("notes.png", b"GIF89a, not a picture at all"),
        upload("bree.png", png()),
    ),
    Write(
        "share link",
        "player",
        lambda w: f"/characters/{w['draft'].pk}/",
        "form[action$='/share/']",
        None,
        share_and_revoke,
    ),
    Write(
        "new session",
        "gm",
        lambda w: f"/campaigns/{w['campaign'].pk}/party/",
        "form[action$='/new-session/']",
        None,
        new_session,
        DESKTOP,
    ),
    Write(
        "experience spend",
        "player",
        lambda w: f"/characters/{w['tess'].pk}/advancement/",
        ".spend-option:has-text('Raise Climbing') form",
        confirm_spend(stale_first=True),
        confirm_spend(stale_first=False),
    ),
    Write(
        "experience take back",
        "player",
        lambda w: f"/characters/{w['tess'].pk}/advancement/",
        ".spend-option:has-text('Raise Climbing') form",
        spent_then_take_back,
        take_back,
    ),
    Write(
        "account password",
        "player",
        lambda w: "/accounts/password/",
        "main form",
        password("not my password"),
        password(PASSWORD),
    ),
]


@pytest.fixture
def world(campaign, tess, player, other_player, gm):
    with_passwords(gm, player)
    experience_award(character=tess, actor=gm, amount=4, reason="Session 1")
    draft = build(player, campaign, "Bree")
    submitted = build(other_player, campaign, "Cato")
    character_submit(character=submitted, actor=other_player, expected_version=None)
    climbing = draft.traits.get(name="Climbing")
    comment_thread_start(character=draft, actor=gm, body="Why Climbing?", about=climbing)
    design = designed_ruleset_save(owner=gm, file=blank_ruleset_file()).ruleset
    return {
        "campaign": campaign,
        "tess": tess,
        "draft": draft,
        "submitted": submitted,
        "design": design,
    }


def answer_in_view(page, role, viewport=PHONE):
    """The newest answer of that role is shown, inside the viewport, and has the focus or
    holds it. A confirmation box is a line of its own, never squeezed in beside the
    controls of a row (a select and its button, the buttons of a page's head); a word like
    the catalogue's "Saved" stays beside its row."""
    answer = page.locator(f"[role={role}]:visible").last
    expect(answer).to_be_visible()
    expect(answer).to_be_in_viewport(ratio=1)
    if role == "status" and answer.evaluate("a => a.classList.contains('message')"):
        assert answer.bounding_box()["width"] > viewport["width"] * 0.6, answer.inner_text()
    return answer


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_every_write_answers_in_view(open_page, world, write):
    page = open_page(write.viewport)
    log_in(page, {"player": "pip", "gm": "gwen"}[write.who], PASSWORD)
    url = write.url(world)

    if write.refuse is not None:  # some writes have nothing to refuse
        page.goto(url)
        form = page.locator(write.form).first
        form.scroll_into_view_if_needed()
        kept = write.refuse(page, form)
        page.wait_for_load_state()
        answer_in_view(page, "alert")
        if kept is not None:  # a refused form keeps what was typed
            assert kept in page.locator(write.form).first.evaluate(
                "f => [...f.elements].map(e => e.value).join(' ')"
            )

    page.goto(url)
    form = page.locator(write.form).first
    form.scroll_into_view_if_needed()
    write.accept(page, form)
    page.wait_for_load_state()
    answer_in_view(page, "status", write.viewport)
    assert not page.locator("[role=alert]:visible").count(), write.name
