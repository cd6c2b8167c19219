"""Printed sheets: templates/sheets/print.html through WeasyPrint.

WeasyPrint would fetch any URL a document names (http, ftp, file, data). Sheets are built
from players' text, so the fetcher here serves the project's own static files and nothing
else: any other URL is refused before a file is opened or a socket created, and the refusal
stops the render (a sheet that asks for anything else is a bug worth a loud failure).
"""

import base64
import gc
import hashlib
import inspect
import io
import logging
import mimetypes
import re
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, is_dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import BinaryIO
from urllib import request
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from django.contrib.staticfiles import finders
from django.template.loader import get_template, render_to_string
from django.utils.translation import gettext as _
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, NameObject
from weasyprint import CSS, HTML
from weasyprint.css.counters import CounterStyle
from weasyprint.formatting_structure.boxes import TableRowBox
from weasyprint.html import UA, UA_FORM
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from characters.print_options import DEFAULT_PRINT, PAPER_SIZES, PrintOptions
from characters.sheets import ReferencePage, Sheet

logger = logging.getLogger(__name__)

PRINT_STYLESHEET = "css/sheet-print.css"
PRINT_TEMPLATES = ("sheets/print.html", "sheets/sheet.html")
# The print templates' filters, read by renderer_version as a file (a template tag library
# is loaded by the templates, never imported here).
PRINT_FILTERS = Path(__file__).parent / "templatetags" / "print_text.py"


class URLRefused(FatalURLFetchingError):
    """A document asked for something other than one of Fairsheet's static files."""


# Fonts from Debian's fonts-noto-core (scripts/bootstrap.sh installs it), for the symbols the
# shipped fonts lack (⛯, ♈, ⚕...): CSS family name -> file. A font missing from the system
# is left out; the sheet then lists the characters it cannot draw.
SYSTEM_FONTS = {
    "Fairsheet Symbols": Path("/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf"),
    "Fairsheet Symbols 2": Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
}


def static_file(url: str) -> Path | None:
    """The file a file:// URL names, if it lies inside a static files directory or is one
    of the system fonts the sheet uses."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(url2pathname(parts.path)).resolve()
    if not path.is_file():
        return None
    if path in {font.resolve() for font in _system_fonts().values()}:
        return path
    return path if any(path.is_relative_to(root) for root in _static_roots()) else None


@cache
def _system_fonts() -> dict[str, Path]:
    return {family: path for family, path in SYSTEM_FONTS.items() if path.is_file()}


def _font_files() -> list[Path]:
    """Every font a sheet may draw with: the shipped ones, then the system's."""
    shipped = sorted(_find_static("fonts/DejaVuSans.ttf").parent.glob("*.[ot]tf"))
    return shipped + list(_system_fonts().values())


@cache
def _drawable() -> frozenset[int]:
    """The code points some font of the sheet's has a glyph for (read once per process)."""
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency, only needed here

    found = set()
    for path in _font_files():
        if path.name != "DejaVuSans-Forms.ttf":  # the form fields' Latin-1 subset
            found.update(TTFont(path, lazy=True).getBestCmap())
    return frozenset(found)


# Characters drawn with no glyph of their own: spaces, controls, joiners, variation selectors.
_INVISIBLE = frozenset(("Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"))


def undrawable(text: str) -> str:
    """The characters of `text` no font of the sheet's can draw, in order, once each."""
    drawable = _drawable()
    return "".join(
        char
        for char in dict.fromkeys(text)
        if ord(char) not in drawable and unicodedata.category(char) not in _INVISIBLE
    )


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


PORTRAIT_DATA = "data:image/jpeg;base64,"  # adapters.portrait_data_url


class StaticFilesOnly(URLFetcher):
    """Serves static files from disk; refuses every other URL without opening anything."""

    def __init__(self):
        # Skip URLFetcher's handlers: nothing here opens a URL, so no HTTP, FTP or TLS
        # machinery is built (TLS set-up alone cost ~50 ms a render). Read errors stop the
        # render instead of leaving a sheet without its fonts.
        request.OpenerDirector.__init__(self)
        self._fail_on_errors = True

    def fetch(self, url, headers=None):
        if url.startswith(PORTRAIT_DATA):  # a portrait, drawn by characters.images
            content = base64.b64decode(url[len(PORTRAIT_DATA) :], validate=True)
            return URLFetcherResponse(url, content, {"Content-Type": "image/jpeg"})
        path = static_file(url)
        if path is None:
            shown = url if len(url) <= 120 else f"{url[:120]}..."
            logger.warning("Refused to fetch %s for a PDF", shown)
            raise URLRefused(f"refused {shown}: only Fairsheet's static files are served")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


