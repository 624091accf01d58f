# The two commands a new machine needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# serve-prod's nginx listens on PORT when it is given, else on 8080.
PROD_PORT := $(if $(filter undefined default,$(origin PORT)),8080,$(PORT))
PORT ?= 8000
FRONTEND := frontend

.PHONY: docs run test install install-dev frontend migrate seed serve lint typecheck test-backend \
        test-frontend test-e2e browser bench openapi types clean lock serve-prod nginx pgbackrest \
        pgbouncer test-pgbouncer prometheus systemd-analyze fonts

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Installs are locked: requirements/*.lock pin every package with its hashes (`make lock`
# regenerates them from pyproject.toml's ranges); the project itself goes in without deps.
$(VENV)/.installed: requirements/base.lock pyproject.toml | $(VENV)/bin/activate
	$(PY) -m pip install --quiet --require-hashes -r requirements/base.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: requirements/dev.lock pyproject.toml | $(VENV)/bin/activate
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund
	touch $@

# The SPA is rebuilt only when something it is built from changed (make test type-checks it).
FRONTEND_SOURCES := $(shell find $(FRONTEND)/src $(FRONTEND)/public -type f 2>/dev/null) \
	$(wildcard $(FRONTEND)/*.json $(FRONTEND)/*.ts $(FRONTEND)/*.js $(FRONTEND)/index.html) \
	$(shell find $(FRONTEND)/sw -type f 2>/dev/null) project/server_paths.json

$(FRONTEND)/dist/index.html: $(FRONTEND)/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	cd $(FRONTEND) && npm run build
	touch $@

frontend: $(FRONTEND)/dist/index.html

migrate: install
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

## run: install everything, build the SPA, migrate, seed demo data, serve on 127.0.0.1:$(PORT)
run: install frontend fonts seed
	$(PY) manage.py serve --port $(PORT)

## test: install what the tests need, then every check CI makes: lint, format, types, import
## contracts, the SPA's checks and Vitest, and the whole pytest suite (browser tests included)
test: install-dev frontend browser fonts nginx pgbackrest pgbouncer prometheus systemd-analyze
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy project realtime devtools tests bench
	$(VENV)/bin/lint-imports
	cd $(FRONTEND) && npm run lint && npm run format:check && npm run typecheck && npm test
	$(PY) -m pytest

test-backend: install-dev
	$(PY) -m pytest --ignore=tests/e2e

## test-pgbouncer: the API, scouting, moderation and integrity tests again, through a private
## PgBouncer in transaction mode with DB_POOLER=transaction (needs DATABASE_URL: PostgreSQL;
## the test database is created and dropped directly)
PGBOUNCER_TESTS := tests/api tests/scouting tests/moderation tests/integrity \
	tests/ops/test_pgbouncer.py
test-pgbouncer: install-dev pgbouncer
	@case "$$DATABASE_URL" in postgres*) ;; *) \
	  echo "make test-pgbouncer needs DATABASE_URL to name a PostgreSQL database"; exit 2;; esac
	DB_POOLER=transaction $(PY) -m pytest --pgbouncer $(PGBOUNCER_TESTS)

test-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run lint && npm run typecheck && npm test

## browser: Debian's Chromium for the end-to-end tests (nothing downloads a browser)
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; }

## fonts: Debian's Noto CJK and Noto Color Emoji, the share cards' fallback fonts for the
## names and emoji DejaVu Sans lacks (SHARE_CARD_FALLBACK_FONTS)
FALLBACK_FONTS := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \
	/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
fonts:
	@for font in $(FALLBACK_FONTS); do [ -f "$$font" ] || missing=1; done; \
	[ -z "$$missing" ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji >/dev/null; fi; }

## nginx: Debian's nginx for the production shape (serve-prod, its test and bench/votes.py)
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nginx >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq nginx >/dev/null; fi; }

## systemd-analyze: Debian's systemd, whose `systemd-analyze verify` checks deploy/systemd's units
systemd-analyze:
	@command -v systemd-analyze >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq systemd >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq systemd >/dev/null; fi; }

## pgbackrest: Debian's pgBackRest for the backup and restore drill (deploy/backup/)
pgbackrest:
	@command -v pgbackrest >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq pgbackrest >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq pgbackrest >/dev/null; fi; }

## pgbouncer: Debian's PgBouncer (make test-pgbouncer, PGBOUNCER=1 make serve-prod)
pgbouncer:
	@command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq pgbouncer >/dev/null; fi; }

# PGBOUNCER=1 make serve-prod: the app processes behind a PgBouncer in transaction mode.
WITH_PGBOUNCER := $(filter 1 true yes on,$(PGBOUNCER))

## prometheus: Debian's prometheus package: promtool (tests/deploy/test_prometheus_config.py
## checks deploy/prometheus with it) and the server (tests/deploy/test_prometheus_live.py)
prometheus:
	@{ command -v promtool && command -v prometheus; } >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null; fi; }

## serve-prod: the production shape on this machine (needs DATABASE_URL and REDIS_URL): migrate,
## then nginx on PORT (8080) in front of the HTTP pool (gunicorn, 2 gthread workers) and two
## daphne processes for /ws/, under supervisord (one that dies is started again; supervisorctl
## restarts them one at a time, README); Ctrl-C or SIGTERM stops them all. With
## PGBOUNCER=1 the app reaches PostgreSQL through a PgBouncer in transaction mode (migrations
## go directly)
serve-prod: install frontend fonts nginx $(if $(WITH_PGBOUNCER),pgbouncer)
	@if [ -z "$$DATABASE_URL" ] || [ -z "$$REDIS_URL" ]; then \
	  echo "make serve-prod needs DATABASE_URL (PostgreSQL) and REDIS_URL"; exit 2; fi
	$(PY) manage.py migrate --noinput
	exec $(PY) manage.py serve_prod --port $(PROD_PORT) $(if $(WITH_PGBOUNCER),--pgbouncer)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install-dev
	$(VENV)/bin/mypy project realtime devtools tests bench
	$(VENV)/bin/lint-imports

## lock: pin every Python dependency (with hashes) from pyproject.toml's ranges
lock: $(VENV)/bin/activate
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes \
	  --no-header --quiet -o requirements/base.lock
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --python-version 3.11 \
	  --generate-hashes --no-header --quiet -o requirements/dev.lock

## openapi / types: regenerate the SPA's API types from the server's schema
openapi: install
	$(PY) manage.py export_openapi --output $(FRONTEND)/openapi.json

types: openapi $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run gen:types

# docs/configuration.md from the settings' declarations (project/settings/).
docs: install
	$(PY) -m project.settings.document

BENCHES := ws_fanout comment_fanout ws_chaos ws_slow ws_soak reads replica_reads votes capacity tiers notify restarts previews drills

## every bench in one run (about 90 minutes); one that misses a target does not stop the others
bench: install-dev frontend nginx
	@missed=""; for bench in $(BENCHES); do \
		$(PY) bench/$$bench.py || missed="$$missed $$bench"; \
	done; \
	if [ -n "$$missed" ]; then echo "Benches that missed a target:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) $(FRONTEND)/node_modules $(FRONTEND)/dist staticfiles
