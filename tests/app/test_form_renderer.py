"""The form renderer draws the plainest widgets in Python (characters/forms/renderer.py) for
speed: what it writes must be byte for byte what Django's widget templates write, on every
widget and on the real pages."""

import datetime
import re

import pytest
from django import forms
from django.test import override_settings
from django.urls import reverse
from django.utils.safestring import mark_safe

from characters.forms.builder import CampaignSelect
from characters.forms.renderer import QuickRenderer
from tests.support.builder_fixtures import *  # noqa: F403

DJANGO = "django.forms.renderers.DjangoTemplates"
CHOICES = [("", "— none"), (-3, 'Terrible <b>&"'), (0, "Fair"), (2, mark_safe("<i>Great</i>"))]
ATTRS = {"id": "trait-1-level", "aria-invalid": "true", "disabled": True, "hidden": False}


def drawn_both_ways(widget, value, attrs):
    from django.forms.renderers import DjangoTemplates

    return (
        widget.render("field", value, attrs, renderer=DjangoTemplates()),
        widget.render("field", value, attrs, renderer=QuickRenderer()),
    )


@pytest.mark.parametrize(
    "widget",
    [
        forms.TextInput(attrs={"placeholder": 'a "quoted" <name>', "maxlength": 100}),
        forms.HiddenInput(),
        forms.NumberInput(attrs={"min": -10, "step": "any"}),
        forms.EmailInput(),
        forms.PasswordInput(render_value=True),
        forms.Select(choices=CHOICES),
        forms.Select(choices=[("Ladder", CHOICES), ("Other", [("x", "X & Y")])]),
        forms.SelectMultiple(choices=CHOICES),
        # The same option with its value marked safe, then not: each escaped as Django does.
        forms.Select(choices=[(mark_safe("a&b"), "same")]),
        forms.Select(choices=[("a&b", "same")]),
        # Labels Django localizes: a date, a number.
        forms.Select(choices=[("d", datetime.date(2024, 1, 2)), ("n", 12345.5)]),
        forms.Textarea(attrs={"rows": 3}),
    ],
    ids=lambda w: type(w).__name__,
)
@pytest.mark.parametrize("value", [0, "0", "", None, -3, "<script>", ["0", "2"]])
@pytest.mark.parametrize("attrs", [None, ATTRS], ids=["plain", "attrs"])
def test_each_widget_is_drawn_as_django_draws_it(widget, value, attrs):
    django, quick = drawn_both_ways(widget, value, attrs)
    assert quick == django


def test_options_with_their_own_attributes_are_drawn_as_django_draws_them(campaign):
    field = forms.ModelChoiceField(
        queryset=type(campaign).objects.all(), widget=CampaignSelect, empty_label="No campaign"
    )
    django, quick = drawn_both_ways(field.widget, campaign.pk, {"id": "id_campaign"})
    assert quick == django
    assert f'data-ruleset="mudge">{campaign.name}</option>' in quick


def same_page(client, url) -> tuple[str, str]:
    """The page drawn with Django's widget templates and with the quick renderer, with what
    differs between any two requests (the CSRF token's mask, the CSP nonce) blanked."""

    def fetch():
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", html)
        html = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", html)
        return re.sub(r'nonce="[^"]+"', "nonce", html)

    with override_settings(FORM_RENDERER=DJANGO):
        django = fetch()
    return django, fetch()


def test_the_builder_page_is_the_same(player_client, character):
    django, quick = same_page(player_client, reverse("character_builder", args=[character.pk]))
    assert quick == django
    assert quick.count("<select") > 7  # each attribute's level, and more


@pytest.mark.parametrize(
    "url_name", ["campaign_detail", "campaign_house_rules", "campaign_catalog"]
)
def test_the_gm_pages_are_the_same(client, gm, campaign, url_name):
    client.force_login(gm)
    django, quick = same_page(client, reverse(url_name, args=[campaign.pk]))
    assert quick == django


def test_the_new_character_page_is_the_same(player_client, campaign):
    django, quick = same_page(player_client, reverse("character_new"))
    assert quick == django
