"""Numbers as people read them on a page or a sheet (JSON keeps json_number's form)."""

from fractions import Fraction
from functools import lru_cache

# The fractions a cost takes in the rule texts (a half gift: Mudge 1.64's trades), as written.
VULGAR_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


@lru_cache(maxsize=1024)  # the same few costs on every row of every page
def number_text(value) -> str:
    """A cost as people write it: "2", "½", "1½", "-½"; any other fraction as a decimal."""
    value = Fraction(value)
    whole, part = divmod(abs(value), 1)
    sign = "-" if value < 0 else ""
    if not part:
        return f"{sign}{whole}"
    if part in VULGAR_FRACTIONS:
        return f"{sign}{whole or ''}{VULGAR_FRACTIONS[part]}"
    return f"{float(value):g}"
