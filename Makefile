# Punto: the two commands of the quick start are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.punto-installed
# Debian packages of the browser tests: the browser, and CJK fonts so Chinese screenshots
# show characters, not boxes.
BROWSER_PACKAGES := chromium fonts-noto-cjk ffmpeg
# The TLS-terminating proxy of deploy/ (its test runs it in front of two servers).
PROXY_PACKAGES := caddy

.PHONY: run test lint typecheck unit integration bench clean chromium proxy

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/punto serve --demo --open

test: lint typecheck unit integration

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy --strict

# Two stages: unit (the rules core, analysis, roads, ledger, CLI: well under five minutes)
# and integration (real servers, PostgreSQL, Redis, Chromium, faults, fuzzing).
unit: $(STAMP)
	$(BIN)/pytest -m "not integration" -n 2

integration: $(STAMP) chromium proxy
	$(BIN)/pytest -m integration -n 3 --dist loadfile

# The web client's browser tests drive Debian's Chromium (never a downloaded browser):
# install the packages when they are missing and we may (root with apt, as on CI); otherwise
# those tests are skipped and say why. fonts-noto-cjk draws the Chinese screenshots.
chromium:
	@missing=""; \
	for pkg in $(BROWSER_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	      || echo "punto: could not install$$missing: the browser tests that need them will be skipped"; \
	  else \
	    echo "punto: missing Debian packages:$$missing (apt-get install$$missing): the browser tests that need them will be skipped"; \
	  fi; \
	fi

# deploy/'s test starts Debian's Caddy with deploy/Caddyfile: installed the same way, else
# that test is skipped and says why.
proxy:
	@missing=""; \
	for pkg in $(PROXY_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	      || echo "punto: could not install$$missing: the deploy test that needs it will be skipped"; \
	  else \
	    echo "punto: missing Debian packages:$$missing (apt-get install$$missing): the deploy test that needs it will be skipped"; \
	  fi; \
	fi

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
