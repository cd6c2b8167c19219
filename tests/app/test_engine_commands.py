"""The engine's management commands, run in-process: check_character on any file (never a
traceback) and on a ledger, export_character both ways and in a real process. The engine's own
tests (tests/rules/) call no command, so they run without Django's machinery."""

import json
import subprocess
import sys

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings

from rules.charfile import write_character
from rules.check import BREAKS_A_RULE, UNREADABLE, VALID
from tests.rules.test_charfile import JSON_VALUES, mutated_files
from tests.rules.test_foundry import FOUNDRY_MADE, ROOT, assert_foundry_accepts, export, read
from tests.rules.test_ledger import codes, veteran_file
from tests.support.commands import run_command


@pytest.fixture(scope="module")
def scratch_file(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "character.json"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=mutated_files() | JSON_VALUES)
def test_the_check_command_never_fails_with_a_traceback(scratch_file, data, capsys):
    scratch_file.write_text(json.dumps(data))
    try:
        call_command("check_character", str(scratch_file))
        code = 0
    except SystemExit as stopped:
        code = stopped.code
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == UNREADABLE:
        assert out == "" and err.count("\n") == 1 and err.startswith(f"{scratch_file}: ")
    else:
        assert json.loads(out)["valid"] is (code == 0)
        assert err == ""


def test_check_character_answers_for_a_ledger(tmp_path):
    veteran = veteran_file()
    good = tmp_path / "veteran.json"
    good.write_text(json.dumps(veteran))
    code, out, _ = run_command("check_character", str(good))
    assert code == VALID
    assert json.loads(out)["advancement"]["unspent"] == 5
    veteran["advancement"][1]["spend"] = 11
    bad = tmp_path / "mispriced.json"
    bad.write_text(json.dumps(veteran))
    code, out, _ = run_command("check_character", str(bad))
    assert code == BREAKS_A_RULE
    assert "advancement_cost" in codes(json.loads(out))


class TestExportCommand:
    def run(self, *args):
        return run_command("export_character", *args)

    def test_prints_a_foundry_actor(self):
        code, out, err = self.run(ROOT / "rules" / "samples" / "brogo.json", "--to", "foundry")
        assert (code, err) == (0, "")
        actor = json.loads(out)
        assert_foundry_accepts(actor)
        assert actor == export(read("brogo"))

    def test_writes_with_o_and_converts_back(self, tmp_path):
        actor_path = tmp_path / "brogo-foundry.json"
        code, out, _ = self.run(
            ROOT / "rules" / "samples" / "brogo.json", "--to", "foundry", "-o", actor_path
        )
        assert (code, out) == (
            0,
            f"Wrote {actor_path}: Brogo the Scout as a Foundry actor (fudge-rpg).\n",
        )
        code, out, err = self.run(actor_path, "--to", "fairsheet")
        assert (code, err) == (0, "")
        assert json.loads(out) == write_character(read("brogo"))

    def test_a_foundry_made_actor_lists_what_it_could_not_map(self, tmp_path):
        path = tmp_path / "tobin.json"
        path.write_text(json.dumps(FOUNDRY_MADE))
        code, out, err = self.run(path, "--to", "fairsheet")
        assert code == 0
        assert json.loads(out)["name"] == "Tobin Ashgrove"
        assert err.splitlines()[0] == (
            f"{path}: not mapped: The actor names no Fairsheet ruleset: imported for fudge-basics."
        )
        assert f"{path}: not mapped: system.mana (4): Fairsheet keeps no mana pool." in err
        assert err.splitlines()[-1].startswith(f"{path}: not mapped: _stats: where the actor")
        assert len(err.splitlines()) == 9

    def test_an_unreadable_file_in_a_real_process(self, tmp_path):
        bad = tmp_path / "bad.json"
        bad.write_text('{"type": "character", "system": {}, "_stats": {"systemId": "pf2e"}}')
        process = subprocess.run(
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "export_character",
                str(bad),
                "--to",
                "foundry",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (process.returncode, process.stdout) == (2, "")
        assert process.stderr == (  # one line, as render_sheet writes it
            f"CommandError: {bad}: _stats.systemId: this actor belongs to the 'pf2e' game "
            "system; Fairsheet reads actors of 'fudge-rpg' (Fudge RPG)\n"
        )
