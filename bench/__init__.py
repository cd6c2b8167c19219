"""Fairsheet's benchmarks: `make bench` (`python -m bench`) runs every module listed in
bench/__main__.py. Figures are medians of several rounds, compared with a target or with a
baseline measured in the same run; tests never assert timings."""
