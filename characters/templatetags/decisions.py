"""`{% decision_token kind target %}`: the hidden one-time token of a decision form, issued
to the reader for that decision (services.decisions), new at every render."""

from django import template
from django.utils.html import format_html

from characters.services.decisions import decision_token_issue, decision_tokens_prune

register = template.Library()


@register.simple_tag(takes_context=True)
def decision_token(context, kind: str, target: int):
    # The expired tokens go before a token is issued, at most once every few minutes a
    # process (services.decisions.PRUNE_EVERY): almost every page costs its tokens' inserts
    # alone, and the table stays about a day of forms drawn.
    decision_tokens_prune()
    token = decision_token_issue(user=context["request"].user, kind=kind, target=target)
    return format_html('<input type="hidden" name="once" value="{}">', token)
