"""Rules words and the engine's messages in the reader's language (docs/translations.md):

{% load wording %}
{{ issue|said }}                 an issue's message (or any rules.words.Phrase)
{{ issue|said_to_gm }}           the same, reworded where the reviewing GM reads it
{{ ruleset.name|term:"ruleset" }}  a built-in ruleset's word; a GM's own word as written
{{ undo|step_label }}            what an undo step changed (adapters.step_label)
{{ entry|reason_said }}          a ledger entry's reason (characters.recorded)
{{ report.trades|said_each|join:"; " }}  each of a list of phrases said
{{ trait.name|rules_name }}      a built-in rules name (Climbing) in the reader's language
{{ entry.note|rules_text }}      a built-in note, power line or description, the same way
"""

from django import template

from characters import vocabulary
from characters.adapters import step_label
from characters.recorded import ledger_reason_said
from characters.rules_content import rules_name, rules_text
from characters.wording import said, said_to_gm

register = template.Library()
register.filter("said", said)
register.filter("said_to_gm", said_to_gm)
register.filter("step_label", step_label)
register.filter("reason_said", ledger_reason_said)


@register.filter
def said_each(phrases) -> list[str]:
    return [said(phrase) for phrase in phrases]


register.filter("rules_name", rules_name)
register.filter("rules_text", rules_text)


@register.filter
def term(text, kind: str) -> str:
    return vocabulary.term(str(text), kind)
