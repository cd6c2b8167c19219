"""Numbers taken from a request's query string, form or headers, parsed strictly: ASCII
digits only. `str.isdigit` and `int` take far more ("²", "①", "٣", " 7", "1_000"), which
either let a 500 through (isdigit says yes, int says no) or read a number nobody typed."""

import re

_NUMBER = re.compile(r"[0-9]{1,18}")  # fits a bigint: a longer number names no row


def strict_number(text: str | None) -> int | None:
    """`text` as a non-negative integer, or None when it is anything else."""
    if text is None or not _NUMBER.fullmatch(text):
        return None
    return int(text)
