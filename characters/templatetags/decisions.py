"""`{% decision_token kind target %}`: the hidden one-time token of a decision form, issued
to the reader for that decision (services.decisions), new at every render."""

from django import template
from django.utils.html import format_html

from characters.services.decisions import decision_token_issue

register = template.Library()


@register.simple_tag(takes_context=True)
def decision_token(context, kind: str, target: int):
    token = decision_token_issue(user=context["request"].user, kind=kind, target=target)
    return format_html('<input type="hidden" name="once" value="{}">', token)
