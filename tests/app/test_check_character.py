"""`manage.py check_character`: the report on stdout, exit 0 valid / 1 breaks a rule /
2 unreadable with one line on stderr; several files as JSON Lines (character-file.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules.check import MAX_FILE_BYTES, check_file
from tests.support import commands

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "rules" / "samples"
LEVEL_WORDS = (
    "Abysmal, Terrible, Poor, Mediocre, Fair, Good, Great, Superb, Legendary or Legendary+N"
)


def sample(tmp_path, stem, name=None) -> Path:
    path = tmp_path / (name or f"{stem}.json")
    path.write_text((SAMPLES / f"{stem}.json").read_text())
    return path


@pytest.fixture
def goood(tmp_path) -> Path:
    """Brogo with his third skill's level mistyped."""
    data = json.loads((SAMPLES / "brogo.json").read_text())
    data["skills"][2]["level"] = "Goood"
    path = tmp_path / "brogo.json"
    path.write_text(json.dumps(data))
    return path


def run_command(*files):
    """check_character, in-process: (exit code, stdout, stderr)."""
    return commands.run_command("check_character", *files)


def run_process(*files, cwd=ROOT, env=None):
    """A real `python manage.py check_character` process."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check_character", *map(str, files)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


class TestOneFile:
    def test_a_valid_file(self, tmp_path):
        code, out, err = run_command(sample(tmp_path, "jim-bones"))
        assert (code, err) == (0, "")
        report = json.loads(out)
        assert report == {
            "valid": True,
            "ruleset": "microfudged-dip",
            "unit": "token",
            "pools": {"tokens": {"budget": 6, "spent": 3, "saved": 3}},
            "balance": 3,
            "trades": [],
            "errors": [],
            "warnings": [],
        }

    def test_a_file_that_breaks_a_rule(self, tmp_path):
        code, out, err = run_command(sample(tmp_path, "james"))
        assert (code, err) == (1, "")
        report = json.loads(out)
        assert report["valid"] is False
        assert [e["code"] for e in report["errors"]] == ["cap_exceeded", "over_budget"]
        assert report["balance"] == -47

    def test_an_unreadable_file(self, goood):
        code, out, err = run_command(goood)
        assert (code, out) == (2, "")
        assert (
            err == f"{goood}: skills[2].level: 'Goood' is not a level: use one of {LEVEL_WORDS}\n"
        )

    def test_the_exit_codes_and_streams_of_a_real_process(self, tmp_path, goood):
        valid = run_process(sample(tmp_path, "lisa-benny"))
        assert (valid.returncode, valid.stderr) == (0, "")
        assert json.loads(valid.stdout)["valid"] is True

        broken = run_process(sample(tmp_path, "brogo", "brogo-sample.json"))
        assert (broken.returncode, broken.stderr) == (1, "")
        assert json.loads(broken.stdout)["errors"][0]["code"] == "over_budget"

        unreadable = run_process("brogo.json", cwd=tmp_path)  # the spec's own example
        assert (unreadable.returncode, unreadable.stdout) == (2, "")
        assert unreadable.stderr == (
            f"brogo.json: skills[2].level: 'Goood' is not a level: use one of {LEVEL_WORDS}\n"
        )


class TestSeveralFiles:
    def test_json_lines_in_order_with_the_highest_exit_code(self, tmp_path, goood):
        files = [
            sample(tmp_path, "jim-bones"),
            goood,
            sample(tmp_path, "james"),
            tmp_path / "missing.json",
        ]
        code, out, err = run_command(*files)
        lines = [json.loads(line) for line in out.splitlines()]
        assert code == 2
        assert [line["file"] for line in lines] == [str(f) for f in files]
        assert [line["valid"] for line in lines] == [True, False, False, False]
        assert [[e["code"] for e in line["errors"]] for line in lines] == [
            [],
            ["unreadable"],
            ["cap_exceeded", "over_budget"],
            ["unreadable"],
        ]
        assert lines[1]["errors"][0] == {
            "code": "unreadable",
            "message": f"'Goood' is not a level: use one of {LEVEL_WORDS}",
            "section": "Fairsheet character file",
            "where": "skills[2].level",
        }
        assert (
            lines[3]["errors"][0]["message"] == "cannot read the file (No such file or directory)"
        )
        assert err.splitlines() == [
            f"{goood}: skills[2].level: 'Goood' is not a level: use one of {LEVEL_WORDS}",
            f"{files[3]}: cannot read the file (No such file or directory)",
        ]

    def test_valid_and_broken_files_exit_1(self, tmp_path):
        code, out, err = run_command(sample(tmp_path, "jim-bones"), sample(tmp_path, "dolores"))
        assert (code, err) == (1, "")
        assert [json.loads(line)["file"] for line in out.splitlines()] == [
            str(tmp_path / "jim-bones.json"),
            str(tmp_path / "dolores.json"),
        ]

    def test_all_valid_files_exit_0(self, tmp_path):
        files = [sample(tmp_path, "jim-bones"), sample(tmp_path, "lisa-benny")]
        code, out, _ = run_command(*files)
        assert code == 0
        assert len(out.splitlines()) == 2

    def test_the_same_file_twice_is_two_lines(self, tmp_path):
        path = sample(tmp_path, "jim-bones")
        process = run_process(path, path)
        assert process.returncode == 0
        assert len(process.stdout.splitlines()) == 2


class TestNothingMakesATraceback:
    """Whatever a path holds, a real process exits 2 with one line on stderr per file."""

    def nasty_files(self, tmp_path) -> dict[str, Path]:
        files = {
            "a directory": tmp_path / "folder",
            "nothing there": tmp_path / "missing.json",
            "an empty file": tmp_path / "empty.json",
            "binary": tmp_path / "image.png",
            "a huge number": tmp_path / "huge.json",
            "deep nesting": tmp_path / "deep.json",
            "NaN in house rules": tmp_path / "nan.json",
            "a list for a ruleset": tmp_path / "list.json",
            "nested junk": tmp_path / "junk.json",
        }
        files["a directory"].mkdir()
        files["an empty file"].write_bytes(b"")
        files["binary"].write_bytes(bytes(range(256)) * 4)
        files["a huge number"].write_text(
            '{"ruleset": "mudge", "name": "X", "experience": 1' + "0" * 10_000 + "}"
        )
        files["deep nesting"].write_text("[" * 200_000 + "]" * 200_000)
        files["NaN in house rules"].write_text(
            '{"ruleset": "mudge", "name": "X", "house_rules": {"free_gifts": NaN}}'
        )
        files["a list for a ruleset"].write_text('{"ruleset": ["mudge"], "name": "X"}')
        files["nested junk"].write_text(
            json.dumps(
                {"ruleset": "mudge", "name": "X", "skills": [[{"level": {"a": [None, 1e308]}}]]}
            )
        )
        return files

    def test_every_file_gets_an_unreadable_line(self, tmp_path):
        files = self.nasty_files(tmp_path)
        process = run_process(*files.values())
        assert "Traceback" not in process.stderr
        assert process.returncode == 2
        lines = [json.loads(line) for line in process.stdout.splitlines()]
        assert [line["file"] for line in lines] == [str(p) for p in files.values()]
        assert all(line["errors"][0]["code"] == "unreadable" for line in lines)
        problems = process.stderr.splitlines()
        assert len(problems) == len(files)
        assert problems[0] == f"{files['a directory']}: cannot read the file (Is a directory)"
        assert problems[4].endswith("not readable JSON: a number has too many digits")
        assert problems[5].endswith("not readable JSON: lists or objects nest too deep")
        assert problems[6].endswith("house_rules.free_gifts: must be a number, not nan")
        assert problems[8].endswith("skills[0]: must be an object, not a list")

    def test_a_directory_alone(self, tmp_path):
        process = run_process(tmp_path)
        assert (process.returncode, process.stdout) == (2, "")
        assert process.stderr == f"{tmp_path}: cannot read the file (Is a directory)\n"

    def test_any_name_on_an_ascii_terminal(self, tmp_path):
        """Names in any script print on a terminal that only takes ASCII: the report is
        written as ASCII JSON, problems with backslash escapes. A lone surrogate is not
        text (no database can store it): that file is unreadable, and says where."""
        odd = tmp_path / "odd.json"
        odd.write_text(  # json.dumps writes non-ASCII as \u escapes, as any tool may
            json.dumps(
                {"ruleset": "mudge", "name": "Brögo", "skills": [{"name": "弓", "level": "Good"}]}
            )
        )
        bad = tmp_path / "bad.json"
        bad.write_text(
            json.dumps(
                {"ruleset": "mudge", "name": "X", "skills": [{"name": "A", "level": "Gööd"}]}
            )
        )
        lone = tmp_path / "lone.json"
        lone.write_text(json.dumps({"ruleset": "mudge", "name": "Brögo \ud800"}))
        process = run_process(odd, bad, lone, env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
        assert "Traceback" not in process.stderr
        assert process.returncode == 2
        first = json.loads(process.stdout.splitlines()[0])
        assert first["valid"] is True
        assert process.stderr == (
            f"{bad}: skills[0].level: 'G\\xf6\\xf6d' is not a level: use one of {LEVEL_WORDS}\n"
            f"{lone}: name: contains a lone surrogate (half of a UTF-16 pair), which is not "
            "text: remove it\n"
        )

    def test_a_file_too_big_to_be_a_character(self, tmp_path):
        big = tmp_path / "disk.img"
        with big.open("wb") as file:
            file.truncate(MAX_FILE_BYTES + 1)
        result = check_file(big)
        assert result.exit_code == 2
        assert result.problem == "the file is larger than 16 MB"
