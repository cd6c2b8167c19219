"""How long printing takes: the median render of one sheet (Brogo) and of a six-character
campaign pack, next to WeasyPrint rendering a one-line page in the same run (the floor
this machine sets), then the peak memory of a pack render.

Targets: one sheet under 0.3 s, the pack under 2 s. Figures only, no assertions:
`python -m bench.pdf`.
"""

import dataclasses
import os
import resource
import statistics
import time
import tracemalloc
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "rules" / "samples"
RUNS = 7
SHEET_TARGET, PACK_TARGET = 0.3, 2.0


def median_seconds(render, runs=RUNS) -> float:
    render()  # warm up: fonts, templates and CSS parsers load once per process
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sample_sheets():
    from characters.sheets import ApprovalStamp, build_sheet
    from rules.charfile import parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    characters = [
        parse_character_json((SAMPLES / path).read_text()).character
        for path in sorted(os.listdir(SAMPLES))
    ]
    while len(characters) < 6:  # the samples are five; a sixth copy makes a table of six
        characters.append(dataclasses.replace(characters[0], name=f"{characters[0].name} II"))
    stamp = ApprovalStamp("0" * 64, "approved over budget by 1 skill level: bench")
    return [
        build_sheet(c, apply_house_rules(BUILTIN[c.ruleset], c.house_rules), stamp)
        for c in characters[:6]
    ]


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from weasyprint import HTML

    from characters.pdf import render_campaign_pack_pdf, render_sheets_pdf

    sheets = sample_sheets()
    brogo = next(s for s in sheets if s.name == "Brogo the Scout")
    floor = median_seconds(lambda: HTML(string="<p>One line.</p>").write_pdf())
    one = median_seconds(lambda: render_sheets_pdf([brogo]))
    pack = median_seconds(lambda: render_campaign_pack_pdf("Bench", sheets), runs=3)

    tracemalloc.start()
    render_campaign_pack_pdf("Bench", sheets)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

    print("PDF rendering (median seconds)")
    print(f"  WeasyPrint one-line page  {floor:7.3f}")
    print(f"  one sheet (Brogo)         {one:7.3f}  target < {SHEET_TARGET}")
    print(f"  campaign pack, 6 sheets   {pack:7.3f}  target < {PACK_TARGET}")
    print(f"  peak Python memory, pack  {traced_peak / 2**20:7.1f} MiB (tracemalloc)")
    print(f"  peak process RSS          {rss_peak_kib / 2**10:7.1f} MiB (getrusage)")


if __name__ == "__main__":
    main()
