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

.PHONY: help install reproduce notebooks claims test unit smoke nbval bench lint clean

help: ## list the targets and variables
	@echo "usage: make <target> [WORK=all|rldp|atr|routing|dp_noise|gaussian_mixtures|...] [SCALE=paper|smoke] [DATA_MIRROR=path]"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

install: $(VENV)/.installed ## create .venv (if missing) and install the package with EXTRAS

reproduce: install ## execute WORK's notebooks at SCALE (default: all, paper) and write the claims report
	$(PY) -m safeguarded.notebooks --work $(WORK) --scale $(SCALE) $(SEED_ARG)
	$(MAKE) --no-print-directory claims

claims: install ## validate and merge the notebooks' claims into figures/claims.csv, CLAIMS.md and the README summary
	$(PY) -m safeguarded.claims --readme README.md

test: unit smoke nbval ## unit tests, then every notebook at smoke scale under nbval

unit: install ## unit tests only
	$(PY) -m pytest tests -q

smoke: install ## execute WORK's notebooks at smoke scale into build/smoke (figures there too)
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures SAFEGUARDED_RESULTS=$(abspath $(SMOKE))/results \
	  $(PY) -m safeguarded.notebooks --work $(WORK) --scale smoke --out $(SMOKE)/notebooks
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures $(PY) -m safeguarded.claims

nbval: install ## re-run the smoke-executed notebooks under nbval (lax) and compare checked outputs
	books=$$($(PY) -c "from safeguarded.notebooks import notebooks_of; print(' '.join('$(SMOKE)/notebooks/'+p.name for p in notebooks_of('$(WORK)')))")
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/nbval-figures SAFEGUARDED_RESULTS=$(abspath $(SMOKE))/nbval-results \
	  $(PY) -m pytest --nbval-lax --nbval-kernel-name python3 -p no:cacheprovider -q $$books

bench: install ## run every benchmarks/bench_*.py script (not part of CI)
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script; done

lint: install ## ruff over the package, tests and benchmarks
	$(PY) -m ruff check src tests benchmarks

clean: ## remove build outputs (never the cached sweep results in results/)
	rm -rf build .pytest_cache
