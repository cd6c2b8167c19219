"""Issue 27: every character the texts could produce prints on one page of A4 and of
Letter (the ledger as its totals and the latest entries that fit); a file too large for
that continues on pages that say so; page labels are true in a pack; every script prints
with real glyphs. Real PDFs from WeasyPrint, read back with pypdf."""

import dataclasses
import logging
import re
import shutil
import subprocess
from datetime import date, timedelta

import pytest

from characters.pdf import render_sheets_pdf
from characters.print_options import PrintOptions
from characters.sheets import ApprovalStamp, LedgerRow
from rules.character import Character, Trait
from rules.ladder import GOOD
from tests.support.pdf_helpers import (
    LARGEST_FAULTS,
    LARGEST_SKILLS,
    campaign_pack,
    embedded_fonts,
    flat,
    largest_standard,
    pages,
    sample,
    sheet,
    texts,
)

SHA = "c0ffee" * 10 + "abcd"
# 60 entries: +3 on the even days, -2 on the odd; the last spend waits for the GM.
LEDGER = tuple(
    LedgerRow(date(2026, 1, 1) + timedelta(days=i), 3 if i % 2 == 0 else -2, f"Session {i + 1}",
              pending=i == 59)
    for i in range(60)
)  # fmt: skip
TOTAL = 30 * 3 - 29 * 2  # 32: the pending spend is left out


def ledger_rows(text: str) -> list[int]:
    """The session numbers of the ledger rows a page prints, in order."""
    return [int(n) for n in re.findall(r"2026-\d\d-\d\d [+-]\d Session (\d+)", text)]


CHARACTERS = {
    "largest standard": lambda: largest_standard(),
    "Brogo": lambda: sample("brogo"),
}


