# Reproduction of privacy- and robustness-safeguarded optimization papers.
# `make help` lists the targets and the variables (the `## NAME=default  text` lines below).

SHELL := /bin/bash
.DEFAULT_GOAL := help
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

## WORK=all              a work (rldp atr routing dp_noise gaussian_mixtures wasserstein_mixed robust_lr_aux
##                       convex_max rlt) or all
## SCALE=paper           paper (the papers' settings: hours, see README) or smoke (minutes, under build/smoke)
## DATA_MIRROR=          a local copy of the data sets (e.g. ../shared/data); empty: download and verify
## SEED=                 override every notebook's seed; empty: each notebook's own
## VENV=.venv            the virtual environment `make install` creates and every target uses
## PYTHON=python3        the interpreter that creates VENV (3.11-3.13; the lock is for these on Linux)
## EXTRAS=dev,scip       pip extras to install (dev: tests, nbval, site, uv; scip: SCIP; mosek, cluster)
## NOTEBOOK=             reproduce: only these notebooks of WORK (names without .ipynb, space-separated)
## BUDGET=               reproduce: stop starting sweep cells after this long (2h, 90m, 600s); rerun continues
##                       from the committed store (results/); empty: no limit
## N=2                   verify: stored cells recomputed per sweep (a seeded sample)
## LOCK=requirements/lock.txt  pip constraints install pins every dependency to; LOCK= installs unpinned
## LOCK_ARGS=            extra arguments of `uv pip compile` for `make lock` (e.g. --upgrade)
## UNIT_WORKERS=auto     unit: pytest-xdist worker processes (auto: one per core; 0: no workers, one process)
## ALLOW_SKIP=           test: checks allowed to be skipped (browser: no chromium here); empty: a skipped browser
##                       test fails. Whatever is skipped is listed in the last lines of make test
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= dev,scip
WORK ?= all
SCALE ?= paper
SEED ?=
BUDGET ?=
NOTEBOOK ?=
N ?= 2
DATA_MIRROR ?=
LOCK ?= requirements/lock.txt
LOCK_ARGS ?=
ALLOW_SKIP ?=
UNIT_WORKERS ?= auto

export MPLBACKEND := Agg
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export SAFEGUARDED_ALLOW_SKIP := $(ALLOW_SKIP)
ifneq ($(strip $(DATA_MIRROR)),)
export SAFEGUARDED_DATA_MIRROR := $(abspath $(DATA_MIRROR))
endif

SMOKE := build/smoke
REPORTS := build/test-reports
SEED_ARG := $(if $(strip $(SEED)),--seed $(SEED),)
BUDGET_ARG := $(if $(strip $(BUDGET)),--budget $(BUDGET),) $(foreach n,$(NOTEBOOK),--notebook $(n))

.PHONY: help install lock reproduce notebooks claims test unit smoke nbval references timings bad-input site browser bench lint clean clean-scratch status verify verify-fast

help: ## list the targets and variables
	@echo "usage: make <target> [VARIABLE=value ...]   (reproduce and test install first if needed)"
	echo "targets:"
	grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-11s %s\n", $$1, $$2}'
	echo "variables (default after =):"
	grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  /'
	echo "hours: reproduce at SCALE=paper (the default): about 8 h on 2 cores for WORK=all (README's table"
	echo "per notebook). Minutes: test (about 10 min), reproduce SCALE=smoke, smoke, references, site."

# The install stamp records EXTRAS and LOCK: changing either (e.g. LOCK= for an unpinned install) reinstalls.
INSTALL_SIGNATURE := extras=$(EXTRAS) lock=$(LOCK)
ifneq ($(shell cat $(VENV)/.installed 2>/dev/null),$(INSTALL_SIGNATURE))
.PHONY: $(VENV)/.installed
endif
$(VENV)/.installed: pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]' $(if $(strip $(LOCK)),-c $(LOCK),)
	echo '$(INSTALL_SIGNATURE)' > $@

install: $(VENV)/.installed ## create VENV (if missing) and install the package with EXTRAS, pinned by LOCK

# One set of pins for CPython 3.11-3.13 on Linux (markers where a dependency applies to some only);
# --fork-strategy fewest: the same version of a package for every Python where one fits all.
# requirements/pins.txt adds the pins pyproject.toml's ranges leave open (HiGHS: the claims' version).
lock: ## regenerate requirements/lock.txt from pyproject.toml (dev,scip extras) with uv pip compile
	test -x $(PY) || { echo "no $(PY): run \`make install\` (or \`make install LOCK=\`) first" >&2; exit 1; }
	$(PY) -m uv --version >/dev/null 2>&1 || $(PY) -m pip install --quiet uv
	$(PY) -m uv pip compile pyproject.toml --extra dev --extra scip -c requirements/pins.txt --universal \
	  --python-version 3.11 --fork-strategy fewest --custom-compile-command "make lock" $(LOCK_ARGS) \
	  -o requirements/lock.txt

# (no $(MAKE) inside: with .ONESHELL, `make -n reproduce` would then run the whole recipe)
ifeq ($(SCALE),smoke)
reproduce: smoke ## execute WORK's notebooks at SCALE; paper: outputs into notebooks/ and figures/, claims, timings, site; smoke: all under build/smoke
else
reproduce: install
	$(PY) -m safeguarded.notebooks --work $(WORK) --scale $(SCALE) $(SEED_ARG) $(BUDGET_ARG)
	$(PY) -m safeguarded.results status --write README.md docs/results.md
	$(PY) -m safeguarded.claims --readme README.md --findings docs/findings.md --protocol docs/claims.md \
	  --reviewing docs/reviewing.md
	$(PY) -m safeguarded.scale --write docs/scale.md
	$(PY) -m safeguarded.notebooks --timings $(wildcard build/smoke/timings.csv) build/paper/timings.csv
	$(PY) -m safeguarded.site --out build/site
