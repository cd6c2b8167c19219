"""`make bench`: run every benchmark module below, in order, and print its figures.

A module is a file bench/<name>.py with a `main()` that prints its figures (and runs alone
as `python -m bench.<name>`); add it to MODULES to have `make bench` run it.
"""

import importlib

MODULES = [
    "bench.engine",
    "bench.web",
    "bench.pdf",
]


def main():
    for name in MODULES:
        print(f"== {name}", flush=True)
        importlib.import_module(name).main()
        print(flush=True)


if __name__ == "__main__":
    main()
