"""One sheet against an older renderer, in the same run (`python -m bench.pdf_baseline
[COMMIT]`, also in `make bench`): the ratio issue 13's target is stated in.

Absolute times on a shared machine drift by a third from hour to hour, so the target (a
one-page sheet in 0.08 s where the renderer of the day took 0.105 s: 0.76 of it) is checked
as a ratio. BASELINE is the commit that renderer was measured at. Its tree comes out of
git (`git archive`) into a temporary directory, and each round renders Brogo in a new
process for each tree, one after the other, so drift hits both alike; the figure is the
median of the rounds' medians. Both run on this checkout's virtualenv. Figures only.
"""

import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "7ce41e0"  # the renderer when issue 13 was filed: 0.105 s, 2 pages
TARGET_RATIO = 0.08 / 0.105
ROUNDS, RUNS = 7, 15


def main(baseline: str = BASELINE):
    with tempfile.TemporaryDirectory(prefix="fairsheet-baseline-") as directory:
        try:
            tree = _export(baseline, Path(directory))
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"One sheet against {baseline}: skipped, no such commit here ({error}).")
            return
        medians = {"baseline": [], "this tree": []}
        for _ in range(ROUNDS):
            medians["baseline"].append(_round(tree))
            medians["this tree"].append(_round(ROOT))
    old, new = (statistics.median(values) for values in medians.values())
    print(f"One sheet (Brogo, fillable A4) against {baseline}'s renderer, same run")
    print(f"  {ROUNDS} rounds, each the median of {RUNS} renders in a new process, in ms:")
    for name, values in medians.items():
        shown = ", ".join(f"{value:.1f}" for value in values)
        print(f"  {name:10} {statistics.median(values):6.1f}  ({shown})")
    print(f"  ratio      {new / old:6.3f}  target {TARGET_RATIO:.3f} (0.08 s for 0.105 s)")


def _export(commit: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _round(tree: Path) -> float:
    # The child imports the tree's own code: run from the tree, this file by its path.
    output = subprocess.run(
        [sys.executable, __file__, "--render", str(tree)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
        env={**_without_databases(os.environ), "DJANGO_SETTINGS_MODULE": "config.settings"},
    ).stdout
    return float(output.split()[-1])


def _without_databases(environ) -> dict:
    # A render reads no database: each tree gets its default (SQLite, never opened).
    return {k: v for k, v in environ.items() if k not in ("DATABASE_URL", "DATABASE_OWNER_URL")}


def _render_median(tree: Path) -> float:
    """Brogo, approved, through the tree's own sheet builder and renderer: the median of
    RUNS warm renders, template to PDF bytes, in milliseconds. Both trees share these calls."""
    sys.path.insert(0, str(tree))
    import django

    django.setup()
    from characters.pdf import render_sheets_pdf
    from characters.sheets import ApprovalStamp, build_sheet
    from rules.charfile import parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    brogo = parse_character_json((tree / "rules/samples/brogo.json").read_text()).character
    ruleset = apply_house_rules(BUILTIN[brogo.ruleset], brogo.house_rules)
    sheet = build_sheet(brogo, ruleset, ApprovalStamp("0" * 64, "approved"))
    render_sheets_pdf([sheet])  # warm up: fonts, templates and stylesheet load once
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_sheets_pdf([sheet])
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


if __name__ == "__main__":
    if sys.argv[1:2] == ["--render"]:
        print(_render_median(Path(sys.argv[2])))
    else:
        main(*sys.argv[1:2])
