# Reproduction of privacy- and robustness-safeguarded optimization papers.
# `make help` lists the targets. Variables: WORK (a work name or all), SCALE (smoke|paper),
# DATA_MIRROR (a local copy of the data, e.g. ../shared/data), EXTRAS (pip extras), SEED.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= dev,scip
WORK ?= all
SCALE ?= paper
SEED ?=
DATA_MIRROR ?=

export MPLBACKEND := Agg
export PYDEVD_DISABLE_FILE_VALIDATION := 1
ifneq ($(strip $(DATA_MIRROR)),)
export SAFEGUARDED_DATA_MIRROR := $(abspath $(DATA_MIRROR))
endif

SMOKE := build/smoke
SEED_ARG := $(if $(strip $(SEED)),--seed $(SEED),)

.PHONY: help install reproduce notebooks claims test unit smoke nbval references timings bad-input site browser bench lint clean clean-stale

help: ## list the targets and variables
	@echo "usage: make <target> [WORK=all|rldp|atr|routing|dp_noise|gaussian_mixtures|...] [SCALE=paper|smoke] [DATA_MIRROR=path]"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

install: $(VENV)/.installed ## create .venv (if missing) and install the package with EXTRAS

# (no $(MAKE) inside: with .ONESHELL, `make -n reproduce` would then run the whole recipe)
ifeq ($(SCALE),smoke)
reproduce: smoke ## execute WORK's notebooks at SCALE; paper: outputs into notebooks/ and figures/, claims, timings, site; smoke: all under build/smoke
else
reproduce: install
	$(PY) -m safeguarded.notebooks --work $(WORK) --scale $(SCALE) $(SEED_ARG)
	$(PY) -m safeguarded.claims --readme README.md
	$(PY) -m safeguarded.notebooks --timings $(wildcard build/smoke/timings.csv) build/paper/timings.csv
	$(PY) -m safeguarded.site --out build/site
endif

claims: install ## validate and merge the notebooks' claims into figures/claims.csv, CLAIMS.md and the README summary
	$(PY) -m safeguarded.claims --readme README.md

test: install ## unit tests; every notebook once at smoke scale, checked outputs vs tests/references; site in a browser
	start=$$(date +%s)
	$(MAKE) --no-print-directory unit smoke nbval site browser
	seconds=$$(( $$(date +%s) - start ))
	echo "make test: $$seconds s"
	if [ "$(WORK)" = all ]; then $(PY) -c "import sys; from pathlib import Path; \
	  from safeguarded.notebooks import record_timing, timing_row; \
	  record_timing(Path('$(SMOKE)/timings.csv'), timing_row('make test', '', 'smoke', float(sys.argv[1])))" $$seconds; fi

unit: install ## unit tests only (not the browser test)
	$(PY) -m pytest tests -q --ignore=tests/test_site_browser.py

smoke: install ## execute WORK's notebooks at smoke scale into build/smoke (figures, results, claims there too)
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures SAFEGUARDED_RESULTS=$(abspath $(SMOKE))/results \
	  $(PY) -m safeguarded.notebooks --work $(WORK) --scale smoke --out $(SMOKE)/notebooks $(SEED_ARG)
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures $(PY) -m safeguarded.claims

# nbval compares the checked cells (# NBVAL_CHECK_OUTPUT) of the references with the smoke run's outputs in
# $(SMOKE)/notebooks, replayed by tests/references/conftest.py (no second execution); exit code 5 (no
# test collected) fails like any other.
NBVAL_ARGS := --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider
nbval: install ## nbval (pytest --nbval-lax) over tests/references: WORK's checked smoke outputs vs the references
	refs=$$($(PY) -m safeguarded.notebooks --work $(WORK) --references)
	echo "nbval: pytest $(NBVAL_ARGS) over $$(wc -w <<< "$$refs") references, outputs of $(SMOKE)/notebooks"
	status=0
	SAFEGUARDED_NBVAL_EXECUTED=$(abspath $(SMOKE))/notebooks $(PY) -m pytest $(NBVAL_ARGS) -q $$refs || status=$$?
	if [ "$$status" -eq 5 ]; then echo "nbval: pytest collected no test (exit code 5): failing" >&2; fi
	exit "$$status"

references: install ## rerun WORK at smoke scale and record its checked outputs in tests/references (review the diff)
	$(MAKE) --no-print-directory smoke
	$(PY) -m safeguarded.notebooks --work $(WORK) --write-references $(SMOKE)/notebooks
	$(MAKE) --no-print-directory timings
	git --no-pager diff --stat -- tests/references || true

timings: install ## merge build/*/timings.csv into docs/timings.csv and the README's wall-time table
	$(PY) -m safeguarded.notebooks --timings $(wildcard build/smoke/timings.csv build/paper/timings.csv)

bad-input: install ## regenerate docs/bad_input.md: every public function's bad values and the errors they raise
	$(PY) tests/test_bad_input.py

site: install ## build the site (build/site/html) from the executed notebooks, figures and claims, offline
	$(PY) -m safeguarded.site --out build/site

browser: install ## serve build/site on 127.0.0.1 and check it in headless chromium (screenshots in build/site-screenshots)
	$(PY) -m pytest tests/test_site_browser.py -q -p no:cacheprovider

bench: install ## run every benchmarks/bench_*.py script (not part of CI)
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script; done

lint: install ## ruff over the package, tests and benchmarks
	$(PY) -m ruff check src tests benchmarks

clean: ## remove build outputs (never the cached sweep results in results/)
	rm -rf build .pytest_cache

clean-stale: install ## remove cached sweep cells of older code/solver versions and killed runs' temporaries
	$(PY) -m safeguarded.experiments clean-stale
