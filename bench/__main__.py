"""`make bench`: run every benchmark module below, in order, and print its figures.

A module is a file bench/<name>.py with a `main()` that prints its figures (and runs alone
as `python -m bench.<name>`); add it to MODULES to have `make bench` run it. A module that
fails is reported and the others still run; the exit code is then 1.
"""

import importlib
import sys
import traceback

MODULES = [
    "bench.engine",
    "bench.web",
    "bench.web_baseline",
    "bench.pdf",
    "bench.pdf_baseline",
    "bench.fits",
    "bench.table",
    "bench.scaling",
    "bench.fair",
    "bench.limits",
]


def main() -> int:
    failed = []
    for name in MODULES:
        print(f"== {name}", flush=True)
        try:
            importlib.import_module(name).main()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(flush=True)
    if failed:
        print(f"Failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
