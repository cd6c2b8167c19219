"""Printed sheets: real PDFs from WeasyPrint, read back with pypdf and rasterised with
pdftoppm. No database: sheets are built from character files, as render_sheet does. The
layout and the print options (pages, form fields, --flat, --reference, --pencil) are
tested in test_print_layout.py."""

import hashlib
import shutil
import socket
import subprocess
import sys
from datetime import date
from pathlib import Path
from urllib.request import urlopen

import pytest
from django.contrib.staticfiles import finders
from django.utils.safestring import mark_safe
from PIL import Image
from weasyprint import HTML
from weasyprint.html import UA
from weasyprint.urls import URLFetcher

from characters import pdf
from characters.pdf import StaticFilesOnly, URLRefused, render_sheets_pdf
from characters.print_options import PrintOptions
from characters.sheets import ApprovalStamp, LedgerRow, reference_page
from characters.templatetags.print_text import isolated, unbroken
from rules.character import Character, Equipment, Power, Trait
from rules.ladder import FAIR, GOOD, GREAT
from tests.support.pdf_helpers import (
    A4,
    LETTER,
    SAMPLES,
    campaign_pack,
    embedded_fonts,
    fields,
    flat,
    pages,
    ruleset_of,
    sample,
    sheet,
    size,
    texts,
)

ROOT = Path(__file__).resolve().parents[2]
SHA = hashlib.sha256(b"Brogo the Scout, as approved").hexdigest()
OVER_BUDGET = "approved over budget by 2 skill levels: he held the bridge at Dunmoor"
FLAT = PrintOptions(fillable=False)
HOSTILE = (
    '<img src="file:///etc/passwd">',
    '<link rel="stylesheet" href="http://example.com/x.css">',
    '<img src="http://10.0.0.1/x.png">',
    "<script>alert('x')</script> & <b>bold</b>",
)


def wound_boxes(document: bytes, prefix: str = "s1") -> list[int]:
    """How many checkboxes each wound level has, in the fillable PDF."""
    counts = {}
    for name in fields(document):
        if name.startswith(f"{prefix}-wound-"):
            level = int(name.split("-")[2])
            counts[level] = counts.get(level, 0) + 1
    return [counts[level] for level in sorted(counts)]


@pytest.fixture(scope="module")
def brogo_pdf() -> bytes:
    approval = ApprovalStamp(SHA, OVER_BUDGET)
    return render_sheets_pdf([sheet(sample("brogo"), approval)])


class TestBrogo:
    """Mudge 6.3's Brogo (23 skills), approved over budget, on the default print: A4,
    fillable."""

    def test_one_a4_page(self, brogo_pdf):
        assert [size(page) for page in pages(brogo_pdf)] == [A4]

    def test_levels(self, brogo_pdf):
        text = " ".join(texts(brogo_pdf))
        for row in (
            "Strength (Scale -2): Good +1",
            "Perception: Superb +3",
            "Area Knowledge *: Good +1",
            "Elvish **: Fair 0",
            "Find Secret Passages: Terrible -3",
            "Move Quietly: Superb +3",
            "Lucky (costs 2)",
            "Halfling (scale -2, bonus to Constitution)",
            "Staff (Weapon, damage +2)",  # its kind a label, never the key (issue 39)
            "Scale (Str/Mass): -2 / -2",
        ):
            assert row in text

    def test_damage_factors(self, brogo_pdf):
        text = " ".join(texts(brogo_pdf))
        assert "Unarmed: Strength [1] + Strength Scale [-2] + Misc. [-1] = -2" in text
        assert "Staff: Strength [1] + Strength Scale [-2] + Weapon [2] = +1" in text
        # Armour left open for play reads as a word, never a lone "*" (issue 39).
        assert "Defensive: Constitution [1] + Mass Scale [-2] = -1 + armour" in text

    def test_four_scratch_boxes_to_tick(self, brogo_pdf):
        [text] = texts(brogo_pdf)
        # The rules' "1,2" printed as a range: French and Spanish read "1,2" as a decimal.
        track = (
            "WOUNDS 1\u20132 Scratch 3\u20134 Hurt (-1) 5\u20136 Very Hurt (-2) "
            "7\u20138 Incapacitated 9+ Near Death"
        )
        assert track in text
        assert wound_boxes(brogo_pdf) == [4, 2, 1, 1, 1]  # Toughness adds a Scratch box

    def test_no_reference_tables_on_the_sheet(self, brogo_pdf):
        assert "Level Roll Easy Average Hard Very Hard" not in " ".join(texts(brogo_pdf))

    def test_approval_hash_in_the_footer_and_the_override_reason_once(self, brogo_pdf):
        for text in texts(brogo_pdf):
            assert text.endswith(f"Brogo the Scout Approved · SHA-256 {SHA} Page 1 of 1")
            assert "DRAFT" not in text
        assert " ".join(texts(brogo_pdf)).count(OVER_BUDGET[1:]) == 1
        assert f"A{OVER_BUDGET[1:]}" in texts(brogo_pdf)[0]

    def test_one_letter_page(self):
        document = render_sheets_pdf([sheet(sample("brogo"))], PrintOptions("letter"))
        assert [size(page) for page in pages(document)] == [LETTER]


