"""rules.numbers: costs written as the rule texts write them (a half gift is "½")."""

from fractions import Fraction

import pytest

from rules.numbers import number_text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2, "2"),
        (0, "0"),
        (Fraction(1, 2), "½"),
        (Fraction(3, 2), "1½"),
        (Fraction(-1, 2), "-½"),
        (Fraction(2, 3), "⅔"),
        (Fraction(1, 5), "0.2"),
    ],
)
def test_numbers_are_written_as_people_write_them(value, text):
    assert number_text(value) == text