Progress = Callable[[int, int], None]  # (steps done, steps in all)


@dataclass(frozen=True)
class Fit:
    """How tightly a sheet is set: the body's class (type size, spacing: the stylesheet) and
    how many columns each list takes. Tried in order until the sheet holds on one page,
    from the first whose `holds` the sheet's rows there are not past (_fits_to_try)."""

    name: str
    attributes: int
    skills: int  # skills and powers
    items: int  # gifts, and beside them faults
    equipment: int
    line: int  # about how many characters of the story's prose a line holds
    # The most rows (_rows_at) of any sheet this fit held on one page of A4, a tenth more:
    # of 230 made up of Mudge's and MicroFudged's samples (10 to 170 skills, up to 60 pieces
    # of equipment, 6,500 characters of prose), none past it held. Letter holds less. After
    # a change to the stylesheet, `python -m bench.fits` says whether it still holds.
    holds: int


FITS = (
    Fit("", attributes=4, skills=3, items=1, equipment=3, line=180, holds=51),
    Fit("fit-1", attributes=4, skills=4, items=2, equipment=3, line=180, holds=48),
    Fit("fit-2", attributes=5, skills=4, items=2, equipment=4, line=208, holds=59),
    Fit("fit-3", attributes=5, skills=5, items=3, equipment=4, line=225, holds=58),
)
# A page holds fewer ledger rows than this at any fit: more are never laid out on a sheet.
LEDGER_MOST = 60


def render_sheets_pdf(
    sheets: Sequence[Sheet],
    options: PrintOptions = DEFAULT_PRINT,
    references: Iterable[ReferencePage] = (),
) -> bytes:
    """One sheet after another, each from a new page; with options.reference, then each
    distinct reference page once and the whole ledger of each sheet that printed only its
    latest entries."""
    parts = [_sheet_part(sheet, number) for number, sheet in enumerate(sheets, 1)]
    if options.reference:
        parts += [_reference_part(page) for page in dict.fromkeys(references)]
    return _render(parts, options)


@dataclass(frozen=True)
class NpcCard:
    """An NPC on a printed card: its sheet, and a wound track for each member of a group."""

    sheet: Sheet
    group_size: int = 1

    @property
    def members(self) -> range:
        return range(1, self.group_size + 1)


NPC_CARDS_A_ROW = 2


def render_npc_cards_pdf(title: str, cards: Sequence[NpcCard], paper: str = "a4") -> bytes:
    """The NPCs' cards, two a row and as many rows a page as fit (a row is never split),
    flat (the boxes are for a pencil). Names and everything the GM typed are escaped by the
    template, and the renderer fetches only packaged files (StaticFilesOnly)."""
    options = PrintOptions(paper=paper, fillable=False)
    return _render([_npc_cards_part(title, cards)], options)


def _npc_cards_part(title: str, cards: Sequence[NpcCard]) -> dict:
    pairs = [list(cards[i : i + NPC_CARDS_A_ROW]) for i in range(0, len(cards), NPC_CARDS_A_ROW)]
    for pair in pairs:
        pair += [None] * (NPC_CARDS_A_ROW - len(pair))
    return {"npc_cards": pairs, "title": title}


