"""The rule texts the tests read their numbers from (../shared/rules-sources, README there).

The repository sits beside `shared/` in the main checkout and one level deeper in a worktree
(wt/<branch>), so the folder is looked up from the repository upwards.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_SOURCES = next(
    parent / "shared" / "rules-sources"
    for parent in ROOT.parents
    if (parent / "shared" / "rules-sources").is_dir()
)


def rule_text(number: str) -> str:
    """A rule text by its number in the README: 000 Fudge Basics, 001 Fudge, 002 Mudge,
    003 MicroFudged DIP."""
    (path,) = RULES_SOURCES.glob(f"{number}_*.txt")
    return path.read_text()
