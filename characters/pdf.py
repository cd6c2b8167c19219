"""Printed sheets: templates/sheets/print.html through WeasyPrint.

WeasyPrint would fetch any URL a document names (http, ftp, file, data). Sheets are built
from players' text, so the fetcher here serves the project's own static files and nothing
else: any other URL is refused before a file is opened or a socket created, and the refusal
stops the render (a sheet that asks for anything else is a bug worth a loud failure).
"""

import logging
import mimetypes
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from urllib import request
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from characters.sheets import Sheet

logger = logging.getLogger(__name__)

PAPER_SIZES = {"a4": "A4", "letter": "letter"}  # ?paper= and --paper -> CSS @page size
PRINT_STYLESHEET = "css/sheet-print.css"


class URLRefused(FatalURLFetchingError):
    """A document asked for something other than one of Fairsheet's static files."""


def static_file(url: str) -> Path | None:
    """The file a file:// URL names, if it lies inside a static files directory."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(url2pathname(parts.path)).resolve()
    if not path.is_file():
        return None
    return path if any(path.is_relative_to(root) for root in _static_roots()) else None


def _static_roots() -> list[Path]:
    # The directories the staticfiles finders search: STATICFILES_DIRS and app static dirs.
    return [
        Path(storage.location).resolve()
        for finder in finders.get_finders()
        for storage in getattr(finder, "storages", {}).values()
    ]


def _find_static(relative_path: str) -> Path:
    found = finders.find(relative_path)
    if found is None:
        raise FileNotFoundError(f"static file {relative_path!r} is missing")
    return Path(found).resolve()


class StaticFilesOnly(URLFetcher):
    """Serves static files from disk; refuses every other URL without opening anything."""

    def __init__(self):
        # Skip URLFetcher's handlers: nothing here opens a URL, so no HTTP, FTP or TLS
        # machinery is built (TLS set-up alone cost ~50 ms a render). Read errors stop the
        # render instead of leaving a sheet without its fonts.
        request.OpenerDirector.__init__(self)
        self._fail_on_errors = True

    def fetch(self, url, headers=None):
        path = static_file(url)
        if path is None:
            shown = url if len(url) <= 120 else f"{url[:120]}..."
            logger.warning("Refused to fetch %s for a PDF", shown)
            raise URLRefused(f"refused {shown}: only Fairsheet's static files are served")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


def render_sheets_pdf(sheets: Sequence[Sheet], paper: str = "a4") -> bytes:
    """One sheet after another, each starting on a new page."""
    title = sheets[0].name if len(sheets) == 1 else "Character sheets"
    return _render({"sheets": sheets, "title": title}, paper)


def render_campaign_pack_pdf(campaign_name: str, sheets: Sequence[Sheet], paper="a4") -> bytes:
    """A party summary page, then every sheet given (the caller picks the approved ones)."""
    context = {"sheets": sheets, "title": f"{campaign_name}: campaign pack", "party": True}
    return _render(context, paper)


def _render(context: dict, paper: str) -> bytes:
    html = render_to_string(
        "sheets/print.html", {**context, "page_size": PAPER_SIZES[paper], "screen": False}
    )
    stylesheet_path = _find_static(PRINT_STYLESHEET)
    # Pango's font map is not thread-safe and the parsed style shares one: one render at a
    # time per process (runserver is threaded; gunicorn's sync workers are not).
    with _render_lock:
        stylesheet, fonts = _print_style(
            stylesheet_path.as_uri(), stylesheet_path.stat().st_mtime_ns
        )
        document = HTML(string=html, url_fetcher=StaticFilesOnly())
        return document.write_pdf(stylesheets=[stylesheet], font_config=fonts)


_render_lock = threading.Lock()


@lru_cache(maxsize=1)
def _print_style(url: str, modified: int) -> tuple[CSS, FontConfiguration]:
    """The print stylesheet with its fonts loaded, parsed once per process (and again when
    the file changes: `modified` is its mtime). Loading the fonts took a third of a render."""
    fonts = FontConfiguration()
    stylesheet = CSS(url=url, font_config=fonts, url_fetcher=StaticFilesOnly())
    return stylesheet, fonts
