"""Paper value vs. reproduced value: the rows of the claims report.

A notebook collects its claims in a :class:`ClaimSet` and saves them as a fragment
``figures/<work>/claims/<source>.csv``; ``python -m safeguarded.claims`` (``make claims``) merges
all fragments into ``figures/claims.csv`` and the readable ``figures/CLAIMS.md``.

Verdicts
--------
``reproduced`` / ``deviates``
    numeric claims: ``|reproduced - paper| <= tolerance`` (absolute tolerance), or a numeric claim
    stated as a bound (``relation="<="`` or ``">="``) which the reproduced value satisfies or not.
``qualitative-ok`` / ``qualitative-fails``
    qualitative claims (a shape, an ordering), checked by a boolean computed in the notebook.

The paper's value is only ever a reference: it is typed in the notebook as ``paper_value`` and never
used as a result.  A verdict obtained at smoke scale says so in its ``scale`` column and note.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from safeguarded.paths import FIGURES, WORKS, figure_dir

__all__ = ["Claim", "ClaimSet", "COLUMNS", "VERDICTS", "collect", "write_report"]

COLUMNS = [
    "work",
    "item",
    "claim",
    "paper_value",
    "reproduced_value",
    "tolerance",
    "verdict",
    "scale",
    "solver",
    "note",
]
VERDICTS = ("reproduced", "deviates", "qualitative-ok", "qualitative-fails")
SCALES = ("smoke", "paper")
RELATIONS = ("==", "<=", ">=")


@dataclass(frozen=True)
class Claim:
    work: str
    item: str
    claim: str
    paper_value: str
    reproduced_value: str
    tolerance: str
    verdict: str
    scale: str
    solver: str
    note: str


def _fmt(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        return f"{value:.6g}"
    return str(value)


@dataclass
class ClaimSet:
    """The claims one notebook checks.

    Parameters
    ----------
    work
        Short name of the work (see :data:`safeguarded.paths.WORKS`).
    source
        The notebook's name (the fragment's file name), e.g. ``"rldp_fig2"``.
    scale
        ``"smoke"`` or ``"paper"``; recorded with every claim.
    solver
        Default solver recorded with each claim (a claim may override it).
    """

    work: str
    source: str
    scale: str
    solver: str = ""
    claims: list[Claim] = field(default_factory=list)

    def __post_init__(self):
        if self.work not in WORKS:
            raise ValueError(f"work must be one of {WORKS}, got work={self.work!r}")
        if self.scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, got scale={self.scale!r}")

    def _add(self, item, claim, paper, ours, tol, verdict, solver, note) -> Claim:
        if self.scale == "smoke":
            note = f"smoke scale only; {note}" if note else "smoke scale only"
        row = Claim(
            self.work,
            item,
            claim,
            _fmt(paper),
            _fmt(ours),
            _fmt(tol),
            verdict,
            self.scale,
            solver if solver is not None else self.solver,
            note,
        )
        self.claims = [c for c in self.claims if (c.item, c.claim) != (item, claim)] + [row]
        return row

    def numeric(
        self,
        item: str,
        claim: str,
        paper_value: float,
        reproduced_value: float,
        tolerance: float,
        *,
        relation: str = "==",
        solver: str | None = None,
        note: str = "",
    ) -> Claim:
        """A number the paper states, compared with ours.

        ``relation="=="``: reproduced when ``|ours - paper| <= tolerance``.
        ``relation="<="`` / ``">="``: the paper states a bound; reproduced when
        ``ours <= paper + tolerance`` (resp. ``ours >= paper - tolerance``).
        """
        if relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got relation={relation!r}")
        if not (tolerance >= 0):
            raise ValueError(f"tolerance must be >= 0, got tolerance={tolerance!r}")
        ours, paper = float(reproduced_value), float(paper_value)
        if relation == "==":
            ok = abs(ours - paper) <= tolerance
        elif relation == "<=":
            ok = ours <= paper + tolerance
        else:
            ok = ours >= paper - tolerance
        label = claim if relation == "==" else f"{claim} ({relation} paper value)"
        return self._add(
            item, label, paper, ours, tolerance, "reproduced" if ok else "deviates", solver, note
        )

    def qualitative(
        self,
        item: str,
        claim: str,
        holds: bool,
        *,
        paper_value: str = "stated",
        reproduced_value: str | float | None = None,
        solver: str | None = None,
        note: str = "",
    ) -> Claim:
        """A statement the paper makes (an ordering, a shape), checked by ``holds``."""
        shown = reproduced_value if reproduced_value is not None else bool(holds)
        verdict = "qualitative-ok" if bool(holds) else "qualitative-fails"
        return self._add(item, claim, paper_value, shown, None, verdict, solver, note)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(c) for c in self.claims], columns=COLUMNS)

    def save(self) -> Path:
        """Write the fragment ``figures/<work>/claims/<source>.csv`` and return its path."""
        folder = figure_dir(self.work) / "claims"
        folder.mkdir(exist_ok=True)
        path = folder / f"{self.source}.csv"
        self.frame().to_csv(path, index=False, lineterminator="\n")
        return path

    def summary(self) -> pd.DataFrame:
        """The claims as a small table for display in the notebook."""
        return self.frame()[["item", "claim", "paper_value", "reproduced_value", "verdict"]]


def collect(figures: Path = FIGURES) -> pd.DataFrame:
    """All claim fragments under ``figures/*/claims/``, in work order then file order."""
    frames = []
    for work in WORKS:
        for path in sorted((figures / work / "claims").glob("*.csv")):
            frames.append(pd.read_csv(path, dtype=str, keep_default_na=False))
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    table = pd.concat(frames, ignore_index=True)[COLUMNS]
    bad = set(table["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"claim fragments contain unknown verdicts {sorted(bad)}; valid: {VERDICTS}")
    return table


def _markdown(table: pd.DataFrame) -> str:
    lines = [
        "# Claims report",
        "",
        "Generated by `make claims` from the notebooks' claim fragments; do not edit by hand.",
        "`paper_value` is the value the work states (the reference); `reproduced_value` is computed",
        "by this repository. A `scale` of `smoke` means the verdict was obtained at smoke scale only.",
        "",
    ]
    if table.empty:
        return "\n".join(lines + ["No claims have been registered yet.", ""])
    counts = table.groupby(["work", "verdict"]).size().unstack(fill_value=0)
    counts = counts.reindex(columns=[v for v in VERDICTS if v in counts.columns])
    lines += ["## Summary", "", counts.reset_index().to_markdown(index=False), ""]
    for work, rows in table.groupby("work", sort=False):
        lines += [f"## {work}", ""]
        shown = rows.drop(columns=["work"]).replace({"": "–"})
        shown = shown.apply(lambda col: col.str.replace("|", "\\|", regex=False))  # keep the table intact
        lines += [shown.to_markdown(index=False), ""]
    return "\n".join(lines)


def write_report(figures: Path = FIGURES) -> tuple[Path, Path]:
    """Write ``figures/claims.csv`` and ``figures/CLAIMS.md`` from all fragments."""
    table = collect(figures)
    figures.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = figures / "claims.csv", figures / "CLAIMS.md"
    table.to_csv(csv_path, index=False, lineterminator="\n")
    md_path.write_text(_markdown(table))
    return csv_path, md_path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Merge claim fragments into the claims report.")
    parser.add_argument("--figures", type=Path, default=FIGURES)
    args = parser.parse_args(argv)
    csv_path, md_path = write_report(args.figures)
    n = len(pd.read_csv(csv_path))
    print(f"wrote {csv_path} and {md_path} ({n} claims)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
