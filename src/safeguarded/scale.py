"""The scale campaign's plan: which printed tables run below the works' own counts, what reaching them costs,
and in which order the cells are best spent (``docs/scale.md``, written by ``make status``).

Per campaign target (a notebook's printed tables whose Monte-Carlo count or grid is below the work's):

* the work's count and ours (:data:`TARGETS`, read from the work's text and the notebook's paper settings;
  ``runs`` of the claims states both);
* from the claims report (``figures/claims.csv``): the printed rows, those ``inconclusive`` because the band
  is too wide at our count ("band ±x is P% of the value (> T%): too wide to tell") and those with no value
  ("not run", "no reproduced value");
* how many of the too-wide rows a run at the work's count is expected to decide: a band shrinks by
  √(ours / the work's count) with the count (standard errors over splits or simulations), so a row whose
  band is P% of its value is expected to fall under the T% rule where P·√(ours / count) ≤ T (the rule is
  fixed; this only predicts which rows the run can move);
* from the results store (:func:`safeguarded.results.load_stores`): the cells stored, the mean CPU seconds
  of a stored cell, core-hours spent; else the notebook's measured paper-scale run (``docs/timings.csv``);
* the core-hours to reach the work's count, and the order: rows expected to be decided per core-hour, the
  most first.  Estimates scale our measured cost per cell linearly in the count (times ``cell_factor`` where
  the work's grid is larger than ours), so they are as good as the measured cells are typical.
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.paths import FIGURES, REPO_ROOT, RESULTS

__all__ = ["Target", "TARGETS", "plan", "plan_markdown", "write_plan"]

BEGIN, END = "<!-- scale-plan:begin -->", "<!-- scale-plan:end -->"
TOO_WIDE = re.compile(r"is (\d+(?:\.\d+)?)% of the value \(> (\d+(?:\.\d+)?)%\): too wide to tell")
NO_VALUE = re.compile(r"not run|no reproduced value", re.IGNORECASE)


@dataclass(frozen=True)
class Target:
    """A notebook's printed tables below the work's count: what the work ran, what we ran, the cells.

    ``ours`` / ``thesis`` are counts of ``unit`` (splits, simulations, data sets): ``ours`` that of the
    printed outputs, ``registered`` that of the notebook's paper settings, whose cells the store's grid file
    records (default ``ours``; above it while the store fills toward the thesis's count); ``cell_factor`` is
    the cost of one of the work's cells relative to one of ours where the work's grid or size is larger (1
    when only the count differs); ``sweep`` is the store's sweep holding the cells (None: the notebook does
    not run through the store at that count yet).
    """

    work: str
    notebook: str
    items: tuple[str, ...]
    unit: str
    thesis: int
    ours: int
    sweep: str | None = None
    cell_factor: float = 1.0
    note: str = ""
    registered: int | None = None


TARGETS: tuple[Target, ...] = (
    Target(
        "wasserstein_mixed",
        "wasserstein_mixed_tables21_26",
        ("table21", "table22", "table23", "table24", "table25", "table26"),
        "splits",
        100,
        10,
        sweep="wasserstein_mixed/tables21_26",
        note="L3504: 100 random 80/20 splits; ours: 10 per data set, size and loss",
    ),
    Target(
        "robust_lr_aux",
        "robust_lr_aux_uci_tables27_30_31",
        ("table27", "table30", "table31"),
        "simulations",
        10,
        10,
        sweep="robust_lr_aux/uci_paper",
        cell_factor=150.0,
        note="same 10 simulations, but the thesis's grid: 5 folds (ours 3) and 11 × 11 radii × 3 κ for "
        "Inter-ARO* (ours 2 × 2 × 1), ≈ 90 × the candidates × 5/3 the folds ≈ 150 × a cell",
    ),
    Target(
        "dp_noise",
        "dp_noise_table03",
        ("table03",),
        "simulations per split",
        1000,
        100,
        note="100 splits × 1,000 simulations; ours 100 splits × 100 (1 or 20 in some columns)",
    ),
    Target(
        "gaussian_mixtures",
        "gaussian_mixtures_pcd_tables09_18",
        ("table09", "table18"),
        "splits",
        500,
        500,
        note="500 splits × 1 simulation as the thesis (simulations per split not "
        "stated): at the thesis's count",
    ),
    Target(
        "wasserstein_mixed",
        "wasserstein_mixed_tables19_20",
        ("table19", "table20"),
        "data sets per cell",
        100,
        3,
        cell_factor=12.0,
        note="100 data sets per (N, J) with a 1 h limit (Table 20) and MOSEK (Table 19); ours 1-3 data "
        "sets with 30-300 s limits: ≈ 12 × the time per data set at the thesis's limits",
    ),
)


def _claims_counts(claims: pd.DataFrame, target: Target) -> dict:
    rows = claims[(claims["work"] == target.work) & claims["item"].isin(target.items)]
    notes = rows["note"].fillna("")
    wide = rows[(rows["verdict"] == "inconclusive") & notes.str.contains("too wide to tell", regex=False)]
    shrink = math.sqrt(target.ours / target.thesis)
    expected = 0
    for note in wide["note"]:
        match = TOO_WIDE.search(note)
        if match and float(match.group(1)) * shrink <= float(match.group(2)):
            expected += 1
    no_value = rows[(rows["verdict"] == "inconclusive") & notes.str.contains(NO_VALUE)]
    return {
        "printed rows": len(rows),
        "too wide": len(wide),
        "decided at the work's count*": expected,
        "no value": len(no_value),
    }


def _store_costs(sweep: str, store_root: Path) -> dict | None:
    """The sweep's row of :func:`safeguarded.results.status`, with the mean CPU seconds of a stored cell."""
    from safeguarded.results import status

    for row in status(store_root, sweep.split("/", 1)[0]):
        if row["sweep"] == sweep:
            cells = row["stored"] + row["extra"]
            return {
                "stored": row["stored"],
                "needed": row["needed"] or 0,
                "spent_h": row["core_h_spent"],
                "cell_s": row["core_h_spent"] * 3600 / cells if cells else math.nan,
            }
    return None


