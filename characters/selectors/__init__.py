"""Reads: what pages show, assembled with a fixed number of queries, and who may see what.

Selectors sit below services and forms (pyproject.toml's import-linter contract): they
import models, adapters, sheets and `rules`, never a service or a form, so a read can be
reused anywhere without dragging a write along."""
