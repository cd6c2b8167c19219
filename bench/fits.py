"""How a sheet finds its fit (`python -m bench.fits`, also in `make bench`): sheets made up of
the samples (Mudge's Brogo and Dolores, MicroFudged's Jim Bones and Lisa Benny), each with
random lists (10 to 170 skills, up to 12 gifts and faults, 60 pieces of equipment, 5,500
characters of prose), laid out at every fit of characters.pdf.FITS on A4.

It prints, for each fit, the most rows (pdf._rows_at) of any sheet the fit held on one page
and the fewest of any it did not: Fit.holds must stay above the first, or a sheet would be
set tighter than it needs (say so, and raise it); and the layouts a sheet's render takes,
from the fit _fits_to_try starts at, against trying every fit from the first. Figures
only, no assertions; seeded, so each run makes the same sheets."""

import dataclasses
import os
import random
import statistics
import time

SHEETS = 60
STEMS = ("brogo", "dolores", "jim-bones", "lisa-benny")
PROSE = "The road north was long and the rain did not stop. " * 120


def made_up(rnd, character):
    from rules.character import Equipment, Fault, Gift, Trait

    text = rnd.choice([0, 300, 1500, 4000])
    answer = rnd.choice([0, 200, 500])
    return dataclasses.replace(
        character,
        skills=tuple(
            Trait(f"Skill {i} of a career", i % 5 - 2, "average")
            for i in range(rnd.choice([10, 25, 40, 55, 70, 85, 100, 130, 170]))
        ),
        gifts=tuple(Gift(f"Gift {i}", 1) for i in range(rnd.choice([0, 3, 6, 12]))),
        faults=tuple(Fault(f"Fault {i} that is long", 1) for i in range(rnd.choice([0, 3, 6, 12]))),
        equipment=tuple(
            Equipment(f"Item {i}", "gear", None, None, "a note " * 3)
            for i in range(rnd.choice([0, 5, 15, 30, 60]))
        ),
        notes=PROSE[:text],
        personality={key: PROSE[:answer] for key in ("values", "desires", "history")},
    )


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from bench.pdf import SAMPLES
    from characters.pdf import (
        DEFAULT_PRINT,
        FITS,
        _at_fit,
        _fits_to_try,
        _layouts,
        _rows_at,
        _sheet_part,
    )
    from characters.sheets import build_sheet
    from rules.charfile import parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    rnd = random.Random(40)
    held = {fit.name: [] for fit in FITS}
    spilled = {fit.name: [] for fit in FITS}
    every, started, times = 0, 0, []
    for n in range(SHEETS):
        sample = parse_character_json(
            (SAMPLES / f"{STEMS[n % len(STEMS)]}.json").read_text()
        ).character
        ruleset = apply_house_rules(BUILTIN[sample.ruleset], sample.house_rules)
        sheet = build_sheet(made_up(rnd, sample), ruleset, None)
        context = _sheet_part(sheet, 1)
        holds_at = None
        with _layouts(DEFAULT_PRINT) as lay_out:
            for k, fit in enumerate(FITS):
                start = time.perf_counter()
                document = lay_out(_at_fit(context, fit))
                times.append(time.perf_counter() - start)
                one_page = len(document.pages) == 1
                (held if one_page else spilled)[fit.name].append(_rows_at(sheet, fit))
                if one_page and holds_at is None:
                    holds_at = k
        last = len(FITS) - 1 if holds_at is None else holds_at
        first = FITS.index(_fits_to_try(sheet)[0])
        every += last + 1
        started += last - first + 1 if first <= last else 1
    print(f"Fits: {SHEETS} sheets made up of {', '.join(STEMS)}, laid out at each fit on A4")
    for fit in FITS:
        most = max(held[fit.name], default=0)
        fewest = min(spilled[fit.name], default=0)
        warning = "" if most <= fit.holds else "  HELD PAST holds: raise it"
        print(
            f"  {fit.name or 'first':6} held up to {most:5.1f} rows, spilled from {fewest:5.1f}; "
            f"holds {fit.holds}{warning}"
        )
    print(
        f"  layouts to find each sheet's fit: {every} trying every fit from the first, "
        f"{started} from _fits_to_try's first; a layout's median {statistics.median(times):.3f} s"
    )


if __name__ == "__main__":
    main()
