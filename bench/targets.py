"""Issue 40's targets (speed on PostgreSQL), each a ratio to a floor timed in the same run:
the bare view (/healthz), or WeasyPrint's one-line page for the sheet. Every module that
measures one prints it with `beside`, so one run of bench.web, bench.table and bench.pdf
says which are met."""

ISSUE_40 = {
    "trait edit": 6.0,
    "builder page, 60 traits": 12.0,
    "saturation mix, CPU a request": 7.0,
    "party page, 6 characters": 20.0,
    "one fillable sheet": 8.0,
}
SATURATION_RATE = 200  # requests a second, with the mix's CPU a request at its target


def beside(figure: str, ratio: float, floor: str = "bare") -> str:
    """'  issue 40: trait edit   5.2x bare   target <= 6x   met'."""
    target = ISSUE_40[figure]
    verdict = "met" if ratio <= target else "MISSED"
    return f"  issue 40: {figure:<30} {ratio:5.1f}x {floor}  target <= {target:g}x  {verdict}"