def _timing_core_hours(notebook: str, timings: pd.DataFrame) -> float:
    runs = timings[(timings["notebook"] == notebook) & (timings["scale"] == "paper")]
    if runs.empty:
        return math.nan
    last = runs.iloc[-1]
    cores = last["n_jobs"] if pd.notna(last.get("n_jobs")) and last["n_jobs"] else last["cpus"]
    return float(last["seconds"]) * float(cores) / 3600


def plan(figures: Path = FIGURES, store: Path = RESULTS, timings: Path | None = None) -> pd.DataFrame:
    """One row per :data:`TARGETS` entry, in the order of work (see the module)."""
    claims = pd.read_csv(Path(figures) / "claims.csv", dtype={"note": str})
    timing_table = pd.read_csv(timings or REPO_ROOT / "docs" / "timings.csv")
    rows = []
    for target in TARGETS:
        ratio = target.thesis / target.ours
        counts = _claims_counts(claims, target)
        costs = _store_costs(target.sweep, Path(store)) if target.sweep else None
        if costs and costs["needed"]:
            needed = costs["needed"] * target.thesis / (target.registered or target.ours)
            to_go = max(needed - costs["stored"], 0) * target.cell_factor * costs["cell_s"] / 3600
            if target.cell_factor != 1.0:  # the work's grid: every cell again, the stored ones included
                to_go = needed * target.cell_factor * costs["cell_s"] / 3600
            source = (
                f"store: {costs['stored']:,} of {costs['needed']:,} cells registered "
                f"({target.registered or target.ours} {target.unit}), mean cell "
                f"{costs['cell_s']:.0f} CPU s"
            )
            spent = costs["spent_h"]
        else:
            measured = _timing_core_hours(target.notebook, timing_table)
            to_go = (
                measured * (ratio * target.cell_factor - 1)
                if target.thesis > target.ours or target.cell_factor != 1.0
                else 0.0
            )
            source = (
                f"notebook's paper run: {measured:.2f} core-h at our count"
                if not math.isnan(measured)
                else "no measured run"
            )
            spent = math.nan
        decided = counts["decided at the work's count*"]
        rows.append(
            {
                "work": target.work,
                "notebook": target.notebook,
                "items": " ".join(target.items),
                "unit": target.unit,
                "work's count": target.thesis,
                "ours": target.ours,
                **counts,
                "core-h spent (store)": spent,
                "core-h to the work's count": to_go,
                "rows decided per 100 core-h": 100 * decided / to_go if to_go and to_go > 0 else math.nan,
                "cost from": source,
                "note": target.note,
            }
        )
    table = pd.DataFrame(rows)
    at_count = table["core-h to the work's count"] <= 0
    table["order"] = np.where(at_count, "at the work's count", "")
    pending = table[~at_count].sort_values(
        ["rows decided per 100 core-h", "core-h to the work's count"],
        ascending=[False, True],
        na_position="last",
    )
    for rank, index in enumerate(pending.index, start=1):
        table.loc[index, "order"] = str(rank)
    return pd.concat([table.loc[pending.index], table[at_count]])


def plan_markdown(table: pd.DataFrame) -> str:
    """The plan as the markdown table of ``docs/scale.md``."""

    def fmt(value):
        if isinstance(value, float):
            return "—" if math.isnan(value) else f"{value:,.1f}"
        return str(value)

    columns = [
        "order",
        "notebook",
        "items",
        "unit",
        "work's count",
        "ours",
        "printed rows",
        "too wide",
        "decided at the work's count*",
        "no value",
        "core-h to the work's count",
        "rows decided per 100 core-h",
        "cost from",
    ]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for _, row in table.iterrows():
        lines.append("| " + " | ".join(fmt(row[c]).replace("|", "/") for c in columns) + " |")
    notes = [f"* `{row['notebook']}`: {row['note']}" for _, row in table.iterrows() if row["note"]]
    return "\n".join(lines + ["", *notes])


def write_plan(path: Path, *, figures: Path = FIGURES, store: Path = RESULTS) -> Path:
    """Replace the part of ``path`` between the scale-plan markers with the current plan."""
    path = Path(path)
    text = path.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{path} has no {BEGIN} ... {END} block to write the plan into")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{plan_markdown(plan(figures, store))}\n{END}{tail}")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", type=Path, help="the page whose scale-plan block is replaced (docs/scale.md)"
    )
    args = parser.parse_args(argv)
    if args.write:
        print(f"wrote {write_plan(args.write)}")
    else:
        print(plan_markdown(plan()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