def render_campaign_pack_pdf(
    output: BinaryIO,
    campaign_name: str,
    sheets: Sequence[Sheet],
    options: PrintOptions = DEFAULT_PRINT,
    reference: ReferencePage | None = None,
    progress: Progress | None = None,
    npc_cards: Sequence[NpcCard] = (),
) -> None:
    """Writes to `output` a party summary, then every sheet given (the caller picks the
    approved ones), then the GM's NPCs on cards (if any), then the reference page once
    (with options.reference). `progress` hears
    of every step. Each page also carries the pack's own running count ("Pack page 3 of 7").

    Each part is laid out and written to a file of its own before the next is laid out
    (and the render lock is let go between parts, so sheets asked for meanwhile are not
    kept waiting for the whole pack); the files are then joined (pypdf) into `output`. A
    pack's memory is one part's layout and the joined pages, compressed, whatever the size
    of the party: one document of every part held a 50-character pack's layouts at once,
    1.3 GB."""
    title = _("{campaign}: campaign pack").format(campaign=campaign_name)
    with_reference = options.reference and reference is not None
    parts = [{"party": True, "sheets": sheets, "title": title, "with_reference": with_reference}]
    parts += [_sheet_part(sheet, number) for number, sheet in enumerate(sheets, 1)]
    if npc_cards:
        cards_title = _("{campaign}: NPC cards").format(campaign=campaign_name)
        parts.append(_npc_cards_part(cards_title, npc_cards))
    if with_reference:
        parts.append(_reference_part(reference))
    steps = len(parts) + 1  # and joining the files
    with tempfile.TemporaryDirectory(prefix="fairsheet-pack-") as folder:
        files, whole_ledgers = [], []

        def write_out(document) -> None:
            files.append((Path(folder) / f"part-{len(files):04d}.pdf", len(document.pages)))
            with _collector_paused():
                document.write_pdf(files[-1][0], pdf_forms=options.fillable)

        for done, context in enumerate(parts, 1):
            with _layouts(options) as lay_out:
                whole_ledgers += _lay_out_part(context, lay_out, options, write_out)
            if progress:
                progress(done, steps)
        for context in whole_ledgers:
            with _layouts(options) as lay_out:
                write_out(lay_out(context))
        total = sum(pages for _, pages in files)
        with _layouts(options) as lay_out:
            count = lay_out({"pack_pages": range(total), "title": "pack"})
            with _collector_paused():
                overlay = count.write_pdf()
        _join([path for path, _ in files], overlay, output)
    if progress:
        progress(steps, steps)


def _sheet_part(sheet: Sheet, number: int) -> dict:
    missing = undrawable("".join(_texts(sheet)))
    return {"sheet": sheet, "title": sheet.name, "prefix": f"s{number}", "undrawable": missing}


