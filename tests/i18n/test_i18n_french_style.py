"""French and Spanish read as a native player writes them (the French/Spanish walk): wound
ranges are ranges, not decimals; dates name the month the language's way; names and trait
names need no elision or agreement; a label and its value take French punctuation; the GM
is told what the GM needs; under a minute is "just now"."""

from datetime import UTC, datetime, timedelta

import polib
import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from characters import states
from characters.models import Submission
from characters.sheets import build_sheet, damage_numbers
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import submitted
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.pdf_helpers import ruleset_of, sample

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("1,2", "1\u20132"),
        ("5,6", "5\u20136"),
        ("7,8,9", "7\u20139"),
        ("1,3", "1, 3"),
        ("6", "6"),
        ("9+", "9+"),
    ],
)
def test_a_wound_range_is_a_range_not_a_decimal(written, shown):
    assert damage_numbers(written) == shown


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("fr", "27 nov. 2026 00:56|27 nov. 2026|27 nov., 00:56|27/11/2026"),
        ("es", "27 nov 2026 00:56|27 nov 2026|27 nov, 00:56|27/11/2026"),
        ("en-gb", "27 Nov 2026 00:56|27 Nov 2026|27 Nov, 00:56|2026-11-27"),
    ],
)
def test_dates_name_the_month_in_the_language(language, shown):
    when = datetime(2026, 11, 27, 0, 56, tzinfo=UTC)
    template = Template(
        '{{ d|date:_("j M Y H:i") }}|{{ d|date:_("j M Y") }}|{{ d|date:_("j M, H:i") }}'
        '|{{ d|date:_("Y-m-d") }}'
    )
    with translation.override(language), timezone.override(UTC):
        assert template.render(Context({"d": when})) == shown


def test_french_needs_no_elision_with_a_name():
    with translation.override("fr"):
        assert (
            gettext("Level of {name}").format(name="Intelligence") == f"Niveau{NBSP}: Intelligence"
        )
        raised = gettext("Raise {name} from {old} to {new}").format(
            name="Lockpicking", old="Excellent", new="Légendaire"
        )
        assert raised == f"Augmenter Lockpicking{NBSP}: Excellent → Légendaire"
        submitted_now = gettext(
            "{name} is submitted: play starts once the GM approves the build."
        ).format(name="Élodie Marchand")
        assert submitted_now.startswith(f"Personnage soumis{NBSP}: Élodie Marchand.")


def test_spanish_assumes_no_gender_and_writes_its_draft_stamp():
    with translation.override("es"):
        said = gettext("{name} is submitted: the GM reviews it next. It is locked until then.")
        assert said.startswith("Personaje enviado: {name}.")
    # The stamp a sheet that is not approved prints is the state's one label, the same on
    # every page, PDF and language (issue 39, characters.states), in the reader's language.
    for state, stamp in (
        (states.DRAFT, "Borrador · no aprobado"),
        (states.SUBMITTED, "Enviado · no aprobado"),
    ):
        with translation.override("es"):
            sheet = build_sheet(sample("brogo"), ruleset_of(sample("brogo")), state=state)
            assert (sheet.stamp_line, sheet.watermark) == (stamp, stamp)
        with translation.override("en-gb"):
            assert sheet.stamp_line == f"{states.label(state)} · not approved"


def test_a_label_and_its_value_take_french_punctuation():
    with translation.override("fr"):
        assert pgettext("label: value", ": ") == f"{NBSP}: "
    with translation.override("en-gb"):
        assert pgettext("label: value", ": ") == ": "


def test_the_french_catalogue_glues_no_name_to_de_or_an_agreement():
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale/fr/LC_MESSAGES/django.po"))
    for entry in catalogue:
        for said in (entry.msgstr, *entry.msgstr_plural.values()):
            for glued in (" de {name}", " de %(name)s", " de <bdi>%(player)s", "est soumis"):
                assert glued not in said, (entry.msgid, said)
            assert "prévenu" not in said, (entry.msgid, said)


def test_the_review_page_in_french_names_the_player_without_elision(login, gm, character):
    submitted(character)
    body = login(gm).get(reverse("character_review", args=[character.pk]), **FR)
    assert "Personnage joué par <bdi>player</bdi>" in body.content.decode()


@pytest.mark.parametrize(
    ("language", "said", "never"),
    [
        ({}, "just now", "0\xa0minutes"),
        (FR, "à l\u2019instant", "0\xa0minute"),
        (ES, "ahora mismo", "0\xa0minutos"),
    ],
)
def test_the_queue_says_just_now_under_a_minute(login, gm, character, language, said, never):
    submitted(character)
    body = login(gm).get(reverse("review_queue"), **language).content.decode()
    assert said in body
    assert never not in body and "0 minute" not in body


def test_a_longer_wait_still_counts_minutes(login, gm, character):
    submitted(character)
    Submission.objects.filter(character=character).update(
        submitted_at=timezone.now() - timedelta(minutes=5)
    )
    body = login(gm).get(reverse("review_queue"), **FR).content.decode()
    assert "en attente depuis 5" in body


@pytest.mark.parametrize(
    ("language", "said"),
    [(FR, f"Mains nues{NBSP}: "), (ES, "<td>5\u20136</td>"), ({}, "Unarmed: ")],
)
def test_the_sheet_writes_ranges_and_the_languages_colon(login, player, character, language, said):
    body = login(player).get(reverse("character_sheet", args=[character.pk]), **language)
    html = body.content.decode()
    assert "<td>1\u20132</td>" in html and "<td>1,2</td>" not in html
    assert said in html
