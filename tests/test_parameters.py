"""Notebook parameters and the environment checked before any work (safeguarded.parameters), and a
notebook run by hand at smoke scale leaving the checkout unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from safeguarded import parameters
from safeguarded.paths import REPO_ROOT

BAD = [
    ("scale", "medium"),
    ("scale", "Smoke"),
    ("scale", None),
    ("seed", "abc"),
    ("seed", -1),
    ("seed", True),
    ("seed", 1.5),
    ("n_sims", -5),
    ("n_sims", 0),
    ("n_sims", 2.5),
    ("n_sims", "10"),
    ("splits", True),
    ("folds", 1),
    ("time_limit", 0),
    ("time_limit", float("nan")),
    ("baseline_limit", "10"),
    ("fig20_n", 5),
    ("fig20_n", []),
    ("fig20_n", [5, 0]),
    ("sizes", "500"),
    ("datasets", "spect"),
    ("datasets", ["spect", 3]),
    ("mg_deltas", [1e-5, -1.0]),
]


@pytest.mark.parametrize(("name", "value"), BAD, ids=[f"{n}={v!r}" for n, v in BAD])
def test_a_bad_parameter_is_named_with_its_valid_values(name, value):
    with pytest.raises(ValueError, match=rf"^{name} must be .* got {name}="):
        parameters.check_parameter(name, value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("scale", "smoke"),
        ("scale", "paper"),
        ("seed", 0),
        ("seed", 12),
        ("n_sims", None),
        ("n_sims", 3),
        ("folds", 2),
        ("time_limit", 0.5),
        ("fig20_n", (5, 10)),
        ("datasets", ["spect"]),
        ("mg_deltas", [1e-5]),
        ("discrete_counts", [0, 2]),
    ],
)
def test_a_good_parameter_passes_unchanged(name, value):
    assert parameters.check_parameter(name, value) is value


def test_an_undeclared_parameter_must_be_given_a_kind():
    with pytest.raises(ValueError, match="unknown notebook parameter 'n_sim'.*KINDS"):
        parameters.check_parameter("n_sim", 3)


def test_every_notebook_parameter_has_a_kind_and_every_notebook_calls_setup_with_all_of_them():
    import nbformat

    for path in sorted((REPO_ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        (params,) = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
        names = [
            line.split("=")[0].strip()
            for line in params.source.splitlines()
            if "=" in line and not line.startswith(("#", " "))
        ]
        setup_cells = [c for c in nb.cells if "safeguarded.parameters import setup" in c.source]
        assert len(setup_cells) == 1, f"{path.name}: one setup cell"
        position = nb.cells.index(setup_cells[0])
        assert all(
            "import" not in c.source or "safeguarded.parameters" in c.source
            for c in nb.cells[:position]
            if c.cell_type == "code"
        ), f"{path.name}: setup comes first"
        for name in names:
            assert f"{name}={name}" in setup_cells[0].source, f"{path.name}: {name} not checked"
            assert name in ("scale", "seed") or name in parameters.KINDS


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SAFEGUARDED_N_JOBS", "two"),
        ("SAFEGUARDED_N_JOBS", "0"),
        ("SAFEGUARDED_N_JOBS", "-1"),
        ("SAFEGUARDED_BACKEND", "mpi"),
        ("SAFEGUARDED_ARRAY", "tensorflow"),
        ("SAFEGUARDED_DEADLINE", "soon"),
    ],
)
def test_a_bad_environment_variable_is_named(monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=rf"{variable} must be"):
        parameters.check_environment()
    if variable in ("SAFEGUARDED_N_JOBS", "SAFEGUARDED_BACKEND"):  # run_sweep names it too
        from safeguarded.experiments import run_sweep

        with pytest.raises(ValueError, match=rf"{variable} must be"):
            run_sweep(abs, [{"x": 1}], [0], name="w/none", cache=False)


def test_outputs_of_a_non_paper_scale_go_under_build_unless_set(monkeypatch):
    clean = {}
    assert parameters.output_roots("paper", clean) == {
        "SAFEGUARDED_FIGURES": REPO_ROOT / "figures",
        "SAFEGUARDED_RESULTS": REPO_ROOT / "results",
    }
    assert parameters.output_roots("smoke", clean) == {
        "SAFEGUARDED_FIGURES": REPO_ROOT / "build" / "smoke" / "figures",
        "SAFEGUARDED_RESULTS": REPO_ROOT / "build" / "smoke" / "results",
    }
    given = {"SAFEGUARDED_FIGURES": "/elsewhere/f"}
    assert parameters.output_roots("smoke", given)["SAFEGUARDED_FIGURES"].as_posix() == "/elsewhere/f"
    monkeypatch.delenv("SAFEGUARDED_FIGURES")
    monkeypatch.delenv("SAFEGUARDED_RESULTS")
    parameters.setup(scale="smoke", seed=0)
    from safeguarded.paths import figure_dir

    assert figure_dir("rldp") == REPO_ROOT / "build" / "smoke" / "figures" / "rldp"


def _repository_state() -> tuple[str, dict]:
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    stamps = {
        str(p): p.stat().st_mtime_ns
        for root in ("figures", "results", "notebooks")
        for p in (REPO_ROOT / root).rglob("*")
        if p.is_file()
    }
    return status, stamps


@pytest.mark.slow
def test_papermill_by_hand_at_smoke_scale_leaves_the_checkout_unchanged(tmp_path, data_mirror):
    """The way a user runs a notebook: plain papermill, no make, no SAFEGUARDED_* output variables."""
    name = "robust_lr_aux_fig16_table29"
    started = time.time() - 1
    before = _repository_state()
    env = {k: v for k, v in os.environ.items() if k not in ("SAFEGUARDED_FIGURES", "SAFEGUARDED_RESULTS")}
    out = tmp_path / "out.ipynb"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "papermill",
            str(REPO_ROOT / "notebooks" / f"{name}.ipynb"),
            str(out),
            "-p",
            "scale",
            "smoke",
            "--cwd",
            str(tmp_path),
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    assert json.loads(out.read_text())["cells"], "papermill wrote the executed notebook"
    assert _repository_state() == before
    fragment = REPO_ROOT / "build" / "smoke" / "figures" / "robust_lr_aux" / "claims" / f"{name}.csv"
    assert fragment.stat().st_mtime >= started  # its outputs went to build/smoke instead


@pytest.mark.slow
def test_papermill_with_a_bad_parameter_stops_before_any_work_naming_it(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "papermill",
            str(REPO_ROOT / "notebooks" / "rldp_fig2.ipynb"),
            str(tmp_path / "out.ipynb"),
            "-p",
            "scale",
            "medium",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "scale must be one of ('smoke', 'paper'), got scale='medium'" in result.stdout + result.stderr


def test_setup_shows_nothing_in_the_notebook(monkeypatch):
    """The setup cell is the last expression of its cell: a return value would be printed as its output."""
    monkeypatch.setenv("SAFEGUARDED_FIGURES", "/tmp/f")
    monkeypatch.setenv("SAFEGUARDED_RESULTS", "/tmp/r")
    assert parameters.setup(scale="paper", seed=0) is None
