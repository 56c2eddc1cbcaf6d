"""The results store's own properties: exact round trips, keys, the verify comparison, the status
table, the size budget of the committed store (the fault suite is tests/test_faults.py)."""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from safeguarded import results
from safeguarded.experiments import run_sweep
from safeguarded.paths import REPO_ROOT

#: The committed store (tests/conftest.py points $SAFEGUARDED_RESULTS, hence paths.RESULTS, elsewhere).
COMMITTED = REPO_ROOT / "results"

sys.path.insert(0, str(Path(__file__).parent))
import sweep_cells  # noqa: E402

VALUES = [
    None,
    True,
    0,
    -3,
    2**70,
    0.1,
    1 / 3,
    -0.0,
    1e-310,
    math.inf,
    -math.inf,
    "text",
    "ünïcode",
    [1, 2.5],
    (1, "a", (2.0,)),
    {"a": 1, "b": [None]},
    {1: "int key", (2, 3): "tuple key"},
    np.float64(0.1),
    np.int32(7),
    np.bool_(True),
    np.arange(6, dtype=np.int16).reshape(2, 3),
    np.array([0.1, np.nan]),
    np.array([], dtype=bool),
]


@pytest.mark.parametrize("value", VALUES, ids=[repr(v)[:30] for v in VALUES])
def test_values_round_trip_exactly_through_a_stored_line(value):
    line = results._line({"kind": "cell", "rows": [{"x": results.encode(value)}]})
    back = results.decode(results._parse(line.rstrip(b"\n"), Path("x"), 1)["rows"][0]["x"])
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape
        np.testing.assert_array_equal(back, value)
    elif isinstance(value, np.generic):
        assert back == value.item() and type(back) is type(value.item())
    elif isinstance(value, float) and value == 0:
        assert math.copysign(1, back) == math.copysign(1, value)
    else:
        assert back == value and type(back) is type(value)


def test_nan_round_trips_and_unstorable_values_are_named():
    assert math.isnan(results.decode(json.loads(json.dumps(results.encode(float("nan"))))))
    with pytest.raises(TypeError, match="got a pandas.DataFrame"):
        results.encode({"table": pd.DataFrame({"a": [1]})})


def test_a_cell_returning_an_unstorable_value_fails_before_anything_is_written(tmp_path):
    with pytest.raises(TypeError, match="got a builtins.set"):
        run_sweep(
            sweep_cells.unstorable_cell, [{"k": 0}], [0], name="u", cache_dir=tmp_path, backend="sequential"
        )
    assert not list(tmp_path.rglob("*.jsonl"))


def test_key_and_version_validation():
    with pytest.raises(ValueError, match="version must be letters"):
        results.SweepStore("a/b", "1 2")
    with pytest.raises(ValueError, match="sweep must be a non-empty relative path"):
        results.SweepStore("../a", "1")
    with pytest.raises(ValueError, match="tolerance must be"):
        run_sweep(
            sweep_cells.noisy_mean, [{"mu": 0, "n": 1}], [0], name="x", cache=False, tolerance={"rtol": -1}
        )


def test_compare_rows_tolerance_text_and_timings():
    tol = {"rtol": 1e-6, "atol": 1e-12}
    assert results.compare_rows([{"x": 1.0, "time": 3.0}], [{"x": 1.0 + 1e-9, "time": 9.0}], **tol) == []
    (diff,) = results.compare_rows([{"x": 1.0}], [{"x": 1.001}], **tol)
    assert diff == "row 0 x: stored 1.0, now 1.001"
    assert results.compare_rows([{"s": "optimal"}], [{"s": "infeasible"}], **tol)
    assert results.compare_rows([{"x": np.nan}], [{"x": np.nan}], **tol) == []
    assert results.compare_rows([{"x": np.nan}], [{"x": 0.0}], **tol)
    assert results.compare_rows([{"v": (1.0, 2.0)}], [{"v": (1.0, 2.5)}], **tol)
    assert results.compare_rows([{"x": 1.0}], [{"x": 1.0}, {"x": 2.0}], **tol) == ["1 stored rows, 2 now"]
    assert results.compare_rows([{"x": 1.0}], [{"y": 1.0}], **tol)  # a column gone and one new


def test_compare_rows_column_tolerance_overrides_the_sweeps_for_that_column_only():
    tol = {"rtol": 1e-6, "atol": 0.0}
    stored, now = [{"P": 2.0, "gap_pp": 0.01}], [{"P": 2.0 * (1 + 5e-7), "gap_pp": 0.01 + 5e-5}]
    (diff,) = results.compare_rows(stored, now, **tol)
    assert diff.startswith("row 0 gap_pp")
    assert results.compare_rows(stored, now, **tol, columns={"gap_pp": {"rtol": 0.0, "atol": 1e-4}}) == []
    assert results.compare_rows(stored, now, **tol, columns={"gap_pp": {"rtol": 0.0, "atol": 1e-5}})
    for bad in ({"rtol": 0, "atol": 0, "columns": {"x": {"rtol": -1, "atol": 0}}},
                {"rtol": 0, "atol": 0, "columns": {"x": {"rtol": 0}}}, {"rtol": 0, "atol": 0, "columns": 3}):
        with pytest.raises(ValueError, match="tolerance must be"):
            results.check_tolerance(bad)
    # a sweep naming its own volatile columns: only those are skipped
    assert results.compare_rows([{"time": 1.0}], [{"time": 2.0}], **tol, volatile=["wall"])
    assert results.compare_rows([{"wall": 1.0}], [{"wall": 2.0}], **tol, volatile=["wall"]) == []