@pytest.mark.parametrize("who", CHARACTERS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_page_with_the_ledgers_totals_and_its_latest_entries(who, paper):
    character = CHARACTERS[who]()
    document = render_sheets_pdf(
        [sheet(character, ApprovalStamp(SHA), LEDGER)], PrintOptions(paper, fillable=False)
    )
    [text] = texts(document)
    assert f"Total: {TOTAL} XP Waiting for the GM: -2 XP 60 entries: the latest" in text
    assert text.count("Total") == 1
    shown = ledger_rows(text)
    assert shown and shown == list(range(61 - len(shown), 61))  # the latest, in order
    assert f"the latest {len(shown)} below" in text
    if who == "largest standard":  # everything else is there too
        for words in (
            f"Skill of the {LARGEST_SKILLS}th Valley",
            f"Fault number {LARGEST_FAULTS}",
            "Power 8",
            "Item 15",
            "What really matters to you?",
            "History and background",
        ):
            assert words in text, words
        assert "values" not in text.split("PERSONALITY AND HISTORY")[1][:40]  # not the key
        assert "Fault number 1 (worth 2)" in text and "costs" not in text


def test_pencil_leaves_the_ledgers_totals_blank_and_reference_prints_the_whole_ledger():
    options = PrintOptions("letter", fillable=False, reference=True, pencil=True)
    document = render_sheets_pdf([sheet(sample("brogo"), ApprovalStamp(SHA), LEDGER)], options)
    found = texts(document)
    assert f"Total: {TOTAL}" not in found[0] and "Total: XP Waiting for the GM: XP" in found[0]
    assert "the whole ledger on its own page at the end" in found[0]
    whole = " ".join(text for text in found if "Brogo the Scout: experience ledger" in text)
    assert ledger_rows(whole) == list(range(1, 61))


def test_three_hundred_rows_continue_and_a_packs_page_labels_are_true():
    huge = Character(
        ruleset="mudge",
        name="Loremaster",
        skills=tuple(Trait(f"Lore of the {i:03d}th Valley", GOOD) for i in range(300)),
    )
    approval = ApprovalStamp(SHA)
    document = campaign_pack("The Fens", [sheet(sample("brogo"), approval), sheet(huge, approval)])
    found = texts(document)
    total = len(found)
    assert total >= 4  # the summary, Brogo's page, two or more of the Loremaster's
    own = [re.findall(r"Page (\d+) of (\d+)", text) for text in found]
    pack = [re.findall(r"Pack page (\d+) of (\d+)", text) for text in found]
    assert pack == [[(str(n), str(total))] for n in range(1, total + 1)]
    assert own[:2] == [[("1", "1")], [("1", "1")]]  # the summary; Brogo's sheet
    assert own[2:] == [[(str(n), str(total - 2))] for n in range(1, total - 1)]
    assert "Brogo the Scout" in found[1]
    assert all("Loremaster" in text for text in found[2:])
    assert "continues on the next page" in found[2] and "continues" not in found[-1]


SCRIPTS = {
    "Latin": "Zoë Ångström-Łukasiewicz",
    "Greek": "Αλέξανδρος ο Μέγας",  # noqa: RUF001 (Greek omicron, on purpose)
    "Cyrillic": "Илья Муромец",
    "Arabic": "شهرزاد",
    "Hebrew": "דבורה הנביאה",
    "CJK": "李小龍 とうきょう",
    "Korean": "김민준",
    "emoji": "🐉🗡️🛡️",
    "symbols": "⛯ ⚔ ☐ ♞",
}


def test_every_script_prints_with_real_glyphs(caplog):
    character = Character(
        ruleset="mudge",
        name="Polyglot",
        skills=tuple(Trait(f"Lore {text}", GOOD) for text in SCRIPTS.values()),
        notes=" ".join(SCRIPTS.values()),
    )
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        document = render_sheets_pdf([sheet(character)])
    # WeasyPrint warns of every character it had to draw as an empty box (.notdef).
    assert not [r for r in caplog.records if ".notdef" in r.getMessage()]
    [page] = pages(document)
    text = flat(page.extract_text())
    for script, words in SCRIPTS.items():
        if script not in ("Arabic", "Hebrew", "emoji"):  # pypdf reorders or splits these
            assert f"Lore {words}: Good +1" in text, script
    assert "No font here can draw" not in text
    fonts = embedded_fonts(page)
    assert {"Fairsheet-Sans", "Fairsheet-CJK", "Fairsheet-Emoji", "Fairsheet-Symbols"} <= fonts


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_a_character_no_font_draws_is_named_on_the_sheet(tmp_path):
    out = tmp_path / "sheet.pdf"
    out.write_bytes(render_sheets_pdf([sheet(Character(ruleset="mudge", name="Private \ue000"))]))
    # pypdf reads nothing sensible from a page with an empty box: poppler does.
    text = flat(subprocess.run(["pdftotext", out, "-"], capture_output=True, text=True).stdout)
    assert (
        "No font here can draw 1 character of this sheet, printed as empty boxes: U+E000." in text
    )


def _with_skills(stem: str, count: int, equipment: int = 0) -> Character:
    from rules.character import Equipment

    return dataclasses.replace(
        sample(stem),
        skills=tuple(Trait(f"Skill {i} of a career", i % 5 - 2, "average") for i in range(count)),
        equipment=tuple(
            Equipment(f"Item {i}", "gear", None, None, "a note") for i in range(equipment)
        ),
    )


@pytest.mark.parametrize(
    ("character", "first_tried"),
    [
        (lambda: sample("brogo"), ""),  # Brogo holds at the first fit: it is tried
        (lambda: _with_skills("brogo", 130), "fit-1"),
        (lambda: _with_skills("brogo", 150, equipment=30), "fit-2"),
        (lambda: _with_skills("jim-bones", 160), "fit-1"),
    ],
    ids=["Brogo", "130 skills", "150 skills and 30 items", "MicroFudged, 160 skills"],
)
def test_a_sheet_starts_at_a_fit_that_may_hold_it_and_is_set_as_trying_each_sets_it(
    character, first_tried
):
    """characters.pdf._fits_to_try: the fits a sheet's rows are past (Fit.holds) are not
    laid out; the sheet is set at the fit laying out each in turn from the first finds,
    the loosest that holds it on one page, in fewer layouts."""
    from characters import pdf

    made = sheet(character())
    context = pdf._sheet_part(made, 1)
    with pdf._layouts(PrintOptions()) as lay_out:
        tried = []

        def recorded(context):
            tried.append(context["fit"].name)
            return lay_out(context)

        pdf._fit_sheet(context, recorded)
        every = []
        for fit in pdf.FITS:
            every.append(fit.name)
            document = lay_out(pdf._at_fit(context, fit))
            if len(document.pages) == 1:
                break
    assert tried[0] == first_tried
    assert tried[-1] == every[-1]  # the same fit
    assert len(tried) < len(every) or first_tried == ""
