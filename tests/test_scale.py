"""The scale plan (docs/scale.md): which too-wide rows a run at the work's count is expected to decide, the
cost from the store, the order, and the generated page."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from safeguarded import results, scale
from safeguarded.experiments import run_sweep
from safeguarded.paths import REPO_ROOT

sys.path.insert(0, str(Path(__file__).parent))
import sweep_cells  # noqa: E402


def _claims(rows):
    base = {"work": "w", "item": "t1", "verdict": "reproduced", "note": ""}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_too_wide_rows_are_expected_decided_only_where_the_shrunk_band_meets_the_rule():
    target = scale.Target("w", "nb", ("t1",), "splits", 100, 10)  # bands shrink by sqrt(10) = 3.16
    wide = "band ±0.1 is {}% of the value (> 10%): too wide to tell"
    claims = _claims(
        [
            {"verdict": "inconclusive", "note": wide.format(30)},  # 30 / 3.16 = 9.5: decided
            {"verdict": "inconclusive", "note": wide.format(32)},  # 10.1: still too wide
            {"verdict": "inconclusive", "note": "not run (no data)"},
            {"verdict": "deviates", "note": wide.format(12)},  # not inconclusive: not counted
            {"item": "t2", "verdict": "inconclusive", "note": wide.format(11)},  # another table
        ]
    )
    counts = scale._claims_counts(claims, target)
    assert counts == {"printed rows": 4, "too wide": 2, "decided at the work's count*": 1, "no value": 1}
    same = scale._claims_counts(claims, scale.Target("w", "nb", ("t1",), "splits", 10, 10))
    assert same["decided at the work's count*"] == 0  # no larger count, no shrinking


def test_plan_costs_come_from_the_store_and_order_by_rows_per_core_hour(tmp_path, monkeypatch):
    store = tmp_path / "results"
    monkeypatch.setenv("SAFEGUARDED_NOTEBOOK", "nb_a")
    run_sweep(
        sweep_cells.noisy_mean,
        [{"mu": m, "n": 5} for m in (0.0, 1.0)],
        [0, 1],
        name="wa/a",
        cache_dir=store,
        backend="sequential",
    )
    figures = tmp_path / "figures"
    figures.mkdir()
    wide = "band ±1 is 20% of the value (> 10%): too wide to tell"
    _claims(
        [{"work": "wa", "item": "ta", "verdict": "inconclusive", "note": wide}] * 3
        + [{"work": "wb", "item": "tb", "verdict": "inconclusive", "note": wide}] * 5
    ).to_csv(figures / "claims.csv", index=False)
    timings = tmp_path / "timings.csv"
    pd.DataFrame([{"notebook": "nb_b", "scale": "paper", "seconds": 3600.0, "cpus": 2, "n_jobs": 1}]).to_csv(
        timings, index=False
    )
    targets = (
        scale.Target("wa", "nb_a", ("ta",), "splits", 40, 4, sweep="wa/a"),
        scale.Target("wb", "nb_b", ("tb",), "splits", 20, 10),
    )
    monkeypatch.setattr(scale, "TARGETS", targets)
    table = scale.plan(figures, store, timings).set_index("notebook")
    # nb_a: 4 stored cells of 4 needed at our count -> 40 at the work's count, 36 to go at the mean cell
    cells = [c.record for s in results.load_stores(store) for c in s.cells.values()]
    mean_cell = np.mean([float(r.get("cpu_s") or r.get("wall_s")) for r in cells])
    assert table.loc["nb_a", "core-h to the work's count"] == pytest.approx(36 * mean_cell / 3600)
    # nb_b: 1 core-h measured at 10 splits -> 2 core-h at 20: 1 to go; 5 rows at 20 % shrink by sqrt(2): 14 %
    assert table.loc["nb_b", "core-h to the work's count"] == pytest.approx(1.0)
    assert table.loc["nb_b", "decided at the work's count*"] == 0
    assert table.loc["nb_a", "decided at the work's count*"] == 3
    assert list(table.index) == ["nb_a", "nb_b"] and list(table["order"]) == ["1", "2"]


def test_the_committed_page_holds_the_plan_block_and_names_every_target():
    text = (REPO_ROOT / "docs" / "scale.md").read_text()
    block = text.split(scale.BEGIN, 1)[1].split(scale.END, 1)[0]
    for target in scale.TARGETS:
        assert f"| {target.notebook} |" in block


def test_write_plan_refuses_a_page_without_its_markers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# no markers\n")
    with pytest.raises(ValueError, match="scale-plan:begin"):
        scale.write_plan(page)
