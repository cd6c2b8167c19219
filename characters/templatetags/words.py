"""Plain words on every page: an enum value or snake_case word ("very_hard") as it is said."""

from django import template
from django.conf import settings

from rules.rule_names import in_words

register = template.Library()
register.filter("words", in_words)


@register.filter
def language_name(code: str) -> str:
    """A language in its own words, as settings.LANGUAGES names it, whatever the page's
    language: "English" on a French page too ({% get_available_languages %} says "Anglais")."""
    return dict(settings.LANGUAGES).get(code, code)