def test_status_counts_cells_per_notebook_grid(tmp_path, monkeypatch):
    params = [{"mu": m, "n": 5} for m in (0.0, 1.0, 2.0)]
    monkeypatch.setenv("SAFEGUARDED_NOTEBOOK", "nb_one")
    run_sweep(
        sweep_cells.noisy_mean, params[:2], [0, 1], name="w/s", cache_dir=tmp_path, backend="sequential"
    )
    monkeypatch.setenv("SAFEGUARDED_NOTEBOOK", "nb_two")
    monkeypatch.setenv("SAFEGUARDED_DEADLINE", "0")  # asks for all three, computes none
    df = run_sweep(
        sweep_cells.noisy_mean,
        params,
        [0, 1],
        name="w/s",
        cache_dir=tmp_path,
        backend="sequential",
        allow_partial=True,
    )
    assert (df.attrs["present"], df.attrs["needed"]) == (4, 6)
    (row,) = results.status(tmp_path)
    assert (row["sweep"], row["version"], row["notebooks"]) == ("w/s", "1", "nb_one, nb_two")
    assert (row["stored"], row["needed"], row["extra"]) == (4, 6, 0)
    assert row["core_h_spent"] > 0 and row["core_h_to_go"] > 0
    by_notebook = {r["notebook"]: r for r in results.notebook_status(tmp_path, figures=tmp_path)}
    assert (by_notebook["nb_one"]["stored"], by_notebook["nb_one"]["needed"]) == (4, 4)
    assert (
        by_notebook["nb_two"]["stored"],
        by_notebook["nb_two"]["needed"],
        by_notebook["nb_two"]["items"],
    ) == (4, 6, "—")
    assert by_notebook["nb_two"]["core_h_to_go"] > 0 == by_notebook["nb_one"]["core_h_to_go"]
    table = results.status_markdown([row], results.store_size(tmp_path))
    assert (
        "| `w/s` | 1 | nb_one, nb_two | 4 / 6 |" in table and "MiB of the 100 MiB budget (4 cells)" in table
    )
    doc = tmp_path / "page.md"
    doc.write_text(f"before\n{results._STATUS_BEGIN}\nold\n{results._STATUS_END}\nafter\n")
    assert results.write_status(table, [doc]) == [doc]
    assert doc.read_text() == f"before\n{results._STATUS_BEGIN}\n{table}{results._STATUS_END}\nafter\n"


def test_the_committed_store_fits_its_budget_and_is_whole():
    size = results.store_size(COMMITTED)
    assert size <= results.BUDGET_MIB * 2**20, f"results/ holds {size / 2**20:.1f} MiB, over the budget"
    rows = results.status(COMMITTED)
    assert not [r["sweep"] for r in rows if r["corrupt"] or r["conflicts"]]


def test_readme_and_docs_show_the_current_status_table():
    text = results.status_report(COMMITTED, figures=REPO_ROOT / "figures")
    for page in (REPO_ROOT / "README.md", REPO_ROOT / "docs" / "results.md"):
        content = page.read_text(encoding="utf-8")
        shown = content.partition(results._STATUS_BEGIN)[2].partition(results._STATUS_END)[0]
        assert shown.strip() == text.strip(), f"{page.name}: run `make status` to update its results table"


def test_claims_name_the_sweeps_their_notebook_read(tmp_path, monkeypatch):
    from safeguarded import claims

    fragment = tmp_path / "figures" / "rldp" / "claims"
    fragment.mkdir(parents=True)
    pd.DataFrame({"item": ["fig2", "fig2", "table1"]}).to_csv(fragment / "rldp_fig2.csv", index=False)
    pd.DataFrame({"item": ["fig9"]}).to_csv(fragment / "rldp_other.csv", index=False)
    monkeypatch.setenv("SAFEGUARDED_NOTEBOOK", "rldp_fig2")
    params = [{"mu": 0.0, "n": 3}, {"mu": 1.0, "n": 3}]
    run_sweep(
        sweep_cells.noisy_mean, params, [0], name="rldp/s", cache_dir=tmp_path / "store", backend="sequential"
    )
    monkeypatch.setenv("SAFEGUARDED_DEADLINE", "0")
    run_sweep(
        sweep_cells.noisy_mean,
        params,
        [0, 1],
        name="rldp/s",
        version="2",
        cache_dir=tmp_path / "store",
        backend="sequential",
        allow_partial=True,
    )
    table = claims.sweeps_table(tmp_path / "figures", tmp_path / "store").set_index("notebook")
    assert table.loc["rldp_fig2", "items"] == "fig2 table1"
    assert (
        table.loc["rldp_fig2", "sweeps"] == "rldp/s v1 (2 / 2 cells stored); rldp/s v2 (0 / 4 cells stored)"
    )
    assert table.loc["rldp_other", "sweeps"] == "none recorded"


def test_verify_fast_skips_sweeps_without_a_quick_cell_and_says_so(tmp_path):
    run_sweep(
        sweep_cells.noisy_mean,
        [{"mu": 0.0, "n": 3}],
        [0, 1],
        name="w/q",
        cache_dir=tmp_path,
        backend="sequential",
    )
    lines = []
    (report,) = results.verify(tmp_path, n=1, fast=True, max_seconds=-1.0, log=lines.append)
    assert report.ok and report.checked == 0 and "skipped: no stored cell took at most -1 s" in lines[0]
    (report,) = results.verify(tmp_path, n=1, fast=True, max_seconds=60, log=lines.append)
    assert report.ok and report.checked == 1
