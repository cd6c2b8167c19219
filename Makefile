# Fairsheet: `make run` to try it, `make test` for the whole suite.
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers for `make test` (each gets its own test database).
TEST_WORKERS ?= 2

.PHONY: run test test-rules lint format bench setup setup-dev messages

setup:
	@bash scripts/bootstrap.sh run

setup-dev:
	@bash scripts/bootstrap.sh dev

# The translations (locale/*/LC_MESSAGES/django.po) compiled to the .mo files Django reads;
# built here, never committed (docs/translations.md). Only what changed is compiled again.
# .venv is skipped: it holds Django's own catalogues, compiled already.
messages:
	$(PY) manage.py compilemessages --ignore=.venv --verbosity 0

# The web server, the pack worker and the mail sender; Ctrl-C stops them all.
run: setup messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --url http://$(HOST):$(PORT)/
	$(PY) manage.py run_with_worker $(HOST):$(PORT)

test: setup-dev messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The rules engine's own tests (tests/rules/: no database, no browser, no command), the
# seconds-long loop while working on rules/. `make test` runs them too.
test-rules:
	$(VENV)/bin/pytest -n 2 tests/rules $(PYTEST_ARGS)

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: setup-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: setup-dev
	$(PY) -m bench
