"""Printed sheets: templates/sheets/print.html through WeasyPrint.

WeasyPrint would fetch any URL a document names (http, ftp, file, data). Sheets are built
from players' text, so the fetcher here serves the project's own static files and nothing
else: any other URL is refused before a file is opened or a socket created, and the refusal
stops the render (a sheet that asks for anything else is a bug worth a loud failure).
"""

import gc
import hashlib
import inspect
import logging
import mimetypes
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from urllib import request
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from django.contrib.staticfiles import finders
from django.template.loader import get_template, render_to_string
from pypdf import PdfWriter
from weasyprint import CSS, HTML
from weasyprint.css.counters import CounterStyle
from weasyprint.html import UA, UA_FORM_STYLESHEET
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from characters.print_options import DEFAULT_PRINT, PAPER_SIZES, PrintOptions
from characters.sheets import ReferencePage, Sheet
from characters.templatetags import print_text

logger = logging.getLogger(__name__)

PRINT_STYLESHEET = "css/sheet-print.css"
PRINT_TEMPLATES = ("sheets/print.html", "sheets/sheet.html")


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


Progress = Callable[[int, int], None]  # (steps done, steps in all)


def render_sheets_pdf(
    sheets: Sequence[Sheet],
    options: PrintOptions = DEFAULT_PRINT,
    references: Iterable[ReferencePage] = (),
) -> bytes:
    """One sheet after another, each from a new page; with options.reference, then each
    distinct reference page once."""
    parts = [_sheet_part(sheet, number) for number, sheet in enumerate(sheets, 1)]
    if options.reference:
        parts += [_reference_part(page) for page in dict.fromkeys(references)]
    return _render(parts, options)


def render_campaign_pack_pdf(
    campaign_name: str,
    sheets: Sequence[Sheet],
    options: PrintOptions = DEFAULT_PRINT,
    reference: ReferencePage | None = None,
    progress: Progress | None = None,
) -> bytes:
    """A party summary, then every sheet given (the caller picks the approved ones), then
    the reference page once (with options.reference). `progress` hears of every step.

    Each part is laid out and written to a file of its own before the next is laid out,
    then the files are joined (pypdf): the memory a pack takes is one part's layout and the
    finished file, whatever the size of the party (one document of every part held a
    50-character pack's layouts at once, 1.3 GB)."""
    title = f"{campaign_name}: campaign pack"
    with_reference = options.reference and reference is not None
    parts = [{"party": True, "sheets": sheets, "title": title, "with_reference": with_reference}]
    parts += [_sheet_part(sheet, number) for number, sheet in enumerate(sheets, 1)]
    if with_reference:
        parts.append(_reference_part(reference))
    steps = len(parts) + 1  # and joining the files
    with tempfile.TemporaryDirectory(prefix="fairsheet-pack-") as folder:
        files = []
        for done, part in enumerate(parts, 1):
            path = Path(folder) / f"part-{done:04d}.pdf"
            path.write_bytes(_render([part], options))
            files.append(path)
            if progress:
                progress(done, steps)
        joined = PdfWriter()
        for path in files:
            joined.append(str(path))
        target = Path(folder) / "pack.pdf"
        with target.open("wb") as out:
            joined.write(out)
        del joined
        result = target.read_bytes()
    if progress:
        progress(steps, steps)
    return result


def _sheet_part(sheet: Sheet, number: int) -> dict:
    return {"sheet": sheet, "title": sheet.name, "prefix": f"s{number}"}


def _reference_part(page: ReferencePage) -> dict:
    return {"reference": page, "title": f"{page.ruleset_name}: reference"}


