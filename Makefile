# Vigil — one entry point for running, testing and building the whole stack.
# Defaults (ports, versions) live in infra/defaults.env; override any with VIGIL_* variables.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help up down status restart logs install test lint lint-go lint-py check check-go-storage check-go-agent check-py-unit lock generate migrate clean bench-api bench-alerts bench-ui bench-small bench-storage bench-dql bench-ingest bench-ingest-consumers bench-fairness

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

up: ## install what is missing and start the whole stack with demo data
	@infra/up.sh
down: ## stop everything `make up` started (data is kept)
	@infra/down.sh
status: ## show each service and its health
	@infra/status.sh
restart: down up ## stop, then start again
logs: ## follow every service's log
	@tail -n 20 -F .vigil/log/*.log
install: ## install dependencies and build everything, start nothing
	@infra/install.sh
lock: ## re-resolve the Python dependencies into the lock files (after changing a pyproject.toml)
	@infra/lock.sh
test: ## run every test suite against real services on test ports
	@infra/test.sh
PY = .vigil/venv/bin
lint: lint-go lint-py ## static checks for every part
	@cd frontend && npm run -s lint
	@infra/vulncheck.sh
lint-go:
	@$(MAKE) -s -C storage lint
	@$(MAKE) -s -C ingest/agent lint
	@cd infra/compose && go vet ./...
lint-py:
	@test -x $(PY)/ruff -a -x $(PY)/mypy || { echo "ruff and mypy are missing from $(PY): make install" >&2; exit 1; }
	@$(MAKE) -s -C backend lint
	@$(PY)/ruff check -q ingest bench infra/tests
	@$(PY)/ruff format -q --check ingest bench infra/tests
	@cd ingest && ../$(PY)/mypy vigil_ingest
	@cd bench && ../$(PY)/mypy vigil_bench
check: ## before a commit: formatting, linters and unit tests of the Go and Python parts (< 1 min warm)
	@$(MAKE) -s -j4 --output-sync=target check-go-storage check-go-agent lint-py check-py-unit
	@echo "check: ok (the UI's own: cd frontend && npm run lint && npm test)"
check-go-storage:
	@$(MAKE) -s -C storage check
check-go-agent:
	@$(MAKE) -s -C ingest/agent check
# The ingest services' unit tests but their fuzz tests (make test runs those), and the
# defaults table's copies.
check-py-unit:
	@test -x $(PY)/pytest || { echo "pytest is missing from $(PY): make install" >&2; exit 1; }
	@$(PY)/pytest -q -p no:cacheprovider -m "not integration" -k "not fuzz" ingest/tests
	@$(PY)/pytest -q -p no:cacheprovider infra/tests/test_defaults.py
migrate: ## apply database migrations to the running stack
	@source infra/lib.sh && load_secrets && "$$VIGIL_VENV/bin/vigil-admin" migrate
generate: ## regenerate the OpenAPI document and the UI's typed client
	@source infra/lib.sh && load_secrets && "$$VIGIL_VENV/bin/vigil-admin" openapi -o backend/openapi.json
	@cd frontend && npm run -s generate-client
bench-api: ## query API concurrency sweep, 1..128 clients, against the running `make up` stack
	@test -f .vigil/demo.env || { echo "start the stack first: make up" >&2; exit 1; }
	@source infra/lib.sh && .vigil/venv/bin/python backend/scripts/bench_api.py --env-file .vigil/demo.env \
	  --url $$VIGIL_BACKEND_URL --seconds $${SECONDS_PER_LEVEL:-10} $(ARGS)
bench-alerts: ## monitors one evaluator keeps on schedule, and crossing-to-webhook lag (needs make up)
	@test -f .vigil/demo.env || { echo "start the stack first: make up" >&2; exit 1; }
	@.vigil/venv/bin/python backend/scripts/bench_alerts.py --env-file .vigil/demo.env $(ARGS)
bench-ui: ## a 12-panel dashboard over 1,000 series: time to interactive in Chromium (needs make up)
	@test -f .vigil/demo.env || { echo "start the stack first: make up" >&2; exit 1; }
	@[ -x /usr/bin/chromium ] || infra/install.sh test
	@test -d e2e/node_modules || (cd e2e && npm ci --no-audit --no-fund)
	@source infra/lib.sh && cd e2e && VIGIL_BASE_URL=$$VIGIL_BACKEND_URL VIGIL_GATEWAY_URL=$$VIGIL_GATEWAY_URL node bench/ui-dashboard.mjs
BENCH = .vigil/venv/bin/vigil-bench
bench-small: ## every benchmark scenario in small mode (~5 min)
	@bench/install.sh && $(BENCH) all --small
bench-storage: ## vigil-storage vs stock VictoriaMetrics ingesting the same line protocol (ratio)
	@bench/install.sh vm && $(BENCH) storage-ingest $(ARGS)
bench-dql: ## the same questions as DQL and as MetricsQL on >=100k series (latency ratio)
	@bench/install.sh vm && $(BENCH) dql $(ARGS)
bench-ingest: ## agent -> gateway -> Kafka -> consumer -> storage vs straight to storage; lag (needs make up)
	@$(BENCH) ingest $(ARGS)
bench-ingest-consumers: ## one workspace end to end with 1, 2 and 3 consumer processes (ratio; needs make up)
	@test -f .vigil/demo.env || { echo "start the stack first: make up" >&2; exit 1; }
	@source infra/lib.sh && $(BENCH) ingest-consumers $(ARGS)
bench-fairness: ## workspace B's latency while workspace A floods queries and ingest (ratio; needs make up)
	@test -f .vigil/demo.env || { echo "start the stack first: make up" >&2; exit 1; }
	@source infra/lib.sh && $(BENCH) fairness $(ARGS)
bench-%: ## one scenario of BENCHMARKS.md: write-cost, write-saturation, query-latency, disk-footprint, batch-size, concurrency, point-queries, read-write-mix, soak
	@bench/install.sh && $(BENCH) $* $(ARGS)
clean: ## remove builds and caches (keeps .vigil/data)
	rm -rf .vigil/bin .vigil/venv frontend/dist frontend/node_modules e2e/node_modules
