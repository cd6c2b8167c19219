"""Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by Playwright,
talking only to the live server on 127.0.0.1. A pytest plugin, registered in conftest.py:
a second session-wide Playwright in the same process would fail."""

import os
import time

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
# Chromium otherwise reaches for Google's services at start; this machine has no network
# and the tests must never leave 127.0.0.1.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, live_server):
    """open_page(viewport=DESKTOP) -> a fresh page in its own context (own cookies). Every
    request to anything but the live server is aborted and recorded, and the test fails."""
    contexts, foreign = [], []

    def route(route):
        url = route.request.url
        if url.startswith(live_server.url) or url.startswith("data:"):
            return route.continue_()
        foreign.append(url)
        return route.abort()

    def open_page(viewport=DESKTOP):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        context.site_url = live_server.url  # where log_in's session cookie belongs
        context.route("**/*", route)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    assert not foreign, f"the page tried to reach beyond 127.0.0.1: {foreign}"


def log_in(page, username, password):
    """Signed in as the log-in form signs one in (the password checked, Django's login(), a
    session row), its session cookie set in the page's browser context directly: no form page
    to load, post and follow to the table. The form itself, in a browser, is
    log_in_with_the_form's, which one journey keeps using."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    assert client.login(username=username, password=password), f"{username} cannot log in"
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "url": page.context.site_url}]
    )


def log_in_with_the_form(page, username, password):
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def fits_the_screen(page) -> bool:
    """Nothing spills sideways. Measured once the page has loaded: a stylesheet linked in
    the body (the builder's) may still be on its way when the text is already there."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def comes_true(page, expression: str, *, seconds: float = 5) -> bool:
    """Whether `expression` holds in the page within `seconds`, looked at every 100 ms.
    Not Playwright's wait_for_function: it evals its predicate in the page, which the site's
    CSP (no 'unsafe-eval') refuses whenever the first look finds it false; evaluate is not
    bound by the page's CSP."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)
    return True