def test_fudge_basics_wound_track_and_draft_stamp():
    character = Character(
        ruleset="fudge-basics",
        name="Hilda of the Fens",
        attributes=(Trait("Strength", GREAT), Trait("Damage Capacity", GOOD)),
        skills=(Trait("Axe", GOOD),),
    )
    found = pages(render_sheets_pdf([sheet(character)], FLAT))
    text = found[0].extract_text()
    assert (
        "1 Scratch ☐☐☐☐☐ 2\u20133 Hurt (-1) ☐☐☐☐ 4\u20135 Very Hurt (-2) ☐☐☐ 6 Incapacitated ☐☐ "
        "7+ Near Death ☐" in flat(text)
    )
    assert "Unarmed: Strength [2] + Strength Scale [0] + Misc. [0] = +2" in flat(text)
    assert "Fudge points: 3" in flat(text)
    for page in found:
        assert "Draft · not approved" in page.extract_text()
        assert SHA not in page.extract_text()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_every_page_renders_to_a_non_blank_png(tmp_path):
    sheets = [sheet(sample(path.stem)) for path in sorted(SAMPLES.glob("*.json"))]
    document = campaign_pack("The Fens", sheets)
    (tmp_path / "pack.pdf").write_bytes(document)
    drawn = subprocess.run(
        ["pdftoppm", "-r", "30", "-gray", "-png", tmp_path / "pack.pdf", tmp_path / "page"],
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    # Each part is rendered on its own and joined: every field's font is in the pack's
    # form resources (poppler says "Unknown font tag" of one that is not).
    assert "Syntax Error" not in drawn.stderr
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == len(pages(document)) > len(sheets)
    for path in images:
        with Image.open(path) as image:
            dark = sum(image.histogram()[:128])
        assert dark > 200, f"{path.name} is blank"


def test_unicode_names_come_out_in_the_text_and_the_fonts_are_embedded():
    character = Character(
        ruleset="mudge",
        name="李小龍",
        player="Zoë Ångström-Łukasiewicz",
        concept="Maître d'armes à Genève",
        skills=(Trait("Jeet Kune Do 截拳道", GREAT), Trait("Ĉiĉerono", FAIR)),
    )
    found = pages(render_sheets_pdf([sheet(character)]))
    text = flat(found[0].extract_text())
    for name in ("李小龍", "Zoë Ångström-Łukasiewicz", "Maître d'armes à Genève"):
        assert name in text
    assert "Jeet Kune Do 截拳道: Great +2" in text
    assert "Ĉiĉerono: Fair 0" in text
    # The project's own fonts, nothing from the system: DejaVu Sans and the CJK fallback.
    fonts = embedded_fonts(found[0])
    assert {"Fairsheet-Sans", "Fairsheet-CJK"} <= fonts
    assert all(name.startswith("Fairsheet-") for name in fonts), fonts
    assert found[0].extract_text().rstrip().endswith("李小龍 Draft · not approved Page 1 of 1")


def test_hangul_and_emoji_print_as_text_in_the_shipped_fonts():
    character = Character(
        ruleset="mudge",
        name="김민준 🐉 용사냥꾼",
        concept="드래곤을 쫓는 사냥꾼 🏹",
        skills=(Trait("검술 ⚔", GREAT), Trait("Dice luck 🎲", FAIR)),
        notes="Loves kimchi 🌶️ and 떡볶이.",
    )
    found = pages(render_sheets_pdf([sheet(character)]))
    text = flat(found[0].extract_text())
    for typed in (
        "김민준 🐉 용사냥꾼",
        "드래곤을 쫓는 사냥꾼 🏹",
        "검술 ⚔: Great +2",
        "Dice luck 🎲: Fair 0",
        "떡볶이",
    ):
        assert typed in text
    fonts = embedded_fonts(found[0])
    assert {"Fairsheet-Sans", "Fairsheet-Hangul", "Fairsheet-Emoji"} <= fonts
    assert all(name.startswith("Fairsheet-") for name in fonts), fonts


def test_a_right_to_left_name_keeps_apart_from_its_note_on_paper():
    # Names are isolated (FSI ... PDI, what <bdi> does on screen). Without that, the bidi
    # algorithm reads "שלום 12 (חרב 3)" as one right-to-left run and prints the note first.
    character = Character(
        ruleset="mudge", name="Brogo", equipment=(Equipment("שלום 12", notes="חרב 3"),)
    )
    text = flat(pages(render_sheets_pdf([sheet(character)]))[0].extract_text())
    assert "שלום" in text and "חרב" in text
    assert text.index("שלום") < text.index("חרב")


def test_a_left_to_right_name_stays_ahead_of_a_right_to_left_note_without_isolates():
    # isolated leaves out the isolates when a name holds no right-to-left text: the digits
    # at its end still take the line's direction, so the note follows the whole name.
    character = Character(
        ruleset="mudge", name="Brogo", equipment=(Equipment("Sword 12", notes="חרב 3"),)
    )
    text = flat(pages(render_sheets_pdf([sheet(character)]))[0].extract_text())
    assert text.index("Sword 12") < text.index("חרב")


@pytest.mark.parametrize(
    "label, printed",
    [
        ("Très bon", "Très\u00a0bon"),
        ("Maßstab (Stärke/Masse):", '<span class="nowrap">Maßstab\u00a0(Stärke/Masse):</span>'),
        ("Méta-points :", '<span class="nowrap">Méta-points\u00a0:</span>'),
        ("A & B <i>", "A\u00a0&amp;\u00a0B\u00a0&lt;i&gt;"),  # escaped, as any text
    ],
)
def test_an_unbroken_label_has_no_place_for_a_line_to_break(label, printed):
    """No-break spaces; a slash or a hyphen, where a line may break too, puts the whole
    label in a nowrap span (tests/app/test_print_lines.py reads the printed lines)."""
    assert unbroken(label) == printed


def test_an_isolated_name_is_escaped_inside_its_isolates():
    assert isolated("<b>שלום</b> & co") == "\u2068&lt;b&gt;שלום&lt;/b&gt; &amp; co\u2069"
    assert isolated("\u0661\u0662 <i>") == "\u2068\u0661\u0662 &lt;i&gt;\u2069"  # Arabic-Indic


@pytest.mark.parametrize(
    "name",
    [
        "Sword\u05ff",  # unassigned in the Hebrew block: Pango reads it right-to-left
        "a\u202eb",  # RIGHT-TO-LEFT OVERRIDE, should a stored name ever hold one
    ],
)
def test_a_name_python_cannot_vouch_for_is_isolated(name):
    assert isolated(name) == f"\u2068{name}\u2069"


@pytest.mark.parametrize("name", ["<b>Brogo</b> & co", "12", "Sword!", "(12)", "Sword 12"])
def test_a_name_with_no_right_to_left_text_is_escaped_without_isolates(name):
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert isolated(name) == escaped


def test_a_name_already_marked_safe_is_not_escaped_twice():
    assert isolated(mark_safe("a &amp; b")) == "a &amp; b"


def test_sheets_use_weasyprints_ua_stylesheet_less_its_every_element_pseudo_rules():
    """pdf.SheetHTML drops the user-agent rules for ::marker, ::footnote-* and ::note-* (a
    sheet has none of them; they cost every element six styles). Seen in a list whose
    marker, without the ::marker rule, inherits the list's text-transform."""
    dropped = [rule.split(" {")[0] for rule in pdf._EVERY_ELEMENT_PSEUDO_RULE.findall(UA)]
    assert dropped == [
        "::marker",
        "::footnote-call",
        "::footnote-marker",
        "::note-call",
        "::note-marker",
        "::note-callback",
    ]
    source = '<ol style="list-style-type: lower-alpha; text-transform: uppercase"><li>one'
    markers = [
        pages(html(string=source, url_fetcher=StaticFilesOnly()).write_pdf())[0].extract_text()
        for html in (HTML, pdf.SheetHTML)
    ]
    assert [text.replace("ONE", "").strip() for text in markers] == ["a.", "A."]


def test_microfudged_setbacks_print_their_successes_whole():
    # DIP V.3: setbacks come from "2 successes", not "3,4"; the narrow damage column of a
    # wound track broke the word ("2 succes" / "ses"). Lines as printed, not folded.
    character = Character(ruleset="microfudged-dip", name="Mara Vex")
    text = pages(render_sheets_pdf([sheet(character)]))[0].extract_text()
    for level in ("1 success Setback", "2 successes Major Setback", "3 successes Extreme"):
        assert level in flat(text), (level, text)
    assert not any(line.strip().endswith("succes") for line in text.splitlines())


def test_microfudged_card_ratings_power_potential_and_saved_tokens():
    character = Character(
        ruleset="microfudged-dip",
        name="Mara Vex",
        attributes=(Trait("Mind", GOOD),),
        skills=(Trait("Medicine", FAIR),),
        powers=(Power("Telepathy", "field", GOOD),),
    )
    document = render_sheets_pdf([sheet(character)], FLAT)
    text = " ".join(texts(document))
    # DIP V: Good is 5 cards; VIII.1: a field of power's potential is its card rating.
    assert "ABILITIES Mind: Good 5 cards" in text
    assert "FIELDS OF EXPERTISE Medicine: Fair 4 cards" in text
    assert "FIELDS OF POWER Telepathy (potential 5): Good 5 cards" in text
    # 11 tokens: Mind 3 and Medicine 2 from Poor, Telepathy 5 from Abysmal; 1 saved.
    assert "Tokens: 11, spent 10" in text and "Saved tokens: 1" in text
    # DIP V.3: harm is a track of setbacks, not wounds fed by damage factors.
    assert "SETBACKS" in text and "Major Setback (Severe wound) (-2 cards)" in text
    assert "WOUNDS" not in text and "DAMAGE FACTORS" not in text
    # Saved tokens are spent in play: a field of the fillable sheet, beside experience.
    fillable = fields(render_sheets_pdf([sheet(character)]))
    assert fillable == {
        "s1-experience": "0",
        "s1-saved_tokens": "1",
        "s1-notes": "",
        # one box a setback: "use only the largest Setback of its type" (DIP V.3)
        "s1-wound-1-1": "/Off",
        "s1-wound-2-1": "/Off",
        "s1-wound-3-1": "/Off",
    }


def test_house_rules_extra_attributes_are_on_the_sheet():
    character = Character(
        ruleset="mudge",
        name="Investigator",
        house_rules={"extra_attributes": [{"name": "Sanity", "default": "Good"}]},
        attributes=(Trait("Strength", GREAT),),
    )
    rows = [(row.name, row.level, row.note) for row in sheet(character).attributes]
    assert rows[0] == ("Strength", "Great", "")
    assert ("Constitution", "Fair", "default") in rows
    assert rows[-1] == ("Sanity", "Good", "default")
    assert len(rows) == 8


def test_three_hundred_skills_continue_on_pages_that_say_so_never_splitting_a_row():
    names = [f"Lore of the {i:03d}th Valley" for i in range(300)]
    character = Character(
        ruleset="mudge", name="Loremaster", skills=tuple(Trait(n, GOOD) for n in names)
    )
    found = [page.extract_text() for page in pages(render_sheets_pdf([sheet(character)]))]
    assert len(found) >= 2
    for name in names:
        holding = [i for i, text in enumerate(found) if f"{name}: Good +1" in flat(text)]
        assert len(holding) == 1, name  # once, whole, on one page
    for number, text in enumerate(found, 1):
        assert "Draft · not approved" in text and "DRAFT · NOT APPROVED" in text
        assert f"Loremaster Draft · not approved Page {number} of {len(found)}" in flat(text)
        # Every page but the last says the sheet continues; every page but the first that
        # it is a continuation.
        assert ("continues on the next page" in text) is (number < len(found))
        assert ("Loremaster (continued)" in text) is (number > 1)


def test_a_short_experience_ledger_ends_the_one_page_sheet():
    ledger = [
        LedgerRow(date(2026, 3, 1), 5, "Session 1: the bridge"),
        LedgerRow(date(2026, 3, 8), -2, "Climbing Fair to Good"),
        LedgerRow(date(2026, 3, 9), -4, "Bow Good to Great", pending=True),
    ]
    document = render_sheets_pdf([sheet(sample("brogo"), ApprovalStamp(SHA), ledger)])
    [text] = texts(document)
    assert f"Approved · SHA-256 {SHA}" in text
    ledger_text = text[text.index("NOTES IN PLAY") :]
    assert "EXPERIENCE LEDGER Total: 3 XP Waiting for the GM: -4 XP 3 entries Date" in ledger_text
    assert "2026-03-01 +5 Session 1: the bridge" in ledger_text
    assert "2026-03-09 -4 Bow Good to Great (waiting for the GM)" in ledger_text
    assert ledger_text.count("Total") == 1  # once: a total is never repeated per page


def test_campaign_pack_has_a_party_summary_then_one_sheet_each_then_the_reference():
    approval = ApprovalStamp(SHA)
    brogo, dolores = sample("brogo"), sample("dolores")
    document = campaign_pack(
        "The Fens",
        [sheet(brogo, approval), sheet(dolores, approval)],
        PrintOptions(reference=True),
        reference_page(ruleset_of(brogo)),
    )
    found = texts(document)
    assert len(found) == 4  # the summary, one page each, the reference page
    summary = found[0]
    assert "The Fens: campaign pack" in summary
    assert "Brogo the Scout sample character · Medieval military scout" in summary
    assert (
        "Strength Good, Dexterity Great, Constitution Good, Speed Good, Intelligence Good, "
        "Willpower Good, Perception Superb Best: Perception Superb, Move Quietly Superb, "
        "Dexterity Great" in summary
    )
    assert "Unarmed -2 Staff +1 Defensive -1 + armour" in summary
    assert f"Approved · SHA-256 {SHA[:12]}" in summary
    starts = [i for i, text in enumerate(found) if "MUDGE CHARACTER SHEET" in text]
    assert starts == [1, 2]
    assert "Brogo the Scout" in found[1] and "Dolores Ramirez" in found[2]
    assert "Mudge: trait ladder and costs" in found[3]
    assert sum("Level Roll Easy Average Hard Very Hard" in text for text in found) == 1
    # Every wound box of the summary and of the sheets is its own field.
    boxes = [name for name in fields(document) if "-wound-" in name]
    assert len(boxes) == len(set(boxes)) == 2 * (9 + 8)  # Brogo's Toughness: 9 boxes


def test_a_pack_with_no_approved_character_says_so():
    reference = reference_page(ruleset_of(sample("brogo")))
    document = campaign_pack("The Fens", [], PrintOptions(reference=True), reference)
    found = texts(document)
    assert len(found) == 2
    assert "No approved characters yet." in found[0]
    assert "Mudge: trait ladder and costs" in found[1]
    assert fields(document) == {}


class TestUserTextIsText:
    def test_no_sheet_template_switches_escaping_off(self):
        templates = sorted((ROOT / "templates" / "sheets").glob("*.html"))
        assert [path.name for path in templates] == [
            "busy.html",
            "pack.html",
            "print.html",
            "shared.html",
            "sheet.html",
            "statblock.html",
        ]
        for path in templates:
            text = path.read_text()
            assert "|safe" not in text and "autoescape off" not in text, path.name

    @pytest.fixture
    def fetched(self, monkeypatch):
        """Every URL the renderer asks the fetcher for (the fetcher still answers)."""
        urls = []
        original = StaticFilesOnly.fetch

        def spy(fetcher, url, headers=None):
            urls.append(url)
            return original(fetcher, url, headers)

        monkeypatch.setattr(StaticFilesOnly, "fetch", spy)
        pdf._print_style.cache_clear()  # so this render fetches its stylesheet and fonts
        return urls

    def test_markup_prints_as_typed_and_fetches_nothing(self, fetched):
        character = Character(
            ruleset="mudge",
            name='<b>Brogo</b> "the" <i>Scout</i>',
            concept=HOSTILE[2],
            notes="\n".join(HOSTILE),
            personality={"<img src=x>": HOSTILE[1]},
            skills=(Trait('<img src="http://10.0.0.1/skill.png">', GOOD),),
        )
        text = flat(
            " ".join(p.extract_text() for p in pages(render_sheets_pdf([sheet(character)])))
        )
        assert '<b>Brogo</b> "the" <i>Scout</i>' in text
        for line in HOSTILE:
            assert line in text
        assert '<img src="http://10.0.0.1/skill.png">: Good +1' in text
        assert fetched, "the spy saw no fetch at all"
        assert all(pdf.static_file(url) for url in fetched)
        assert any(url.endswith("/css/sheet-print.css") for url in fetched)
        assert any(url.endswith("/fonts/DroidSansFallbackFull.ttf") for url in fetched)


class TestURLFetcher:
    @pytest.fixture
    def no_network(self, monkeypatch):
        """Any attempt to resolve a name or open a socket fails the test."""

        def refuse(*args, **kwargs):
            raise AssertionError("a network connection was attempted")

        monkeypatch.setattr(socket.socket, "connect", refuse)
        monkeypatch.setattr(socket.socket, "connect_ex", refuse)
        monkeypatch.setattr(socket, "create_connection", refuse)
        monkeypatch.setattr(socket, "getaddrinfo", refuse)

    def test_the_guard_catches_a_connection(self, no_network):
        # WeasyPrint's own fetcher would connect; the guard stops it before any packet.
        with pytest.raises(AssertionError, match="network connection"):
            URLFetcher().fetch("http://127.0.0.1:9/")
        with pytest.raises(AssertionError, match="network connection"):
            urlopen("http://127.0.0.1:9/", timeout=1)

    @pytest.mark.parametrize(
        "url",
        [
            "file:///etc/passwd",
            "http://example.com/",
            "https://127.0.0.1/",
            "ftp://x/",
            "data:text/css,body{color:red}",
            "file://example.com/etc/passwd",
            "FILE:///etc/hostname",
        ],
    )
    def test_refuses_before_any_connection(self, no_network, url):
        with pytest.raises(URLRefused, match="only Fairsheet's static files"):
            StaticFilesOnly().fetch(url)

    def test_refuses_a_path_that_climbs_out_of_static(self, no_network):
        css = Path(finders.find("css/sheet-print.css"))
        escape = f"{css.parent.as_uri()}/../../config/settings.py"
        assert (ROOT / "config" / "settings.py").is_file()
        with pytest.raises(URLRefused):
            StaticFilesOnly().fetch(escape)

    @pytest.mark.parametrize(
        ("path", "content_type"),
        [
            ("css/sheet-print.css", "text/css"),
            ("fonts/DejaVuSans.ttf", "font/ttf"),
            ("fonts/DroidSansFallbackFull.ttf", "font/ttf"),
            ("fonts/NotoSansCJKkr-Hangul.otf", "font/otf"),
            ("fonts/NotoEmoji-Regular.ttf", "font/ttf"),
        ],
    )
    def test_serves_the_projects_static_files(self, no_network, path, content_type):
        found = Path(finders.find(path))
        response = StaticFilesOnly().fetch(found.as_uri())
        assert response.read() == found.read_bytes()
        assert response.content_type == content_type


class TestRenderSheetCommand:
    def run(self, *args):
        return subprocess.run(
            [sys.executable, "manage.py", "render_sheet", *map(str, args)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def test_several_files_make_one_letter_pdf_one_page_each(self, tmp_path):
        out = tmp_path / "party.pdf"
        result = self.run(
            SAMPLES / "brogo.json", SAMPLES / "jim-bones.json", "-o", out, "--paper", "letter"
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"Wrote {out}: 2 sheets on letter paper."
        document = out.read_bytes()
        assert [size(page) for page in pages(document)] == [LETTER, LETTER]
        found = texts(document)
        assert "Brogo the Scout" in found[0] and "Jim Bones" in found[1]
        assert all("Draft · not approved" in text for text in found)
        # Each sheet's fields have names of their own: s1- Brogo's, s2- Jim's.
        values = fields(document)
        assert values["s1-points"] == "0" and values["s2-saved_tokens"] == "3"
        assert "s2-points" not in values

    def test_a4_and_fillable_are_the_default(self, tmp_path):
        out = tmp_path / "brogo.pdf"
        assert self.run(SAMPLES / "brogo.json", "-o", out).returncode == 0
        document = out.read_bytes()
        assert [size(page) for page in pages(document)] == [A4]
        assert fields(document) == {
            "s1-experience": "0",
            "s1-points": "0",
            **{f"s1-wound-1-{box}": "/Off" for box in range(1, 5)},
            **{f"s1-wound-2-{box}": "/Off" for box in range(1, 3)},
            **{f"s1-wound-{level}-1": "/Off" for level in range(3, 6)},
            "s1-notes": "",
        }

    def test_flat_has_no_form_fields_and_prints_the_values(self, tmp_path):
        out = tmp_path / "brogo.pdf"
        assert self.run(SAMPLES / "brogo.json", "-o", out, "--flat").returncode == 0
        document = out.read_bytes()
        assert fields(document) == {}
        [text] = texts(document)
        assert "Experience: 0 XP Meta points: 0" in text

    def test_pencil_leaves_experience_points_and_wounds_blank(self, tmp_path):
        out = tmp_path / "brogo.pdf"
        assert self.run(SAMPLES / "brogo.json", "-o", out, "--pencil").returncode == 0
        values = fields(out.read_bytes())
        assert values["s1-experience"] == values["s1-points"] == ""
        assert {values[name] for name in values if "-wound-" in name} == {"/Off"}
        assert self.run(SAMPLES / "brogo.json", "-o", out, "--pencil", "--flat").returncode == 0
        [text] = texts(out.read_bytes())
        assert "Experience: XP Meta points: Uncommitted: define in play" in text

    def test_reference_adds_each_rulesets_tables_once_at_the_end(self, tmp_path):
        out = tmp_path / "party.pdf"
        files = [SAMPLES / f"{stem}.json" for stem in ("brogo", "jim-bones", "lisa-benny")]
        assert self.run(*files, "-o", out, "--reference").returncode == 0
        found = texts(out.read_bytes())
        assert len(found) == 5  # three sheets, then Mudge's page and MicroFudged DIP's
        mudge, dip = found[3], found[4]
        assert "Mudge: trait ladder and costs" in mudge
        assert "Level Roll Easy Average Hard Very Hard Legendary +4" in mudge
        assert "Superb +3 4 5 6 7" in mudge  # Mudge 1.62: a Superb average skill costs 5
        assert "Terrible -3 -2 -1 0 1" in mudge
        assert "Superb 3 Great 2 Good 1 Fair 0" in mudge  # attributes, Mudge 1.61
        assert "Good → Great 4 12" in mudge  # Mudge 5.2: skill 4 XP, attribute 12
        assert "Level Roll Cards Cost" in dip and "Superb +3 7 5" in dip
        assert not any("Level Roll" in text for text in found[:3])

    def test_bad_json_exits_2_with_one_line(self, tmp_path):
        bad = tmp_path / "bad.json"
        bad.write_text('{"ruleset": "mudge", "name": "Brogo",\n  "skills": [}')
        out = tmp_path / "out.pdf"
        result = self.run(SAMPLES / "brogo.json", bad, "-o", out)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith(f"CommandError: {bad}: line 2 column 14: not valid JSON")
        assert "Traceback" not in result.stderr
        assert not out.exists()

    def test_a_bad_level_word_with_a_line_break_still_gives_one_line(self, tmp_path):
        bad = tmp_path / "bad.json"
        skill = '{"name": "A", "level": "Go\\nod"}'
        bad.write_text(f'{{"ruleset": "mudge", "name": "X", "skills": [{skill}]}}')
        result = self.run(bad, "-o", tmp_path / "out.pdf")
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith(
            f"CommandError: {bad}: skills[0].level: 'Go od' is not a level: use one of Abysmal,"
        )
