# The two commands a new machine needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
FRONTEND := frontend

.PHONY: run test install install-dev frontend migrate seed serve lint typecheck test-backend \
        test-frontend test-e2e browser bench openapi types clean

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/activate
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/activate
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund
	touch $@

frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run build

migrate: install
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

## run: install everything, build the SPA, migrate, seed demo data, serve on 127.0.0.1:$(PORT)
run: install frontend seed
	$(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) project.asgi:application

## test: install what the tests need and run the whole suite
test: install-dev frontend browser
	cd $(FRONTEND) && npm run lint && npm run typecheck && npm test
	$(PY) -m pytest

test-backend: install-dev
	$(PY) -m pytest --ignore=tests/e2e

test-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run lint && npm run typecheck && npm test

## browser: Debian's Chromium for the end-to-end tests (nothing downloads a browser)
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; }

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install-dev
	$(VENV)/bin/mypy project realtime

## openapi / types: regenerate the SPA's API types from the server's schema
openapi: install
	$(PY) manage.py export_openapi --output $(FRONTEND)/openapi.json

types: openapi $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run gen:types

bench: install-dev
	$(PY) bench/ws_fanout.py
	$(PY) bench/reads.py
	$(PY) bench/votes.py

clean:
	rm -rf $(VENV) $(FRONTEND)/node_modules $(FRONTEND)/dist staticfiles
