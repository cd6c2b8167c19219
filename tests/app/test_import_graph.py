"""No import cycles among Fairsheet's modules (README, "Layout"). The layers contract in
pyproject.toml orders the packages; this holds every module of characters/ and rules/ to an
order too, deferred imports (inside a function) included: a module that imports another
back from inside a function is a cycle that only hides from the interpreter."""

from pathlib import Path

import grimp


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's modules that import each other, directly or along a chain, each group
    sorted: its strongly connected components of more than one module (Tarjan's, without
    recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        walk = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        while walk:
            module, imported = walk[-1]
            following = next(imported, None)
            if following is None:
                walk.pop()
                if walk:
                    parent = walk[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))
            elif following not in index:
                index[following] = low[following] = len(index)
                stack.append(following)
                on_stack.add(following)
                walk.append(
                    (following, iter(sorted(graph.find_modules_directly_imported_by(following))))
                )
            elif following in on_stack:
                low[module] = min(low[module], index[following])
    return sorted(cycles)


def cycle_imports(graph: grimp.ImportGraph, cycle: list[str]) -> list[str]:
    """Each import inside a cycle, where it is: what to move to break it."""
    lines: dict[str, None] = {}  # one line may import two modules of the cycle
    for importer in cycle:
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported in cycle:
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    lines[f"{importer}:{detail['line_number']} {detail['line_contents']}"] = None
    return list(lines)


def fairsheet_graph() -> grimp.ImportGraph:
    return grimp.build_graph("characters", "rules", cache_dir=None)


def test_no_import_cycles_in_characters_or_rules():
    graph = fairsheet_graph()
    cycles = import_cycles(graph)
    assert cycles == [], "\n".join(
        line for cycle in cycles for line in [" <-> ".join(cycle), *cycle_imports(graph, cycle)]
    )


def test_the_graph_has_every_module():
    graph = fairsheet_graph()
    assert {
        "characters.views.builder",
        "characters.services.printing",
        "characters.templatetags.words",
        "characters.management.commands.run_with_worker",
        "rules.charfile",
    } <= graph.modules


def test_a_deferred_import_back_is_a_cycle(tmp_path, monkeypatch):
    package = tmp_path / "looped"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "jobs.py").write_text("from looped import work\n")
    (package / "work.py").write_text("def run():\n    from looped.jobs import run_later\n")
    (package / "alone.py").write_text("from looped import work\n")
    monkeypatch.syspath_prepend(tmp_path)
    graph = grimp.build_graph("looped", cache_dir=None)
    assert import_cycles(graph) == [["looped.jobs", "looped.work"]]
    assert cycle_imports(graph, ["looped.jobs", "looped.work"]) == [
        "looped.jobs:1 from looped import work",
        "looped.work:2 from looped.jobs import run_later",
    ]


ROOT = Path(__file__).resolve().parents[2]
# The tables and the built-in catalogues are data, read a row at a time.
LONG_BY_NATURE = {"characters/models.py"}
MAX_LINES = 1000


def modules_over(limit: int) -> dict[str, int]:
    sizes = {}
    for package in ("characters", "rules"):
        for path in (ROOT / package).rglob("*.py"):
            name = path.relative_to(ROOT).as_posix()
            if "/migrations/" in name or name.startswith("rules/catalogues/"):
                continue
            lines = len(path.read_text().splitlines())
            if lines > limit and name not in LONG_BY_NATURE:
                sizes[name] = lines
    return sizes


def test_no_module_too_long_to_hold_in_mind():
    """A module past a thousand lines is split along its seams (the designer's forms, the
    Foundry reader and the ruleset file became packages so)."""
    assert modules_over(MAX_LINES) == {}


def test_the_size_walk_would_catch_a_long_module():
    assert "rules/charfile.py" in modules_over(100)
