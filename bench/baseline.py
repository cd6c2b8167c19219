"""Same-run comparisons with an older commit (bench.pdf_baseline, bench.web_baseline).

Absolute times on a shared machine drift by a third from hour to hour, so an issue's target
stated against the code of its day is checked as a ratio: the old tree comes out of git
(`git archive`) into a temporary directory, and each round runs it and this tree in new
processes, in turn, the first of the two alternating (ABBA), so drift hits both alike.
"""

import subprocess
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def against(commit: str, measure, rounds: int) -> dict[str, list] | None:
    """{"baseline": [...], "this tree": [...]}: `measure(tree)` for `commit`'s tree and this
    one, `rounds` times each. None, having said why, when git has no such commit here."""
    with tempfile.TemporaryDirectory(prefix="fairsheet-baseline-") as directory:
        try:
            tree = export_tree(commit, Path(directory))
        except subprocess.CalledProcessError as error:
            print(f"Against {commit}: skipped, git has no such commit here.")
            print(f"  {error.stderr.decode(errors='replace').strip()}")
            return None
        trees = {"baseline": tree, "this tree": ROOT}
        results = {name: [] for name in trees}
        for number in range(rounds):
            order = list(trees) if number % 2 == 0 else list(reversed(trees))
            for name in order:
                results[name].append(measure(trees[name]))
    return results


def export_tree(commit: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def without_databases(environ) -> dict:
    # Without these, neither tree's settings can reach the database you work in: each
    # falls back to the SQLite file it is given, or its own, never opened.
    return {k: v for k, v in environ.items() if k not in ("DATABASE_URL", "DATABASE_OWNER_URL")}
