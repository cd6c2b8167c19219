"""Issue 39: on the printed sheet a fact and a trait's value are each one piece. A line of
paper breaks before them, never inside ("Échelle (For/Masse) : -2 / -2", a power's "sans
niveau"), in French, Spanish and German as in English. Read as printed lines, with
pdftotext -layout: each value whole on one line, as many times as the sheet holds it."""

import re
import shutil
import subprocess
from collections import Counter

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from characters.pdf import render_sheets_pdf
from tests.support.pdf_helpers import sample, sheet

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils not installed"
)


def printed_lines(document: bytes, folder) -> list[str]:
    path = folder / "sheet.pdf"
    path.write_bytes(document)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.replace("\u00a0", " ").splitlines()


# Brogo: a halfling's Scale fact (-2 / -2); James: four powers with no level, their long
# names in a third of the page's width.
@pytest.mark.parametrize("language", ["en-gb", "fr", "es", "de"])
@pytest.mark.parametrize("stem", ["brogo", "james"])
def test_no_fact_or_value_breaks_inside(stem, language, tmp_path):
    with translation.override(language):
        printed = sheet(sample(stem))
        lines = printed_lines(render_sheets_pdf([printed]), tmp_path)
        colon = pgettext("label: value", ": ").replace("\u00a0", " ")
        no_level = gettext("no level")
    for label, value in printed.fixed_facts:
        assert any(label in line and value in line.split(label, 1)[1] for line in lines), (
            label,
            value,
            lines[:10],
        )
    # A value is whole where it starts a cell or a line, or follows its trait's colon.
    rows = [*printed.attributes, *printed.skills, *printed.powers]
    wanted = Counter(f"{row.level} {row.rating}".strip() if row.level else no_level for row in rows)
    found = {
        value: sum(
            len(re.findall(rf"(?:^ *|{colon}|  ){re.escape(value)}(?= |$)", line)) for line in lines
        )
        for value in wanted
    }
    assert found == dict(wanted), [line for line in lines if line.strip()][:40]