def _render(parts: list[dict], options: PrintOptions, progress: Progress | None = None) -> bytes:
    """Lays out each part as a document of its own, then writes their pages as one PDF: a
    part's page counter and draft mark stay its own, and a pack can report its progress."""
    stylesheet_path = _find_static(PRINT_STYLESHEET)
    steps = len(parts) + 1  # and writing the PDF
    # `paper` tells the partials borrowed from the screen's sheet that they print.
    common = {"page_size": PAPER_SIZES[options.paper], "options": options, "paper": True}
    # Pango's font map is not thread-safe and the parsed style shares one: one render at a
    # time per process (runserver and gunicorn's workers run threads).
    with _render_lock:
        stylesheet, fonts = _print_style(
            stylesheet_path.as_uri(), stylesheet_path.stat().st_mtime_ns
        )
        documents = []
        for done, context in enumerate(parts, 1):
            html = render_to_string("sheets/print.html", {**context, **common})
            with _collector_paused():
                document = SheetHTML(string=html, url_fetcher=StaticFilesOnly()).render(
                    stylesheets=[stylesheet], font_config=fonts, pdf_forms=options.fillable
                )
            documents.append(document)
            if progress:
                progress(done, steps)
        pages = [page for document in documents for page in document.pages]
        with _collector_paused():
            result = documents[0].copy(pages).write_pdf(pdf_forms=options.fillable)
    if progress:
        progress(steps, steps)
    return result


class SheetHTML(HTML):
    """WeasyPrint's HTML with a lighter user-agent stylesheet (_ua_stylesheet).
    `_ua_stylesheets` is WeasyPrint's internal hook (70.0, pinned); a test in
    test_sheet_pdf.py fails if a new version stops calling it."""

    def _ua_stylesheets(self, forms=False):
        return [_ua_stylesheet(), UA_FORM_STYLESHEET] if forms else [_ua_stylesheet()]


# A rule for a pseudo-element of every element: "::marker { ... }", "::footnote-call { ... }".
_EVERY_ELEMENT_PSEUDO_RULE = re.compile(r"^::[\w-]+ \{[^}]*\}$", re.MULTILINE)


@cache
def _ua_stylesheet() -> CSS:
    """WeasyPrint's user-agent stylesheet without its rules for ::marker, ::footnote-* and
    ::note-*. A sheet has no list markers (its lists are list-style: none), footnotes or
    notes, yet those six rules gave every one of its ~200 elements six pseudo-element styles
    to compute: about 7% of a render. (A numbered list on paper would lose its markers'
    tabular figures and white-space: pre.) Its @counter-style rules go to a throwaway
    CounterStyle: a document uses WeasyPrint's own, which holds them already."""
    return CSS(string=_EVERY_ELEMENT_PSEUDO_RULE.sub("", UA), counter_style=CounterStyle())


@contextmanager
def _collector_paused():
    """WeasyPrint makes ~4,000 reference cycles a page, and Python's cyclic collector ran ~25
    times during a render looking for them: paused, a render takes ~5% less. The pause is
    the whole process's (other threads' requests run without the collector meanwhile) and
    lasts a part's layout or the final write, so a pack's garbage is collected between its
    parts: the 30-character pack's worker peaked at 142 MiB, as before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def renderer_version() -> str:
    """A digest of what a PDF is made from besides the character: the print templates and
    their filters, the sheet's layout properties (sheets.py), this module (its user-agent
    stylesheet), the stylesheet and the fonts, with WeasyPrint's version. Part of a cached
    PDF's key, so a new design is never served from an old cache."""
    paths = [Path(get_template(name).origin.name) for name in PRINT_TEMPLATES]
    paths += [Path(__file__), Path(print_text.__file__), Path(inspect.getfile(Sheet))]
    paths.append(_find_static(PRINT_STYLESHEET))
    paths += sorted(_find_static("fonts/DejaVuSans.ttf").parent.glob("*.[ot]tf"))
    files = tuple((str(path), path.stat().st_mtime_ns) for path in paths)
    return _digest(files, weasyprint.__version__)


@lru_cache(maxsize=4)
def _digest(files: tuple[tuple[str, int], ...], renderer: str) -> str:
    digest = hashlib.sha256(renderer.encode())
    for path, _ in files:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


_render_lock = threading.Lock()


@lru_cache(maxsize=1)
def _print_style(url: str, modified: int) -> tuple[CSS, FontConfiguration]:
    """The print stylesheet with its fonts loaded, parsed once per process (and again when
    the file changes: `modified` is its mtime). Loading the fonts took a third of a render."""
    fonts = FontConfiguration()
    stylesheet = CSS(url=url, font_config=fonts, url_fetcher=StaticFilesOnly())
    return stylesheet, fonts
