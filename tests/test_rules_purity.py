"""The rules engine stays pure Python: no module under rules/ imports Django, so it runs in
the check command, the HTTP endpoint, the benchmarks and any other tool alike."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "rules"
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