def _texts(value) -> Iterable[str]:
    """Every string in a sheet's values (repr would escape what Python cannot print)."""
    if isinstance(value, str):
        yield value
    elif is_dataclass(value):
        for item in fields(value):
            yield from _texts(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _texts(item)


def _reference_part(page: ReferencePage) -> dict:
    return {"reference": page, "title": _("{ruleset}: reference").format(ruleset=page.ruleset_name)}


def _render(parts: list[dict], options: PrintOptions) -> bytes:
    """Lays out each part as a document of its own, then writes their pages as one PDF: a
    part's page counter and draft mark stay its own."""
    documents, whole_ledgers = [], []
    with _layouts(options) as lay_out:
        for context in parts:
            whole_ledgers += _lay_out_part(context, lay_out, options, documents.append)
        documents += [lay_out(context) for context in whole_ledgers]
        pages = [page for document in documents for page in document.pages]
        with _collector_paused():
            return documents[0].copy(pages).write_pdf(pdf_forms=options.fillable)


@contextmanager
def _layouts(options: PrintOptions):
    """A function laying out one part's context, while this process's render lock is held.
    Pango's font map is not thread-safe and the parsed style shares one: one render at a
    time per process (runserver and gunicorn's workers run threads)."""
    stylesheet_path = _find_static(PRINT_STYLESHEET)
    # `paper` tells the partials borrowed from the screen's sheet that they print.
    common = {"page_size": PAPER_SIZES[options.paper], "options": options, "paper": True}
    with _render_lock:
        stylesheets, fonts = _print_style(
            stylesheet_path.as_uri(), stylesheet_path.stat().st_mtime_ns
        )

        def lay_out(context: dict):
            html = render_to_string("sheets/print.html", {**context, **common})
            with _collector_paused():
                return SheetHTML(string=html, url_fetcher=StaticFilesOnly()).render(
                    stylesheets=stylesheets,
                    font_config=fonts,
                    pdf_forms=options.fillable,
                )

        yield lay_out


def _lay_out_part(context: dict, lay_out: Callable, options: PrintOptions, keep) -> list[dict]:
    """Lays out one part and hands its document to `keep`; returns the whole ledger to print
    after everything (with the reference) when a sheet's had to be cut short."""
    if "sheet" not in context:
        keep(lay_out(context))
        return []
    document, trimmed = _fit_sheet(context, lay_out)
    keep(document)
    if trimmed and options.reference:
        return [{**context, "sheet": None, "whole_ledger": context["sheet"]}]
    return []


def _fit_sheet(context: dict, lay_out: Callable) -> tuple:
    """The sheet laid out on one page: at each fit in turn, with as many of the latest
    ledger entries as the page holds under everything else (the ledger prints last). Only
    a sheet that even the tightest fit cannot hold spills, onto pages that say it continues.
    Returns the document and whether the ledger was cut short."""
    sheet = context["sheet"]
    latest = sheet.ledger[-LEDGER_MOST:]
    for fit in _fits_to_try(sheet):
        fitted = _at_fit(context, fit)
        document = lay_out(
            {**fitted, "ledger_rows": latest, "ledger_earlier": len(sheet.ledger) - len(latest)}
        )
        if len(document.pages) == 1:
            return document, len(latest) < len(sheet.ledger)
        shown = _ledger_rows_on(document.pages[0]) if sheet.ledger else None
        if shown is None:  # something besides the ledger spills: tighten
            continue
        # Everything else is on the first page: keep the entries that fit there, less one
        # for the line saying how many are left out.
        for keep in range(max(min(shown, len(latest)) - 1, 0), -1, -1):
            rows = latest[len(latest) - keep :] if keep else ()
            document = lay_out(
                {**fitted, "ledger_rows": rows, "ledger_earlier": len(sheet.ledger) - keep}
            )
            if len(document.pages) == 1:
                return document, True
    return document, bool(sheet.ledger)


def _at_fit(context: dict, fit: Fit) -> dict:
    """A sheet part's context set at `fit`: its class and its gifts and faults' columns."""
    return {**context, "fit": fit, "gift_fault_rows": context["sheet"].gift_fault_grid(fit.items)}


def _fits_to_try(sheet: Sheet) -> tuple[Fit, ...]:
    """The fits from the first that may hold the sheet on one page: each that it is past
    (Fit.holds) never would, and a layout costs as much as the sheet's render (a 75-skill
    sheet was laid out twice, 0.8 s, where the second fit alone holds it). A sheet past
    every fit goes to the tightest, where it continues on pages that say so."""
    for n, fit in enumerate(FITS):
        if _rows_at(sheet, fit) <= fit.holds:
            return FITS[n:]
    return FITS[-1:]


def _rows_at(sheet: Sheet, fit: Fit) -> float:
    """About how many rows the sheet's lists and prose take at `fit`, the ledger left out
    (it prints last, as many of its latest entries as the page has room for)."""
    text = sum(len(answer) for _, answer in sheet.personality) + len(sheet.notes)
    return (
        -(-len(sheet.attributes) // fit.attributes)
        + -(-(len(sheet.skills) + len(sheet.powers)) // fit.skills)
        + -(-max(len(sheet.gifts), len(sheet.faults)) // fit.items)
        + -(-len(sheet.equipment) // fit.equipment)
        + text / fit.line
    )


def _ledger_rows_on(page) -> int | None:
    """How many ledger rows a laid-out page holds, or None if the ledger does not start on
    it (WeasyPrint's box tree: a row is never split, break-inside: avoid)."""
    found, rows = False, 0
    boxes = [page._page_box]
    while boxes:
        box = boxes.pop()
        classes = (box.element.get("class") or "").split() if box.element is not None else ()
        if "ledger" in classes and box.element_tag == "section":
            found = True
        if "ledger-row" in classes and isinstance(box, TableRowBox):
            rows += 1
        boxes.extend(getattr(box, "children", ()))
    return rows if found else None


def _join(files: list[Path], count: bytes, output: BinaryIO) -> None:
    """Writes the parts' files to `output` as one PDF, with the pack's running count ("Pack
    page 3 of 7", one page of `count` each) drawn over the foot of each page, where each
    part's own "Page 1 of 1" runs."""
    pack = PdfWriter()
    fonts = {}
    for path in files:
        part = PdfReader(path)
        pack.append(part)
        form = part.trailer["/Root"].get("/AcroForm")
        if form is not None:  # the fonts its fields' appearances name ("/PQJETK 10 Tf")
            for name, font in form.get_object().get("/DR", {}).get("/Font", {}).items():
                fonts.setdefault(name, font.get_object().clone(pack))
    if fonts:  # pypdf keeps the first part's; every part's fields need their own
        resources = pack.root_object["/AcroForm"].setdefault(NameObject("/DR"), DictionaryObject())
        known = resources.setdefault(NameObject("/Font"), DictionaryObject())
        for name, font in fonts.items():
            known.setdefault(NameObject(name), pack._add_object(font))
    overlay = PdfReader(io.BytesIO(count))
    for page, stamp in zip(pack.pages, overlay.pages, strict=True):
        page.merge_page(stamp, over=True)
        # merge_page leaves the page's drawing decoded: compressed again at once, the pack
        # is a tenth of the size (50 of the largest characters: 42.0 MiB before, 3.7 after)
        # and memory holds one page's drawing decoded, not every page's. The fonts are
        # subset once per part (a third of what is left), as each part is its own document.
        page.compress_content_streams()
    pack.write(output)


class SheetHTML(HTML):
    """WeasyPrint's HTML with a lighter user-agent stylesheet (_ua_stylesheet).
    `_ua_stylesheets` is WeasyPrint's internal hook (70.0, pinned); a test in
    test_sheet_pdf.py fails if a new version stops calling it."""

    def _ua_stylesheets(self, forms=False):
        return [_ua_stylesheet(forms)]


# A rule for a pseudo-element of every element: "::marker { ... }", "::footnote-call { ... }".
_EVERY_ELEMENT_PSEUDO_RULE = re.compile(r"^::[\w-]+ \{[^}]*\}$", re.MULTILINE)


@cache
def _ua_stylesheet(forms: bool) -> CSS:
    """WeasyPrint's user-agent stylesheet without its rules for ::marker, ::footnote-* and
    ::note-*. A sheet has no list markers (its lists are list-style: none), footnotes or
    notes, yet those six rules gave every one of its ~200 elements six pseudo-element styles
    to compute: about 7% of a render. (A numbered list on paper would lose its markers'
    tabular figures and white-space: pre.) Its @counter-style rules go to a throwaway
    CounterStyle: a document uses WeasyPrint's own, which holds them already.

    With `forms`, WeasyPrint's form fields' rules follow in the same stylesheet (the same
    origin and order as its two): every element is matched against each stylesheet in
    turn (one less: 0.4% fewer function calls a fillable render)."""
    text = _EVERY_ELEMENT_PSEUDO_RULE.sub("", UA) + (UA_FORM if forms else "")
    return CSS(string=text, counter_style=CounterStyle())


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
    paths += [Path(__file__), PRINT_FILTERS, Path(inspect.getfile(Sheet))]
    paths.append(_find_static(PRINT_STYLESHEET))
    paths += _font_files()
    files = tuple((str(path), path.stat().st_mtime_ns) for path in paths)
    return _digest(files, weasyprint.__version__)


@lru_cache(maxsize=4)
def _digest(files: tuple[tuple[str, int], ...], renderer: str) -> str:
    digest = hashlib.sha256(renderer.encode())
    for path, _size in files:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


_render_lock = threading.Lock()


@lru_cache(maxsize=1)
def _print_style(url: str, modified: int) -> tuple[list[CSS], FontConfiguration]:
    """The print stylesheet and the system fonts' faces, with their fonts loaded, parsed once
    per process (and again when the file changes: `modified` is its mtime). Loading the
    fonts took a third of a render. The faces end the print stylesheet rather than make one
    of their own: every element is matched against each stylesheet in turn."""
    fonts = FontConfiguration()
    fetcher = StaticFilesOnly()
    faces = "".join(
        f'@font-face {{ font-family: "{family}"; src: url("{path.as_uri()}"); }}'
        for family, path in _system_fonts().items()
    )
    text = fetcher.fetch(url).read().decode() + faces
    return [CSS(string=text, base_url=url, font_config=fonts, url_fetcher=fetcher)], fonts
