# Fairsheet: `make run` to try it, `make test` for the whole suite.
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers for `make test` (each gets its own test database).
TEST_WORKERS ?= 2

.PHONY: run test lint format bench setup setup-dev

setup:
	@bash scripts/bootstrap.sh run

setup-dev:
	@bash scripts/bootstrap.sh dev

# The web server and a background worker (campaign packs); Ctrl-C stops both.
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --url http://$(HOST):$(PORT)/
	$(PY) manage.py run_with_worker $(HOST):$(PORT)

test: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: setup-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: setup-dev
	$(PY) -m bench
