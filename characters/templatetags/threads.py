"""Template filters of the threads between the GM and the player (selectors.threads)."""

from django import template

from characters.selectors.review_rows import target_said

register = template.Library()


@register.filter
def beside(threads, row):
    """The threads on one builder row (a Trait or an Equipment row)."""
    return threads.beside(row)


@register.filter
def thread_key(review_row) -> str:
    """A review row's key as the threads name rows: its comment box "trait_12" (forms.
    review.ReviewForm) is "trait-12" (selectors.threads.row_key)."""
    return review_row.field.replace("_", "-", 1)


@register.filter
def about(target: str, ruleset) -> str:
    """What a comment or an event is about, in the reader's language and the character's
    ruleset's words: "skill:Riding" is "Compétence : Riding"."""
    return target_said(target, ruleset)


@register.filter
def get_list(mapping, key) -> list:
    return mapping.get(key, [])
