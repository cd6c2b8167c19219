"""`{% decision_token %}`: the one-time token of a GM's decision form (DecisionToken), new
at every render, so a second post of the same form changes nothing."""

import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def decision_token():
    return format_html('<input type="hidden" name="once" value="{}">', secrets.token_urlsafe(18))