endif

claims: install ## merge the notebooks' claims into figures/claims.csv, CLAIMS.md, the overview figures, the README blocks, docs/claims.md
	$(PY) -m safeguarded.claims --readme README.md --findings docs/findings.md --protocol docs/claims.md \
	  --reviewing docs/reviewing.md

test: install ## unit tests; every notebook once at smoke scale, checked outputs vs tests/references; site in a browser
	start=$$(date +%s)
	rm -rf $(REPORTS)
	$(MAKE) --no-print-directory unit verify-fast smoke nbval site browser
	seconds=$$(( $$(date +%s) - start ))
	echo "make test: $$seconds s"
	$(PY) tests/report_skips.py $(REPORTS)
	if [ "$(WORK)" = all ]; then $(PY) -c "import sys; from pathlib import Path; \
	  from safeguarded.notebooks import record_timing, timing_row; \
	  record_timing(Path('$(SMOKE)/timings.csv'), timing_row('make test', '', 'smoke', float(sys.argv[1])))" $$seconds; fi

unit: install ## unit tests only (not the browser test), a test file per worker on UNIT_WORKERS processes
	$(PY) -m pytest tests -q --ignore=tests/test_site_browser.py -n $(UNIT_WORKERS) --dist loadfile \
	  --junitxml=$(REPORTS)/unit.xml

smoke: install ## execute WORK's notebooks at smoke scale into build/smoke (figures, results, claims there too)
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures SAFEGUARDED_RESULTS=$(abspath $(SMOKE))/results \
	  $(PY) -m safeguarded.notebooks --work $(WORK) --scale smoke --out $(SMOKE)/notebooks $(SEED_ARG)
	SAFEGUARDED_FIGURES=$(abspath $(SMOKE))/figures SAFEGUARDED_RESULTS=$(abspath $(SMOKE))/results $(PY) -m safeguarded.claims

# nbval compares the checked cells (# NBVAL_CHECK_OUTPUT) of the references with the smoke run's outputs in
# $(SMOKE)/notebooks, replayed by tests/references/conftest.py (no second execution); exit code 5 (no
# test collected) fails like any other.
NBVAL_ARGS := --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider
nbval: install ## nbval (pytest --nbval-lax) over tests/references: WORK's checked smoke outputs vs the references
	refs=$$($(PY) -m safeguarded.notebooks --work $(WORK) --references)
	echo "nbval: pytest $(NBVAL_ARGS) over $$(wc -w <<< "$$refs") references, outputs of $(SMOKE)/notebooks"
	status=0
	SAFEGUARDED_NBVAL_EXECUTED=$(abspath $(SMOKE))/notebooks $(PY) -m pytest $(NBVAL_ARGS) -q \
	  --junitxml=$(REPORTS)/nbval.xml $$refs || status=$$?
	if [ "$$status" -eq 5 ]; then echo "nbval: pytest collected no test (exit code 5): failing" >&2; fi
	exit "$$status"

references: install ## rerun WORK at smoke scale and record its checked outputs in tests/references (review the diff)
	$(MAKE) --no-print-directory smoke
	$(PY) -m safeguarded.notebooks --work $(WORK) --write-references $(SMOKE)/notebooks
	$(MAKE) --no-print-directory timings
	git --no-pager diff --stat -- tests/references || true

timings: install ## merge build/*/timings.csv into docs/timings.csv and the README's wall-time table
	$(PY) -m safeguarded.notebooks --timings $(wildcard build/smoke/timings.csv build/paper/timings.csv)

bad-input: install ## regenerate docs/bad_input.md (summary per work) and docs/bad_input/<work>.csv (every bad value, its error)
	$(PY) tests/test_bad_input.py

site: install ## build the site (build/site/html) from the executed notebooks, figures and claims, offline
	$(PY) -m safeguarded.site --out build/site

browser: install ## serve build/site on 127.0.0.1 and check it in headless chromium (screenshots in build/site-screenshots)
	$(PY) -m pytest tests/test_site_browser.py -q -p no:cacheprovider --junitxml=$(REPORTS)/browser.xml

bench: install ## run every benchmarks/bench_*.py script (not part of CI)
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script; done

lint: install ## ruff over the package, tests and benchmarks
	$(PY) -m ruff check src tests benchmarks

status: install ## the results store per sweep: cells stored / needed, core-hours spent and to go (README, docs/results.md); the scale plan (docs/scale.md)
	$(PY) -m safeguarded.results status --work $(WORK) $(if $(filter all,$(WORK)),--write README.md docs/results.md,)
	$(if $(filter all,$(WORK)),$(PY) -m safeguarded.scale --write docs/scale.md,)

verify: install ## recompute N seeded-random stored cells of every sweep of WORK and compare with the store
	$(PY) -m safeguarded.results verify --work $(WORK) --n $(N) $(SEED_ARG)

verify-fast: install ## make test's sample: the quickest stored cell of every sweep (at most 120 s each)
	$(PY) -m safeguarded.results verify --work $(WORK) --n 1 --fast --max-seconds 120

clean: ## remove build outputs (never the results store in results/)
	rm -rf build .pytest_cache

clean-scratch: install ## remove the old pickle cache and dead processes' markers under results/ (never store data)
	$(PY) -m safeguarded.experiments clean-scratch
