"""One sheet against an older renderer, in the same run (`python -m bench.pdf_baseline
[COMMIT]`, also in `make bench`): the ratio issue 13's target is stated in, a one-page
sheet in 0.08 s where the renderer of the day took 0.105 s (0.76 of it). BASELINE is the
commit that renderer was measured at; bench.baseline runs the two trees in turn. Each
round renders Brogo in a new process as its tree did then (the baseline: two pages, no form
fields; this tree: one fillable page); the figure is the median of the rounds' medians.
Both run on this checkout's virtualenv. Figures only.
"""

import os
import statistics
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

BASELINE = "7ce41e0"  # the renderer when issue 13 was filed
BASELINE_SECONDS = 0.105  # what it took that day
ROUNDS, RUNS = 8, 15


def main(baseline: str = BASELINE):
    from bench.baseline import against
    from bench.pdf import SHEET_TARGET

    rounds = against(baseline, _round, ROUNDS)
    if rounds is None:
        return
    medians = {name: statistics.median(ms for ms, _ in values) for name, values in rounds.items()}
    print(f"One sheet (Brogo, A4) against {baseline}'s renderer, same run")
    print(f"  {ROUNDS} rounds, each the median of {RUNS} renders in a new process, in ms:")
    for name, values in rounds.items():
        shown = ", ".join(f"{ms:.1f}" for ms, _ in values)
        print(f"  {name:10} {medians[name]:6.1f}  {values[0][1]} page(s)  ({shown})")
    ratio = medians["this tree"] / medians["baseline"]
    target = SHEET_TARGET / BASELINE_SECONDS
    aim = f"  target {target:.3f} ({SHEET_TARGET} s for {BASELINE_SECONDS})"
    print(f"  ratio      {ratio:6.3f}{aim if baseline == BASELINE else ''}")


def _round(tree: Path) -> tuple[float, int]:
    """(median ms, pages) of a new process rendering with `tree`'s code. -P keeps this
    file's folder off sys.path; _render_median puts the tree first. A child's traceback
    goes to stderr, and a failure stops the benchmark. A render reads no database."""
    from bench.baseline import without_databases

    output = subprocess.run(
        [sys.executable, "-P", __file__, "--render", str(tree)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tree,
        env={**without_databases(os.environ), "DJANGO_SETTINGS_MODULE": "config.settings"},
    ).stdout
    milliseconds, pages = output.split()[-2:]
    return float(milliseconds), int(pages)


def _render_median(tree: Path) -> tuple[float, int]:
    """Brogo, approved, through the tree's own sheet builder and renderer: the median of
    RUNS warm renders, template to PDF bytes, in milliseconds, and the PDF's pages. Both
    trees have these calls."""
    sys.path.insert(0, str(tree))
    import django

    django.setup()
    from pypdf import PdfReader

    from characters.pdf import render_sheets_pdf
    from characters.sheets import ApprovalStamp, build_sheet
    from rules.charfile import parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    brogo = parse_character_json((tree / "rules/samples/brogo.json").read_text()).character
    ruleset = apply_house_rules(BUILTIN[brogo.ruleset], brogo.house_rules)
    sheet = build_sheet(brogo, ruleset, ApprovalStamp("0" * 64, "approved"))
    document = render_sheets_pdf([sheet])  # warm up: fonts, templates and stylesheet load
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_sheets_pdf([sheet])
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(PdfReader(BytesIO(document)).pages)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--render"]:
        print(*_render_median(Path(sys.argv[2])))
    else:
        main(*sys.argv[1:2])
