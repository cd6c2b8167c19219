"""Plain words on every page: an enum value or snake_case word ("very_hard") as it is said."""

from django import template

from rules.rule_names import in_words

register = template.Library()
register.filter("words", in_words)
