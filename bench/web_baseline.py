"""The trait edit against the code of the day issue 10 was filed, in the same run
(`python -m bench.web_baseline [COMMIT]`, also in `make bench`): the ratio its target is
stated in, the edit over a 60-trait character in 6 ms where it took 18 ms (a third).

bench.baseline runs the two trees in turn. Each round runs a tree in a new process on a new
SQLite database that the tree migrates and seeds with its own bench.web: the edit as that
tree made it. A process times EDITS edits and as many bare views through Django's test
client; the figure is the median of the rounds' medians, and each tree's edit is also shown
over its own bare view, which factors out how busy the machine was.
"""

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASELINE = "a77b0c8"  # the last commit before issue 10's work
TARGET = 6 / 18  # the 6 ms for its 18
ROUNDS, EDITS = 6, 200


# This file runs as the child too, with the other tree's bench package on sys.path: only
# the parent's functions import this tree's.


def main(baseline: str = BASELINE):
    from bench.baseline import against

    rounds = against(baseline, _round, ROUNDS)
    if rounds is None:
        return
    print(f"Trait edit over a 60-trait character against {baseline}, same run")
    print(
        f"  {ROUNDS} rounds, each the median of {EDITS} edits in a new process "
        "(ms; edit / bare view of the same process):"
    )
    edit = {}
    for name, values in rounds.items():
        edit[name] = statistics.median(e for e, _ in values)
        over_bare = statistics.median(e / b for e, b in values)
        shown = ", ".join(f"{e:.1f}" for e, _ in values)
        print(f"  {name:10} {edit[name]:6.2f}  {over_bare:5.1f}x bare  ({shown})")
    ratio = edit["this tree"] / edit["baseline"]
    aim = f"  target {TARGET:.3f} (6 ms for 18)"
    print(f"  ratio      {ratio:6.3f}{aim if baseline == BASELINE else ''}")


def _round(tree: Path) -> tuple[float, float]:
    """(median edit ms, median bare-view ms) of a new process running `tree`'s code, with
    production settings (this tree's bench.web.bench_env) on a new SQLite file."""
    from bench.baseline import without_databases
    from bench.web import bench_env

    with tempfile.TemporaryDirectory(prefix="fairsheet-edit-") as folder:
        output = subprocess.run(
            # The baseline has no collected static files: whitenoise says so, harmlessly.
            [sys.executable, "-P", "-W", "ignore:No directory at", __file__, "--edit", str(tree)],
            check=True,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
            env=bench_env(f"sqlite:///{folder}/bench.sqlite3", without_databases(os.environ)),
        ).stdout
    edit, bare = output.split()[-2:]
    return float(edit), float(bare)


def _edit_medians(tree: Path) -> tuple[float, float]:
    """In this process: `tree`'s code on the database the environment names, migrated and
    seeded by the tree's own bench.web, then its time_in_process. Both trees have these
    calls; each tree's seed is its own (the baseline's campaign has no catalogue)."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=tree, check=True)
    sys.path.insert(0, str(tree))
    import django

    django.setup()
    from bench.web import seed, time_in_process

    edit, bare = time_in_process(seed(1), rounds=EDITS)[:2]
    return statistics.median(edit) * 1000, statistics.median(bare) * 1000


if __name__ == "__main__":
    if sys.argv[1:2] == ["--edit"]:
        print(*_edit_medians(Path(sys.argv[2])))
    else:
        main(*sys.argv[1:2])
