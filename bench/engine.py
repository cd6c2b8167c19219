"""Engine benchmarks (issue 2): how many 60-trait Mudge characters the rules engine prices
a second on one core (read the file, build the report), and the wall time of one
`manage.py check_character FILE` process next to `python -c pass` in the same run.

Target: at least 5,000 characters a second. Figures only, no assertions:
`python -m bench.engine`.
"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rules.character import Character, Fault, Gift, Power, Trait
from rules.charfile import dumps_character, parse_character_json, read_character
from rules.house_rules import apply_house_rules
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR, TERRIBLE
from rules.report import Report, build_report
from rules.rulesets import BUILTIN

ROOT = Path(__file__).resolve().parent.parent
PRICE_TARGET = 5_000  # characters a second
ROUNDS, PER_ROUND = 7, 1_000
PROCESS_RUNS = 7


def sixty_trait_character() -> Character:
    """A legal Mudge 1.6 build: 7 attributes, 40 skills, 4 spells, 5 gifts and 4 faults."""
    levels = [TERRIBLE] * 5 + [POOR] * 15 + [MEDIOCRE] * 10 + [FAIR] * 8 + [GOOD] * 2
    return Character(
        ruleset="mudge",
        name="Benchmark",
        attributes=tuple(
            Trait(name, level)
            for name, level in [
                ("Strength", GOOD),
                ("Dexterity", GREAT),
                ("Constitution", GOOD),
                ("Speed", FAIR),
                ("Intelligence", GOOD),
                ("Willpower", FAIR),
                ("Perception", GOOD),
            ]
        ),
        skills=tuple(Trait(f"Skill {i}", level, "average") for i, level in enumerate(levels)),
        gifts=(
            Gift("Magery", 2),
            Gift("Luck", 2),
            Gift("Night Vision"),
            Gift("Absolute Direction"),
            Gift("Animal Empathy"),
        ),
        faults=tuple(Fault(name) for name in ("Curious", "Glutton", "Stubborn", "Vain")),
        powers=tuple(
            Power(name, "spell", FAIR, "hard") for name in ("Light", "Mend", "Spark", "Ward")
        ),
    )


def price(path: Path) -> Report:
    result = parse_character_json(path.read_bytes())
    character = result.character
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    return build_report(character, ruleset, result.ignored)


def per_second(work) -> float:
    """Median over ROUNDS rounds of PER_ROUND calls of `work`, in calls a second."""
    work()  # warm up
    rates = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(PER_ROUND):
            work()
        rates.append(PER_ROUND / (time.perf_counter() - start))
    return statistics.median(rates)


def stage_microseconds(path: Path) -> dict[str, float]:
    """Where a character's time goes: the median of each stage alone, in microseconds."""
    text = path.read_bytes()
    data = json.loads(text)
    result = read_character(data)
    ruleset = BUILTIN[result.character.ruleset]
    stages = {
        "parse the JSON": lambda: json.loads(text),
        "read the character": lambda: read_character(data),
        "build the report": lambda: build_report(result.character, ruleset, result.ignored),
    }
    medians = {}
    for label, stage in stages.items():
        rounds = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            for _ in range(PER_ROUND):
                stage()
            rounds.append((time.perf_counter() - start) / PER_ROUND * 1e6)
        medians[label] = statistics.median(rounds)
    return medians


def median_process_seconds(commands: dict[str, list[str]]) -> dict[str, float]:
    """Each command's median wall time; runs alternate so drift hits them alike."""
    times = {label: [] for label in commands}
    for run in range(PROCESS_RUNS + 1):
        for label, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
            if run:  # the first run only warms the disk cache
                times[label].append(time.perf_counter() - start)
    return {label: statistics.median(values) for label, values in times.items()}


def main():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "benchmark.json"
        character = sixty_trait_character()
        path.write_text(dumps_character(character))
        traits = sum(
            len(getattr(character, name))
            for name in ("attributes", "skills", "gifts", "faults", "powers")
        )
        valid = "a valid build" if price(path).valid else "NOT a valid build"

        ruleset = BUILTIN["mudge"]
        rate = per_second(lambda: build_report(character, ruleset))
        whole = per_second(lambda: price(path))
        verdict = "PASS" if rate >= PRICE_TARGET else "MISS"
        print(
            f"Pricing {traits}-trait Mudge characters ({valid}), one core, median of "
            f"{ROUNDS} rounds of {PER_ROUND:,}"
        )
        print(
            f"  priced (build the report)        {rate:9,.0f} characters/s"
            f"  target >= {PRICE_TARGET:,}/s  {verdict}"
        )
        print(f"  from the file (read, parse, price) {whole:7,.0f} characters/s")
        for label, micros in stage_microseconds(path).items():
            print(f"    {label:20} {micros:6.0f} µs")

        python = sys.executable
        seconds = median_process_seconds(
            {
                "python -c pass": [python, "-c", "pass"],
                "manage.py check_character FILE": [
                    python,
                    "manage.py",
                    "check_character",
                    str(path),
                ],
            }
        )
    baseline, command = seconds.values()
    ratio = command / baseline
    print(f"One process, median wall time of {PROCESS_RUNS} runs")
    print(f"  python -c pass                  {baseline:7.3f} s")
    print(f"  manage.py check_character FILE  {command:7.3f} s  {ratio:5.1f}x python -c pass")


if __name__ == "__main__":
    main()
