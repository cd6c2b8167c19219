"""`{% decision_token kind target %}`: the hidden one-time token of a decision form, issued
to the reader for that decision (services.decisions), new at every render."""

from django import template
from django.utils.html import format_html

from characters.services.decisions import decision_token_issue, decision_tokens_prune

register = template.Library()


@register.simple_tag(takes_context=True)
def decision_token(context, kind: str, target: int):
    # The expired tokens go once per page drawn, before its first form's token: a page of
    # many decisions (a pending spend has two) costs one prune, not one per form.
    if not context.render_context.get("decision_tokens_pruned"):
        decision_tokens_prune()
        context.render_context["decision_tokens_pruned"] = True
    token = decision_token_issue(user=context["request"].user, kind=kind, target=target)
    return format_html('<input type="hidden" name="once" value="{}">', token)
