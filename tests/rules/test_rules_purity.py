"""The rules engine stays pure Python: no module under rules/ imports Django, so it runs in
the check command, the HTTP endpoint, the benchmarks and any other tool alike."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
MODULES = sorted(RULES.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif (
            # importlib.import_module("django...") and __import__("django...")
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def test_the_walk_finds_the_engine():
    found = {path.relative_to(RULES).as_posix() for path in MODULES}
    assert {"report/building.py", "charfile.py", "check.py", "catalogues/mudge.py"} <= found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_no_rules_module_imports_django(path):
    django = {name for name in imported_modules(path) if name.split(".")[0] == "django"}
    assert not django, f"{path.relative_to(RULES)} imports {sorted(django)}"


def test_the_walk_would_catch_a_django_import(tmp_path):
    module = tmp_path / "impure.py"
    module.write_text(
        "import json\nfrom django.db import models\n"
        "import importlib\nimportlib.import_module('django.conf')\n"
    )
    assert {"django.db", "django.conf"} <= imported_modules(module)


ENGINE_TESTS = sorted(Path(__file__).resolve().parent.glob("*.py"))
APP_PACKAGES = {"django", "characters", "config"}
ENGINE_HELPERS = {"tests.support.sources", "tests.support.schemas"}


@pytest.mark.parametrize("path", ENGINE_TESTS, ids=lambda p: p.name)
def test_the_engine_tests_need_no_app(path):
    """tests/rules/ is the seconds-long loop (`make test-rules`): what needs Django, the
    database or a command belongs in tests/app/, so this folder stays quick."""
    app = {name for name in imported_modules(path) if name.split(".")[0] in APP_PACKAGES}
    helpers = {
        name
        for name in imported_modules(path)
        if name.startswith("tests.")
        and not name.startswith("tests.rules")
        and name not in ENGINE_HELPERS
    }
    assert not app | helpers, f"tests/rules/{path.name} imports {sorted(app | helpers)}"
