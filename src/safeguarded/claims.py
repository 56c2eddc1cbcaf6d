"""Paper value vs. reproduced value, under a protocol a skeptical reviewer can check.

A notebook collects its claims in a :class:`ClaimSet` and saves them as a fragment
``figures/<work>/claims/<source>.csv``; ``python -m safeguarded.claims`` (``make claims``) validates
and merges all fragments into ``figures/claims.csv``, the readable ``figures/CLAIMS.md`` (an index
linking one ``figures/<work>/CLAIMS.md`` per work) and the summary table of the README.  The
protocol itself is written out in ``docs/claims.md``; this
docstring is its short form, and the code below enforces it.

Reference kinds (column ``reference``)
--------------------------------------
``printed``
    a number the work prints, with its ``location`` (table/row/column, figure, or ``L<line>`` of the
    seed text).  Only these count in the headline "reproduced" figures.
``supplement``
    a number the work does not print but its authors' supplement or public scripts state (not counted).
``recovered``
    a printed number set beside the value of a *recovered computation* (ours, running a variant the text
    leaves open or the authors' code or files show), judged under the printed row's own rule; the claim
    names its printed row and the variant (``"P3 lower [recovered: <variant>]"``).  Counted apart; the
    printed row keeps its verdict.
``derived``
    a value we computed from the work's stated formulas or parameters (the work never printed it).
``qualitative``
    a stated shape, property or ordering.

Tolerances, fixed by rule before the result
-------------------------------------------
* deterministic printed numbers (:meth:`ClaimSet.printed`): half a unit of the last printed digit
  of the paper's value, passed as the printed *string* (``"67.44"`` -> 0.005); a larger stated
  solver tolerance may replace it, with its reason;
* Monte-Carlo printed numbers (:meth:`ClaimSet.printed_mc`): ``k`` standard errors of the
  difference, ``k * sqrt(se_ours**2 + se_paper**2)`` (``k`` stated once per :class:`ClaimSet`),
  plus the half unit of the printed digit; without a standard error the verdict is ``inconclusive``;
* a tolerance wider than the effect the claim is meant to show (``effect=``) cannot confirm: a value
  inside it is ``inconclusive`` (the note says so), a value outside it still ``deviates``.

Orderings (:meth:`ClaimSet.ordering`) are decided by a two-sided paired t-test (Welch's test when
unpaired) at level ``level`` on the per-split or per-instance results: significant in the stated
direction gives ``qualitative-ok``, significant against it ``qualitative-fails``, anything else
(including fewer than three samples) ``inconclusive``.

Scale: ``paper`` only when the counts and grids equal the work's; ``reduced`` otherwise, with the
counts in ``runs``; ``smoke`` for CI runs.  A rule or parameter chosen to match the work's outputs
is declared with ``fitted="reason"`` and never counts as reproduced.  Every fragment must come
from a notebook that ``make reproduce`` runs.
"""

from __future__ import annotations

import argparse
import hashlib
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.claim_rules import (  # noqa: F401  (printed_tolerance is re-exported: part of the protocol)
    CANNOT_DECIDE_PREFIX,
    CANNOT_REFUTE_PREFIX,
    FITTED_PREFIX,
    RECOVERED_PREFIX,
    ClaimError,
    fmt_against,
    parse_printed,
    printed_tolerance,
    recovered_parts,
)
from safeguarded.claim_rules import fmt as _fmt
from safeguarded.judging import (
    CAUSES,
    MIN_SAMPLES,
    PROTOCOL,
    V2_COLUMNS,
    cause_counts,
    findings_markdown,
    headline_in_words,
    judge,
    sensitivity_markdown,
    sensitivity_table,
    validate_causes,
    validate_recovered,
    verdict_in_words,
)
from safeguarded.paths import FIGURES, REPO_ROOT, RESULTS, WORKS, figure_dir
from safeguarded.statements import not_run_rows

__all__ = [
    "Claim",
    "ClaimError",
    "ClaimSet",
    "COLUMNS",
    "REFERENCES",
    "SCALES",
    "VERDICTS",
    "collect",
    "read_report",
    "readme_summary",
    "registered",
    "SIDE_TABLES",
    "split_report",
    "paired_test",
    "printed_tolerance",
    "standard_error",
    "summary_table",
    "validate",
    "write_report",
]

COLUMNS = [
    "work",
    "item",
    "claim",
    "reference",
    "location",
    "paper_value",
    "reproduced_value",
    "tolerance",
    "verdict",
    "scale",
    "runs",
    "solver",
    "note",
]
VERDICTS = ("reproduced", "deviates", "inconclusive", "qualitative-ok", "qualitative-fails")
REFERENCES = ("printed", "supplement", "recovered", "derived", "qualitative")
SCALES = ("smoke", "reduced", "paper")
RELATIONS = ("==", "<=", ">=")
EXPECTATIONS = ("<", ">", "<=", ">=")
_NUMERIC_VERDICTS = ("reproduced", "deviates", "inconclusive")
_QUALITATIVE_VERDICTS = ("qualitative-ok", "qualitative-fails", "inconclusive")

NOTEBOOKS = REPO_ROOT / "notebooks"


@dataclass(frozen=True)
class Claim:
    work: str
    item: str
    claim: str
    reference: str
    location: str
    paper_value: str
    reproduced_value: str
    tolerance: str
    verdict: str
    scale: str
    runs: str
    solver: str
    note: str


# --------------------------------------------------------------------------------------------------
# the rules, as small pure functions


def standard_error(samples: Sequence[float]) -> float:
    """Standard error of the mean of ``samples`` (sample std with ddof=1); nan for fewer than two."""
    x = np.asarray(samples, dtype=float)
    if x.size < 2:
        return float("nan")
    return float(x.std(ddof=1) / math.sqrt(x.size))


def paired_test(
    a: Sequence[float], b: Sequence[float], expect: str, *, level: float = 0.05, paired: bool = True
) -> tuple[str, float, float, int]:
    """Decide "a <expect> b" on samples: returns (verdict, mean difference a - b, p-value, n).

    Two-sided paired t-test (Welch's t-test if ``paired=False``) at ``level``.  Significant in the
    stated direction -> ``qualitative-ok``; significant against it -> ``qualitative-fails``;
    otherwise, or with fewer than three samples, ``inconclusive``.  If every difference is exactly
    zero, ``<=``/``>=`` hold and ``<``/``>`` fail.
    """
    from scipy import stats

    if expect not in EXPECTATIONS:
        raise ClaimError(f"expect must be one of {EXPECTATIONS}, got expect={expect!r}")
    if not 0 < level < 1:
        raise ClaimError(f"level must be in (0, 1), got level={level!r}")
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if paired and a.shape != b.shape:
        raise ClaimError(f"paired samples must have equal shapes, got {a.shape} and {b.shape}")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ClaimError("samples contain nan: record failed runs as failures, do not pass them to a test")
    n = int(min(a.size, b.size))
    diff = float(a.mean() - b.mean()) if a.size and b.size else float("nan")
    if n < 3:
        return "inconclusive", diff, float("nan"), n
    d = a - b if paired else None
    if paired and np.all(d == d[0]):  # no spread: the ordering is deterministic
        if d[0] == 0:
            return ("qualitative-ok" if expect in ("<=", ">=") else "qualitative-fails"), 0.0, 1.0, n
        holds = d[0] < 0 if expect.startswith("<") else d[0] > 0
        return ("qualitative-ok" if holds else "qualitative-fails"), diff, 0.0, n
    result = stats.ttest_rel(a, b) if paired else stats.ttest_ind(a, b, equal_var=False)
    p = float(result.pvalue)
    if not (p < level):
        return "inconclusive", diff, p, n
    holds = diff < 0 if expect.startswith("<") else diff > 0
    return ("qualitative-ok" if holds else "qualitative-fails"), diff, p, n


def _missing(value) -> bool:
    return value is None or (isinstance(value, float | np.floating) and not math.isfinite(value))


def _compare(ours: float, paper: float, tolerance: float, relation: str) -> bool:
    if relation == "==":
        return abs(ours - paper) <= tolerance
    if relation == "<=":
        return ours <= paper + tolerance
    return ours >= paper - tolerance


# --------------------------------------------------------------------------------------------------
# the claim set a notebook fills


@dataclass
class ClaimSet:
    """The claims one notebook checks.

    Parameters
    ----------
    work
        Short name of the work (see :data:`safeguarded.paths.WORKS`).
    source
        The notebook's file stem (the fragment's name), e.g. ``"rldp_fig2"``.
    scale
        ``"smoke"``, ``"reduced"`` or ``"paper"``: the default for every claim (``paper`` only when the
        counts equal the work's).  A smoke claim set makes every claim ``smoke``.
    solver
        Default solver recorded with each claim.
    runs
        Default counts behind each claim, e.g. ``"20 splits x 100 sims of 100 x 1000"``, or
        ``"deterministic"``; required (here or per claim).
    k
        Number of standard errors of the Monte-Carlo tolerance rule, stated once per work.
    level
        Significance level of the ordering tests.
    """

    work: str
    source: str
    scale: str
    solver: str = ""
    runs: str = ""
    k: float = 2.0
    level: float = 0.05
    claims: list[Claim] = field(default_factory=list)

    def __post_init__(self):
        if self.work not in WORKS:
            raise ClaimError(f"work must be one of {WORKS}, got work={self.work!r}")
        if self.scale not in SCALES:
            raise ClaimError(f"scale must be one of {SCALES}, got scale={self.scale!r}")
        if not (self.k > 0):
            raise ClaimError(f"k must be > 0, got k={self.k!r}")
        if not 0 < self.level < 1:
            raise ClaimError(f"level must be in (0, 1), got level={self.level!r}")

    # -- bookkeeping ---------------------------------------------------------------------------

    def _add(self, item, claim, reference, location, paper, ours, tol, verdict, opts) -> Claim:
        runs, scale, solver, note, fitted, recovered = (
            opts.get(k) for k in ("runs", "scale", "solver", "note", "fitted", "recovered")
        )
        if not str(location or "").strip():
            raise ClaimError(
                f"claim {claim!r} of {item!r}: location is required (table/row/column or L<line>)"
            )
        runs = runs if runs is not None else self.runs
        if not str(runs or "").strip():
            raise ClaimError(
                f"claim {claim!r} of {item!r}: runs is required (the counts, or 'deterministic')"
            )
        if self.scale == "smoke":
            scale = "smoke"
        else:
            scale = scale or self.scale
            if scale not in ("reduced", "paper"):
                raise ClaimError(f"claim scale must be 'reduced' or 'paper', got scale={scale!r}")
        note = note or ""
        if fitted:
            note = f"{FITTED_PREFIX}{fitted}" + (f"; {note}" if note else "")
        if recovered:
            note = f"{RECOVERED_PREFIX}{recovered}" + (f"; {note}" if note else "")
        row = Claim(
            self.work,
            item,
            claim,
            reference,
            str(location),
            _fmt(paper),
            fmt_against(ours, paper),
            _fmt(tol),
            verdict,
            scale,
            str(runs),
            solver if solver is not None else self.solver,
            note,
        )
        self.claims = [c for c in self.claims if (c.item, c.claim) != (item, claim)] + [row]
        return row

    @staticmethod
    def _wider_than_effect(tolerance: float, effect: float | None) -> str:
        """Why a band cannot confirm (it is wider than the effect the value is meant to show), or ''."""
        if effect is None or tolerance <= abs(effect):
            return ""
        return (
            f"band ±{tolerance:.3g} is wider than the effect {abs(effect):.3g} the value is meant to show: "
            "too wide to confirm (a value outside it still deviates)"
        )

    @staticmethod
    def _prepend_note(opts: dict, text: str) -> None:
        """Put ``text`` before the note ``opts`` carries (joined by "; ")."""
        opts["note"] = text + (f"; {opts['note']}" if opts.get("note") else "")

    def _recovered_label(self, item, label, claim, relation, paper_str, recovered, opts) -> str:
        """The claim of a ``recovered`` row (``"<claim> [recovered: <variant>]"``), after checking that its
        printed row (``item``, ``label``, the same printed value) is registered; ``recovered`` goes to
        ``opts`` for the note."""
        if not isinstance(recovered, str) or not recovered.strip() or any(c in recovered for c in "[];"):
            raise ClaimError(f"recovered must name the variant (a non-empty text without '[', ']' or ';'), "
                             f"got recovered={recovered!r}")
        if opts.get("fitted"):
            raise ClaimError(f"a recovered row is judged like its printed row, never fitted: got "
                             f"fitted={opts['fitted']!r} with recovered={recovered!r}")
        if not any((c.item, c.claim, c.reference, c.paper_value) == (item, label, "printed", _fmt(paper_str))
                   for c in self.claims):
            raise ClaimError(f"recovered={recovered!r}: register the printed row ({item!r}, {label!r}, "
                             f"{paper_str!r}) first; a recovered row sits beside it")
        opts["recovered"] = recovered.strip()
        relation_text = "" if relation == "==" else f" ({relation} paper value)"
        return f"{claim} [recovered: {recovered.strip()}]{relation_text}"

    def _numeric(self, item, claim, reference, location, paper_str, paper, ours, tol, relation, effect, opts,
                 cannot_refute="", cannot_decide="", recovered=""):
        if relation not in RELATIONS:
            raise ClaimError(f"relation must be one of {RELATIONS}, got relation={relation!r}")
        for name, value in (("cannot_refute", cannot_refute), ("cannot_decide", cannot_decide)):
            if not isinstance(value, str):
                raise ClaimError(f"{name} must be a reason (a string), got {name}={value!r}")
        label = claim if relation == "==" else f"{claim} ({relation} paper value)"
        if recovered != "":
            if reference != "printed":
                raise ClaimError(f"a recovered row stands beside a printed one: reference must be 'printed', "
                                 f"got reference={reference!r} with recovered={recovered!r}")
            label = self._recovered_label(item, label, claim, relation, paper_str, recovered, opts)
            reference = "recovered"
        if cannot_decide:  # §2f: shown, never decided
            self._prepend_note(opts, f"{CANNOT_DECIDE_PREFIX}{cannot_decide}")
            return self._add(item, label, reference, location, paper_str, None if _missing(ours) else ours,
                             tol, "inconclusive", opts)
        if _missing(ours):
            self._prepend_note(opts, "no reproduced value")
            return self._add(item, label, reference, location, paper_str, None, tol, "inconclusive", opts)
        if tol is None or _missing(tol):
            self._prepend_note(opts, "no standard error")
            return self._add(item, label, reference, location, paper_str, ours, None, "inconclusive", opts)
        ok = _compare(float(ours), paper, tol, relation)
        if cannot_refute:
            self._prepend_note(opts, f"{CANNOT_REFUTE_PREFIX}{cannot_refute}")
            if not ok:
                return self._add(item, label, reference, location, paper_str, ours, tol, "inconclusive", opts)
        too_wide = self._wider_than_effect(tol, effect)
        if ok and too_wide:
            self._prepend_note(opts, too_wide)
            return self._add(item, label, reference, location, paper_str, ours, tol, "inconclusive", opts)
        return self._add(
            item, label, reference, location, paper_str, ours, tol, "reproduced" if ok else "deviates", opts
        )

    # -- the five kinds of claim -----------------------------------------------------------------

    def printed(
        self,
        item: str,
        claim: str,
        paper: str,
        ours: float | None,
        *,
        location: str,
        relation: str = "==",
        solver_tolerance: float | None = None,
        reason: str = "",
        effect: float | None = None,
        reference: str = "printed",
        cannot_refute: str = "",
        recovered: str = "",
        **opts,
    ) -> Claim:
        """A deterministic number the work prints (``paper``: the printed string).

        Tolerance: half a unit of its last printed digit, or ``solver_tolerance`` where that is larger
        (``reason`` then required and added to the note).  ``reference="supplement"`` marks a number the
        work does not print but its authors' supplement or public scripts state (judged alike, never
        counted with the work's printed numbers; ``location`` names the source).  ``cannot_refute``
        (a reason) marks a comparison that can confirm but not refute, e.g. a substitute local solver
        that may stop at another local optimum: a value outside the band is then ``inconclusive`` with
        that reason instead of ``deviates`` (docs/claims.md §2e; the caller decides, from a certificate
        of its own, when a value is refuted and then omits it).  ``recovered`` (the variant's name) registers,
        beside the printed row registered before with the same arguments, the value ``ours`` of a recovered
        computation (a variant the text leaves open or the authors' code or files show): reference
        ``recovered``, judged under the printed row's rule, counted apart (docs/claims.md §7).
        """
        if reference not in ("printed", "supplement"):
            raise ClaimError(f"reference must be 'printed' or 'supplement', got reference={reference!r}")
        tol = printed_tolerance(paper)
        if solver_tolerance is not None:
            if not (solver_tolerance >= 0):
                raise ClaimError(f"solver_tolerance must be >= 0, got solver_tolerance={solver_tolerance!r}")
            if solver_tolerance > tol:
                if not reason:
                    raise ClaimError(
                        f"claim {claim!r}: a solver_tolerance above the printed precision needs a reason"
                    )
                tol = float(solver_tolerance)
                self._prepend_note(opts, f"tolerance {tol:.3g} from {reason}")
        return self._numeric(
            item, claim, reference, location, paper, parse_printed(paper), ours, tol, relation, effect, opts,
            cannot_refute=cannot_refute, recovered=recovered,
        )

    def printed_mc(
        self,
        item: str,
        claim: str,
        paper: str,
        ours: float | None,
        ours_se: float | None,
        *,
        location: str,
        paper_se: float | None = None,
        relation: str = "==",
        effect: float | None = None,
        cannot_decide: str = "",
        recovered: str = "",
        **opts,
    ) -> Claim:
        """A Monte-Carlo number the work prints: tolerance ``k`` standard errors of the difference plus
        half a unit of the printed digit; ``inconclusive`` without a standard error.  ``cannot_decide`` (a
        reason) marks a comparison that can neither confirm nor refute, e.g. in a unit the work does not
        state and we chose to match its magnitudes: the row is ``inconclusive`` whatever the value, which
        stays shown (docs/claims.md §2f).  ``recovered``: as in :meth:`printed`, with the variant's own
        standard error."""
        tol = None
        if not _missing(ours_se):
            if ours_se < 0 or (paper_se is not None and paper_se < 0):
                raise ClaimError(
                    f"standard errors must be >= 0, got ours_se={ours_se!r}, paper_se={paper_se!r}"
                )
            se = math.hypot(float(ours_se), float(paper_se or 0.0))
            tol = self.k * se + printed_tolerance(paper)
        return self._numeric(
            item, claim, "printed", location, paper, parse_printed(paper), ours, tol, relation, effect, opts,
            cannot_decide=cannot_decide, recovered=recovered,
        )

    def derived(
        self,
        item: str,
        claim: str,
        reference: float,
        ours: float | None,
        tolerance: float,
        *,
        location: str,
        relation: str = "==",
        effect: float | None = None,
        **opts,
    ) -> Claim:
        """A value derived by us from the work's stated formulas or parameters (not printed by it)."""
        if not (tolerance >= 0):
            raise ClaimError(f"tolerance must be >= 0, got tolerance={tolerance!r}")
        return self._numeric(
            item,
            claim,
            "derived",
            location,
            reference,
            float(reference),
            ours,
            float(tolerance),
            relation,
            effect,
            opts,
        )

    def ordering(
        self,
        item: str,
        claim: str,
        a: Sequence[float],
        b: Sequence[float],
        *,
        expect: str,
        location: str,
        paired: bool = True,
        level: float | None = None,
        labels: tuple[str, str] = ("A", "B"),
        paper_value: str | None = None,
        **opts,
    ) -> Claim:
        """An ordering the work states ("a <expect> b"), decided by :func:`paired_test`.

        ``paper_value`` is what the work shows of it (default ``"<a> <expect> <b> (stated)"``), e.g. the
        printed values where the ordering is read off a table rather than stated in the text.
        """
        level = self.level if level is None else level
        verdict, diff, p, n = paired_test(a, b, expect, level=level, paired=paired)
        test = "paired t-test" if paired else "Welch t-test"
        shown = f"mean {labels[0]} - {labels[1]} = {diff:.4g} (n={n}, p={p:.3g})"
        return self._add(
            item,
            claim,
            "qualitative",
            location,
            f"{labels[0]} {expect} {labels[1]} (stated)" if paper_value is None else paper_value,
            shown,
            f"{test}, level {level:g}",
            verdict,
            opts,
        )

    def qualitative(
        self,
        item: str,
        claim: str,
        holds: bool | None,
        *,
        location: str,
        paper_value: str = "stated",
        reproduced_value: str | float | None = None,
        **opts,
    ) -> Claim:
        """A deterministic stated property (a shape, a theorem's inequality on every instance).

        ``holds=None`` records ``inconclusive`` (e.g. too few instances to see the shape).
        """
        shown = reproduced_value if reproduced_value is not None else holds
        if holds is None:
            verdict = "inconclusive"
        else:
            verdict = "qualitative-ok" if bool(holds) else "qualitative-fails"
        return self._add(item, claim, "qualitative", location, paper_value, shown, None, verdict, opts)

    # -- output ------------------------------------------------------------------------------------

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(c) for c in self.claims], columns=COLUMNS)

    def save(self) -> Path:
        """Validate and write the fragment ``figures/<work>/claims/<source>.csv``; return its path."""
        table = self.frame().astype(str)
        problems = validate(table)
        if problems:
            raise ClaimError("invalid claims:\n" + "\n".join(problems))
        folder = figure_dir(self.work) / "claims"
        folder.mkdir(exist_ok=True)
        path = folder / f"{self.source}.csv"
        table.to_csv(path, index=False, lineterminator="\n")
        return path

    def summary(self) -> pd.DataFrame:
        """The claims as a small table for display in the notebook."""
        return self.frame()[["item", "claim", "reference", "paper_value", "reproduced_value", "verdict"]]


# --------------------------------------------------------------------------------------------------
# validation, merging and the report


def _float(text: str) -> float | None:
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def validate(table: pd.DataFrame) -> list[str]:
    """Every way in which the rows of ``table`` break the protocol, as messages (empty: valid)."""
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        return [f"missing columns {missing}; expected {COLUMNS}"]
    problems = []
    for i, row in table.reset_index(drop=True).iterrows():
        where = f"row {i} ({row['work']} / {row['item']} / {row['claim']!r})"
        if row["verdict"] not in VERDICTS:
            problems.append(f"{where}: unknown verdict {row['verdict']!r}; valid: {VERDICTS}")
        if row["reference"] not in REFERENCES:
            problems.append(f"{where}: unknown reference {row['reference']!r}; valid: {REFERENCES}")
        if row["scale"] not in SCALES:
            problems.append(f"{where}: unknown scale {row['scale']!r}; valid: {SCALES}")
        if row["work"] not in WORKS:
            problems.append(f"{where}: unknown work {row['work']!r}")
        for col in ("location", "runs"):
            if not str(row[col]).strip():
                problems.append(f"{where}: {col} is missing")
        if row["reference"] == "qualitative" and row["verdict"] not in _QUALITATIVE_VERDICTS:
            problems.append(f"{where}: a qualitative claim needs a verdict in {_QUALITATIVE_VERDICTS}")
        if row["reference"] == "recovered":
            problems += [f"{where}: {p}" for p in _recovered_problems(row, table)]
        if row["reference"] in ("printed", "supplement", "recovered", "derived"):
            if row["verdict"] not in _NUMERIC_VERDICTS:
                problems.append(f"{where}: a numeric claim needs a verdict in {_NUMERIC_VERDICTS}")
            elif row["verdict"] != "inconclusive":
                paper, ours, tol = (_float(row[c]) for c in ("paper_value", "reproduced_value", "tolerance"))
                if None in (paper, ours, tol) or tol < 0:
                    problems.append(f"{where}: a decided numeric claim needs numeric values and a tolerance")
                elif not row["claim"].endswith("paper value)"):  # "==" claims: recheck the verdict
                    ok = abs(ours - paper) <= tol * (1 + 1e-9) + 1e-12
                    # values are stored to 6 significant digits; allow that rounding
                    slack = 5e-6 * max(abs(ours), abs(paper))
                    if ok != (row["verdict"] == "reproduced") and abs(abs(ours - paper) - tol) > slack:
                        problems.append(
                            f"{where}: verdict {row['verdict']!r} contradicts |ours - paper| vs tolerance"
                        )
    return problems


def _recovered_problems(row, table: pd.DataFrame) -> list[str]:
    """How a ``recovered`` row fails to name its variant (claim and note) and its printed row (same work,
    item, claim and printed value, registered in ``table``)."""
    try:
        printed, variant = recovered_parts(row["claim"])
    except ClaimError as error:
        return [str(error)]
    problems = []
    if not str(row["note"]).startswith(f"{RECOVERED_PREFIX}{variant}"):
        problems.append(f"a recovered row's note starts with {RECOVERED_PREFIX!r} and its variant")
    same = ((table["work"] == row["work"]) & (table["item"] == row["item"]) & (table["claim"] == printed)
            & (table["reference"] == "printed") & (table["paper_value"] == row["paper_value"]))
    if not same.any():
        problems.append(f"its printed row ({row['item']!r}, {printed!r}, {row['paper_value']!r}) is not "
                        "registered")
    return problems


def collect(figures: Path = FIGURES, *, require_notebook: bool = True) -> pd.DataFrame:
    """All claim fragments under ``figures/*/claims/``, validated, in work order then file order.

    With ``require_notebook`` every fragment must be written by a notebook in ``notebooks/`` (so that
    ``make reproduce`` regenerates it); a fragment that is not, or that breaks the protocol, raises
    :class:`ClaimError` naming the file.
    """
    frames, problems = [], []
    for work in WORKS:
        for path in sorted((figures / work / "claims").glob("*.csv")):
            if require_notebook and not (NOTEBOOKS / f"{path.stem}.ipynb").is_file():
                problems.append(f"{path}: no notebook notebooks/{path.stem}.ipynb regenerates this fragment")
                continue
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
            problems += [f"{path}: {p}" for p in validate(frame)]
            frames.append(frame)
    if problems:
        raise ClaimError("claim fragments break the protocol (docs/claims.md):\n" + "\n".join(problems))
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat(frames, ignore_index=True)[COLUMNS]


def _is_fitted(table: pd.DataFrame) -> pd.Series:
    return table["note"].str.startswith(FITTED_PREFIX)


def summary_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per work: printed numbers reproduced / deviating / inconclusive (non-smoke, not fitted), the scales
    they were obtained at, then the fitted, recovered (reproduced of registered, non-smoke), derived and
    qualitative counts."""

    def count(rows: pd.DataFrame, verdict: str) -> int:
        return int((rows["verdict"] == verdict).sum())

    rows = []
    for work in [w for w in WORKS if w in set(table["work"])]:
        t = table[table["work"] == work]
        counted = t[(t["reference"] == "printed") & (t["scale"] != "smoke") & ~_is_fitted(t)]
        derived, qual = t[t["reference"] == "derived"], t[t["reference"] == "qualitative"]
        recovered = t[(t["reference"] == "recovered") & (t["scale"] != "smoke")]
        rows.append(
            {
                "work": work,
                "printed reproduced": count(counted, "reproduced"),
                "printed deviates": count(counted, "deviates"),
                "printed inconclusive": count(counted, "inconclusive"),
                "deviations by cause": cause_counts(t) if "cause" in t.columns else "–",
                "fitted (not counted)": int(_is_fitted(t).sum()),
                "recovered ok / rows": f"{count(recovered, 'reproduced')} / {len(recovered)}",
                "derived ok / deviates": f"{count(derived, 'reproduced')} / {count(derived, 'deviates')}",
                "qualitative ok / fails / inconclusive": f"{count(qual, 'qualitative-ok')} / "
                f"{count(qual, 'qualitative-fails')} / {count(qual, 'inconclusive')}",
                "scales": "/".join(s for s in ("paper", "reduced", "smoke") if (t["scale"] == s).any()),
                "claims": len(t),
            }
        )
    return pd.DataFrame(rows)


def _deviation_size(table: pd.DataFrame) -> pd.Series:
    """|ours - paper| / max(tolerance, tiny): how many tolerances a numeric claim is off (nan otherwise)."""
    paper = pd.to_numeric(table["paper_value"].str.replace(",", ""), errors="coerce")
    ours = pd.to_numeric(table["reproduced_value"], errors="coerce")
    tol = pd.to_numeric(table["tolerance"], errors="coerce")
    return (ours - paper).abs() / tol.clip(lower=1e-12)


def _md_rows(rows: pd.DataFrame) -> str:
    shown = rows.drop(columns=["work"]).replace({"": "–"})
    shown = shown.apply(lambda col: col.astype(str).str.replace("|", "\\|", regex=False))
    return shown.to_markdown(index=False)


PENDING = "pending"


def pending_fragments(figures: Path = FIGURES) -> list[Path]:
    """Fragments written before the protocol, not yet re-judged: ``figures/<work>/claims/pending/``.

    They are never merged or counted; the report lists them so that a reviewer sees what is missing.
    """
    return [p for work in WORKS for p in sorted((figures / work / "claims" / PENDING).glob("*.csv"))]


def _pending_lines(pending: list[Path]) -> list[str]:
    if not pending:
        return []
    lines = [
        "## Not re-judged yet",
        "",
        "These fragments were written before this protocol; their notebooks have not been rerun at paper",
        "scale under it yet. Their old verdicts are **not** merged or counted above.",
        "",
        "| work | notebook | rows |",
        "|---|---|---|",
    ]
    for path in pending:
        rows = len(pd.read_csv(path, dtype=str, keep_default_na=False))
        lines.append(f"| {path.parent.parent.parent.name} | `notebooks/{path.stem}.ipynb` | {rows} |")
    return lines + [""]


_REPORT_HEAD = [
    "Generated by `make claims` from the notebooks' claim fragments; do not edit by hand. The rules",
    "(reference kinds, tolerances by rule, paired tests for orderings, honest scale) are in",
    "[`docs/claims.md`]({docs}). `paper_value` is the work's value (the reference);",
    "`reproduced_value` is computed by this repository. Only `printed` claims at `paper` or `reduced`",
    "scale, and not `fitted`, count in the headline figures.",
    "",
]


def _head(title: str, docs: str) -> list[str]:
    return [f"# {title}", "", *(line.format(docs=docs) for line in _REPORT_HEAD)]


def _markdown(table: pd.DataFrame, pending: list[Path] = (), overview: bool = False) -> str:
    """The index ``figures/CLAIMS.md``: the summary, the pending fragments and a link per work to its report
    (:func:`_work_markdown`, ``figures/<work>/CLAIMS.md``); one file per work keeps each one readable."""
    lines = _head("Claims report", "../docs/claims.md")
    if table.empty:
        return "\n".join(lines + ["No claims have been registered yet.", ""] + _pending_lines(list(pending)))
    summary = summary_table(table)
    lines += ["## Summary", ""]
    if overview:
        lines += [f"![{OVERVIEW_ALT}]({OVERVIEW})", "", OVERVIEW_CAPTION, ""]
    lines += [summary.to_markdown(index=False), ""]
    lines += _pending_lines(list(pending))
    lines += ["## Per work", ""]
    for _, s in summary.iterrows():
        lines.append(
            f"* [{s['work']}]({s['work']}/CLAIMS.md): {s['claims']} claims; printed numbers "
            f"{s['printed reproduced']} reproduced, {s['printed deviates']} deviate, "
            f"{s['printed inconclusive']} inconclusive"
            + ("" if s["recovered ok / rows"] == "0 / 0" else
               f"; recovered computations {s['recovered ok / rows']} within the printed rows' bands")
        )
    return "\n".join(lines + [""])


def _keyed_texts(rows: pd.DataFrame, columns: Sequence[str], prefix: str) -> tuple[pd.Series, pd.DataFrame]:
    """Short ids (``R1``, ``R2``, ...) for the distinct combinations of ``columns`` in ``rows`` (first use
    first; all-empty texts get no id) and the table of what each id stands for."""
    texts = rows[list(columns)].astype(str).agg("\x1f".join, axis=1)
    distinct = [t for t in dict.fromkeys(texts) if t.replace("\x1f", "")]
    ids = {t: f"{prefix}{k}" for k, t in enumerate(distinct, start=1)}
    legend = pd.DataFrame([[ids[t], *t.split("\x1f")] for t in distinct], columns=["id", *columns])
    return texts.map(lambda t: ids.get(t, "")), legend


def _work_markdown(table: pd.DataFrame, work: str, overview: bool = False) -> str:
    """``figures/<work>/CLAIMS.md``: one work's claims, deviations first (largest, in tolerances), then the
    inconclusive ones, then those that hold.  The texts that repeat on many rows (a notebook's runs and
    solvers, a cause's reason and evidence) appear once, in the tables at the end, and the rows name them
    by id (``R1``, ``C1``)."""
    t = table[table["work"] == work]
    s = summary_table(t).iloc[0]
    lines = _head(f"Claims report: {work}", "../../docs/claims.md")
    words = verdict_in_words(t, work)
    if overview:  # under the verdict's line: "## Verdict", "", the line, ""
        words = [*words[:4], f"![{work}: {OVERVIEW_ALT}]({OVERVIEW})", "", OVERVIEW_CAPTION, "", *words[4:]]
    lines += words
    lines += [
        f"Qualitative ok / fails / inconclusive: {s['qualitative ok / fails / inconclusive']}; derived ok / "
        f"deviates: {s['derived ok / deviates']}. "
        "Where the works are wrong: [findings](../../docs/findings.md). "
        "All works: [the index](../CLAIMS.md).",
        "",
        ROWS_MARKER,
        "",
    ]
    runs_id, runs = _keyed_texts(t, ("runs", "solver"), "R")
    long_texts = [c for c in ("why", "evidence") if c in t.columns]
    cause_id, causes = _keyed_texts(t, long_texts, "C") if long_texts else (None, None)
    shown = t.drop(columns=["runs", "solver", *long_texts]).assign(runs=runs_id)
    if cause_id is not None:
        shown = shown.assign(why=cause_id)
    size = _deviation_size(t)
    bad = shown[t["verdict"].isin(["deviates", "qualitative-fails"])]
    bad = bad.assign(_size=size[bad.index]).sort_values("_size", ascending=False, kind="stable")
    sections = [
        ("Deviations (largest first, in tolerances)", bad.drop(columns="_size")),
        ("Inconclusive", shown[t["verdict"] == "inconclusive"]),
        # the rows that hold need no reason or counts beside them: keep the report readable
        ("Reproduced and holding", shown[t["verdict"].isin(["reproduced", "qualitative-ok"])].drop(
            columns=["runs", "note"])),
    ]
    for title, rows in sections:
        if len(rows):
            lines += [f"## {title} ({len(rows)})", "", _md_rows(rows), ""]
    lines += ["## Runs and solvers (column `runs`)", "", _md_rows(runs.assign(work=work)), ""]
    if causes is not None and len(causes):
        legend = _md_rows(causes.assign(work=work))
        lines += ["## Reasons and evidence of the causes (column `why`)", "", legend, ""]
    return "\n".join(lines)


#: Separates a work report's verdict in words from its rows (the site shows what comes before it).
ROWS_MARKER = "<!-- rows -->"

README_START, README_END = "<!-- claims-summary:start -->", "<!-- claims-summary:end -->"
#: The README's first screen: the verdict in words and the two commands with their measured times.
HEADLINE_START, HEADLINE_END = "<!-- claims-headline:start -->", "<!-- claims-headline:end -->"
QUICKSTART_START, QUICKSTART_END = "<!-- quickstart:start -->", "<!-- quickstart:end -->"
#: docs/claims.md's sensitivity table (the counts under other protocol parameters).
SENSITIVITY_START, SENSITIVITY_END = "<!-- sensitivity:start -->", "<!-- sensitivity:end -->"

#: The overview figure (:func:`safeguarded.plotting.claims_overview`): ``figures/claims_overview.png`` for all
#: works, ``figures/<work>/claims_overview.png`` per work (one row per item).
OVERVIEW = "claims_overview.png"
OVERVIEW_ALT = "every printed number, ours against the work's, and the verdicts"
OVERVIEW_CAPTION = (
    "*Left: each printed number the report counts, as (ours − work) / |work| on a symmetric log scale, "
    "coloured by its verdict; its band (tolerance / |work|) is the faint bar from 0 toward it, so a point on "
    "its bar is within its band. Right: the verdicts as shares, the deviations split by cause; beside them "
    "the counts reproduced / deviate / inconclusive.*"
)
#: The work whose smoke run the README's first screen offers as the quickest look.
QUICK_WORK = "rldp"
#: docs/reviewing.md's example: the row (work, item, claim) it follows from the report to the computation.
REVIEW_EXAMPLE = ("routing", "table02", "Error #3 at N=10 (alpha=1e3, alpha||x||^2)")
REVIEW_START, REVIEW_END = "<!-- review-example:start -->", "<!-- review-example:end -->"


def _replace_block(text: str, start: str, end: str, body: str) -> str:
    """``text`` with the block between the markers ``start`` and ``end`` replaced by ``body`` (unchanged when
    the markers are absent)."""
    if start not in text or end not in text:
        return text
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def _compact_counts(text: str) -> str:
    """``"17 / 4 / 1"`` as the README writes it in a narrow column (``17/4/1``)."""
    return text.replace(" / ", "/")


def readme_summary(table: pd.DataFrame) -> str:
    """The README's summary: a legend of its words, then two tables narrow enough for the page: per work the
    counted printed numbers by verdict (with the fitted, derived and qualitative rows beside), and the
    printed deviations by cause."""
    if table.empty:
        return "No claims yet."
    summary = summary_table(table)
    verdicts = pd.DataFrame({
        "work": summary["work"],
        "reproduced": summary["printed reproduced"],
        "deviate": summary["printed deviates"],
        "inconclusive": summary["printed inconclusive"],
        "fitted": summary["fitted (not counted)"],
        "derived ✓/✗": summary["derived ok / deviates"].map(_compact_counts),
        "qualitative ✓/✗/?": summary["qualitative ok / fails / inconclusive"].map(_compact_counts),
        "rows": summary["claims"],
    })
    counted = table[(table["reference"] == "printed") & (table["scale"] != "smoke") & ~_is_fitted(table)]
    deviating = counted[counted["verdict"] == "deviates"]
    by_cause = deviating.groupby(["work", "cause"]).size()
    causes = pd.DataFrame([{"work": work, **{c: int(by_cause.get((work, c), 0)) for c in CAUSES}}
                           for work in summary["work"]])
    causes = causes.set_index("work").astype(object).where(lambda f: f != 0, "–").reset_index()
    recovered = summary["recovered ok / rows"]
    causes["recovered"] = [_compact_counts(r) if r != "0 / 0" else "–" for r in recovered]
    legend = [
        "How to read them (the rules: [docs/claims.md](docs/claims.md); each work's rows: "
        "`figures/<work>/CLAIMS.md`, index [figures/CLAIMS.md](figures/CLAIMS.md)):",
        "",
        "- **reproduced / deviate / inconclusive**: the numbers a work *prints* (`printed`), at paper or "
        "reduced scale: ours within the band fixed by rule before the result (half a unit of the last "
        f"printed digit; for a Monte-Carlo value also k = {PROTOCOL.k:g} standard errors) / outside it, each "
        f"with a cause (second table) / the run cannot tell (fewer than {MIN_SAMPLES} samples, a band wider "
        f"than {PROTOCOL.band_limit:.0%} of the value, a comparison with a construction of ours, or no value "
        "computed here).",
        "- **fitted**: printed numbers matched with a rule chosen to fit the work's own outputs: shown, "
        "never counted.",
        "- **derived ✓/✗**: values we compute from the work's formulas or parameters, which it does not "
        "print: within / outside their tolerance.",
        "- **qualitative ✓/✗/?**: stated orderings, shapes and properties: holds / fails / inconclusive (an "
        "ordering is decided by a paired t-test).",
        "- **rows**: every row of the work's report, each at `paper` scale (the work's counts and grids) or "
        "`reduced` (fewer, stated on the row).",
        "- **causes**: `work-error` the work is wrong or inconsistent with itself "
        "([findings](docs/findings.md)), `underspecified` it does not state what is needed, "
        "`substitute-data` its data are not available (ours is a labelled substitute), `scale` our reduced "
        "run, `solver` a solver's status or accuracy, `unexplained` not found yet.",
        "- **recovered**: printed numbers set beside a *recovered computation* (ours, running a variant the "
        "text leaves open or the authors' code or files show), judged under the printed row's own rule: "
        "reproduced / registered. Counted apart: the printed row keeps its verdict and cause (docs/claims.md "
        "§7).",
    ]
    return "\n".join([
        _narrow_table(verdicts), "",
        "Printed deviations by cause, and the recovered computations beside printed rows (docs/claims.md "
        "§7):", "",
        _narrow_table(causes), "", *legend,
    ])


def _narrow_table(frame: pd.DataFrame) -> str:
    """``frame`` as a Markdown table without padding (the page, not the source, aligns it): the first column
    left-aligned, the others right."""
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |",
             "|" + "|".join([":---", *["---:"] * (frame.shape[1] - 1)]) + "|"]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def _about(seconds: float) -> str:
    if seconds < 120:
        return f"about {seconds:.0f} s"
    if seconds < 7200:
        return f"about {seconds / 60:.0f} min"
    return f"about {seconds / 3600:.1f} h"


def quick_start(timings: Path) -> str:
    """The README's two commands, the quick one first, with their times measured in ``timings``
    (``docs/timings.csv``: ``make test``'s own row, the paper rows of every notebook summed, the smoke rows of
    :data:`QUICK_WORK`'s notebooks summed)."""
    import csv

    rows = list(csv.DictReader(timings.open())) if timings.is_file() else []

    def total(scale: str, work: str | None = None) -> tuple[float, int, str]:
        chosen = [r for r in rows if r["scale"] == scale and r["notebook"] != "make test" and r["seconds"]
                  and (work is None or r["work"] == work)]
        cpus = sorted({r["cpus"] for r in chosen if r.get("cpus")})
        return sum(float(r["seconds"]) for r in chosen), len(chosen), "/".join(cpus) or "?"

    test = [r for r in rows if r["notebook"] == "make test" and r["scale"] == "smoke" and r["seconds"]]
    paper, n_paper, cpus = total("paper")
    quick, n_quick, _ = total("smoke", QUICK_WORK)
    test_time = (f"{_about(float(test[-1]['seconds']))} on {test[-1]['cpus']} cores, plus the install"
                 if test else "not measured yet")
    paper_time = f"{_about(paper)} on {cpus} cores ({n_paper} notebooks)" if n_paper else "not measured yet"
    quick_time = f"{_about(quick)} of notebooks" if n_quick else "not measured yet"
    return "\n".join([
        "```bash",
        f"make test         # the quick check, {test_time}:",
        "                  # unit tests, every notebook once at smoke scale checked against",
        "                  # tests/references, the site in a browser",
        f"make reproduce    # the paper run, {paper_time}:",
        "                  # every notebook at the works' scale into notebooks/ and figures/, the claims",
        "                  # report, these tables and the site",
        "```",
        "",
        f"A first look at one work: `make reproduce WORK={QUICK_WORK} SCALE=smoke` ({quick_time}; everything "
        "under `build/smoke/`, the committed files untouched). Times: `docs/timings.csv`, measured by the "
        "runner.",
    ])


def _update_readme(table: pd.DataFrame, readme: Path, timings: Path | None = None) -> None:
    """The README's generated blocks: the claims summary, the verdict in words and the two commands."""
    if not readme.is_file():
        return
    text = readme.read_text()
    text = _replace_block(text, README_START, README_END, readme_summary(table))
    if not table.empty:
        text = _replace_block(text, HEADLINE_START, HEADLINE_END, "**The verdict.** " + headline_in_words(
            table, WORKS))
    if timings is None:
        from safeguarded.notebooks import TIMINGS as timings
    text = _replace_block(text, QUICKSTART_START, QUICKSTART_END, quick_start(timings))
    readme.write_text(text)


def review_example(table: pd.DataFrame, example: tuple[str, str, str] = REVIEW_EXAMPLE) -> str:
    """The report's row ``example`` (work, item, claim), every column, as docs/reviewing.md shows it."""
    work, item, claim = example
    rows = table[(table["work"] == work) & (table["item"] == item) & (table["claim"] == claim)]
    if len(rows) != 1:
        return (f"The example row ({work} / {item} / {claim!r}) is not in the report any more: choose "
                "another in `safeguarded.claims.REVIEW_EXAMPLE`.")
    row = rows.iloc[0]
    lines = ["| column | value |", "|---|---|"]
    lines += [f"| `{c}` | {_cell_text(row[c]) or '–'} |" for c in table.columns]
    return "\n".join(lines)


def _cell_text(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _update_review(reviewing: Path, table: pd.DataFrame) -> None:
    """docs/reviewing.md's example row, as the report has it now."""
    if reviewing.is_file() and not table.empty:
        text = reviewing.read_text()
        reviewing.write_text(_replace_block(text, REVIEW_START, REVIEW_END, review_example(table)))


def _update_protocol(protocol: Path, v1: pd.DataFrame, table: pd.DataFrame) -> None:
    """docs/claims.md's sensitivity block: the counted printed verdicts under the protocol's parameters (the
    report ``table``, judged from the rows ``v1``) and under other ones
    (:func:`safeguarded.judging.sensitivity_table`), from the same rows, nothing rerun."""
    if not protocol.is_file() or v1.empty:
        return
    text = protocol.read_text()
    body = sensitivity_markdown(sensitivity_table(v1, protocol=table))
    protocol.write_text(_replace_block(text, SENSITIVITY_START, SENSITIVITY_END, body))


def write_overview(table: pd.DataFrame, figures: Path) -> set[str]:
    """Draw ``figures/claims_overview.png`` (all works) and ``figures/<work>/claims_overview.png`` (each work,
    one row per item) from the judged report (:func:`safeguarded.plotting.claims_overview`); a work without
    a counted printed number has no panel (a stale one is removed). Returns the works with a panel, and
    ``"all"`` when the overall figure was drawn."""
    import matplotlib.pyplot as plt

    from safeguarded import plotting

    drawn = set()
    counted = plotting.overview_frame(table) if not table.empty else pd.DataFrame(columns=["work"])
    with plotting.style():
        if not counted.empty:
            fig = plotting.claims_overview(table, order=list(WORKS), title="The claims at a glance")
            plotting.save_overview(fig, figures / OVERVIEW)
            plt.close(fig)
            drawn.add("all")
        elif (figures / OVERVIEW).is_file():
            (figures / OVERVIEW).unlink()
        for work in WORKS:
            path = figures / work / OVERVIEW
            if work in set(counted["work"]):
                fig = plotting.claims_overview(table[table["work"] == work], by="item", title=work)
                plotting.save_overview(fig, path)
                plt.close(fig)
                drawn.add(work)
            elif path.is_file():
                path.unlink()
    return drawn


def ledger_rows() -> pd.DataFrame:
    """The statements the works' ledgers (:mod:`safeguarded.statements`) say we cannot check, as
    ``inconclusive`` printed rows; raises :class:`ClaimError` if one breaks the protocol or repeats a
    notebook's row."""
    table = pd.concat([not_run_rows(work, COLUMNS) for work in WORKS], ignore_index=True)
    problems = [f"statement ledger: {p}" for p in validate(table)]
    if problems:
        raise ClaimError("\n".join(problems))
    return table


def registered(figures: Path = FIGURES, *, statements: bool | None = None) -> pd.DataFrame:
    """The rows as registered (protocol v1), the input of :func:`judged`: all fragments (:func:`collect`)
    and, with ``statements`` (default: when ``figures`` is the repository's), the ledgers' unchecked
    statements (:func:`ledger_rows`); raises :class:`ClaimError` for a ledger row that repeats a notebook's
    claim."""
    table = collect(figures)
    if statements is None:
        statements = Path(figures).resolve() == FIGURES.resolve()
    if statements:
        extra = ledger_rows()
        clash = extra.merge(table, on=["work", "item", "claim"])
        if not clash.empty:
            raise ClaimError(
                "statement ledger rows repeat notebook claims (use claims= in the ledger instead): "
                + "; ".join(f"{r.work}/{r.item}/{r.claim!r}" for r in clash.itertuples())
            )
        table = pd.concat([table, extra], ignore_index=True) if not extra.empty else table
    return table


def judged(figures: Path = FIGURES, *, statements: bool | None = None, table: pd.DataFrame | None = None
           ) -> pd.DataFrame:
    """The rows as registered (:func:`registered`, or ``table``) re-judged under protocol v2 with their
    causes (:func:`safeguarded.judging.judge`); raises :class:`ClaimError` for a printed deviation without
    a valid cause, a recovered computation that reproduces fewer than 80 % of its printed values
    (:func:`safeguarded.judging.validate_recovered`) or a ledger row that repeats a notebook's claim."""
    table = registered(figures, statements=statements) if table is None else table
    if table.empty:
        return pd.DataFrame(columns=COLUMNS + V2_COLUMNS)
    table = judge(table)
    problems = validate_causes(table)
    if problems:
        raise ClaimError(
            f"{len(problems)} printed deviations break protocol v2 (docs/claims.md §7):\n"
            + "\n".join(problems)
        )
    problems = validate_recovered(table)
    if problems:
        raise ClaimError("recovered computations below the rule (docs/claims.md §7):\n" + "\n".join(problems))
    return table[COLUMNS + V2_COLUMNS]


FINDINGS_MD = REPO_ROOT / "docs" / "findings.md"

#: Long texts that repeat across the report's rows (a notebook's counts and solvers, a cause rule's reason
#: and evidence) are written once per distinct value into a side table that ``claims.csv`` keys into:
#: file -> (key column, the columns it stands for).  :func:`read_report` joins them back.
SIDE_TABLES = {
    "claims_runs.csv": ("runs_key", ("runs", "solver")),
    "claims_causes.csv": ("cause_key", ("why", "evidence")),
}


def _text_key(values: Sequence[str]) -> str:
    """A short key that depends only on the texts (so a report's keys change only where its texts do);
    empty texts get the empty key."""
    if not any(values):
        return ""
    return hashlib.sha1("\x1f".join(values).encode("utf-8")).hexdigest()[:10]


def split_report(table: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The judged report as written: ``claims.csv`` with each group of :data:`SIDE_TABLES` columns replaced by
    its key, and the side tables (one row per distinct key, in order of first use)."""
    main, sides = table.copy(), {}
    for name, (key, columns) in SIDE_TABLES.items():
        keys = [_text_key(values) for values in table[list(columns)].itertuples(index=False)]
        main.insert(main.columns.get_loc(columns[0]), key, keys)
        main = main.drop(columns=list(columns))
        side = table[list(columns)].assign(**{key: keys})[[key, *columns]]
        sides[name] = side[side[key] != ""].drop_duplicates(key).reset_index(drop=True)
    return main, sides


def read_report(figures: Path = FIGURES) -> pd.DataFrame:
    """The claims report ``figures/claims.csv`` with its side tables joined back: the columns of
    :func:`judged`, all strings (empty when missing); raises :class:`ClaimError` for a key that its side
    table lacks."""
    figures = Path(figures)
    table = pd.read_csv(figures / "claims.csv", dtype=str, keep_default_na=False)
    for name, (key, columns) in SIDE_TABLES.items():
        if key not in table.columns:
            continue
        side = pd.read_csv(figures / name, dtype=str, keep_default_na=False)
        missing = sorted(set(table[key]) - set(side[key]) - {""})
        if missing:
            raise ClaimError(
                f"{figures / name} lacks the keys {missing[:5]} that claims.csv uses: run make claims"
            )
        empty = pd.DataFrame([{key: "", **dict.fromkeys(columns, "")}])
        table = table.merge(pd.concat([side, empty], ignore_index=True), on=key, how="left", validate="m:1")
        table = table.drop(columns=key)
    return table[[c for c in COLUMNS + V2_COLUMNS if c in table.columns]]


def sweeps_table(figures: Path = FIGURES, store: Path | None = None) -> pd.DataFrame:
    """Per notebook that writes claims: its work, the items its claims are about, and the sweeps (with
    version and cells stored / needed) it reads from the results store (``docs/results.md``): the way
    from a claims row (work, item) to the stored cells it was computed from.  The sweeps are those the
    notebook's last run recorded (``grid-<notebook>.json``); none for a notebook without sweeps or not
    run since the store exists."""
    import os

    from safeguarded.results import load_stores

    used: dict[str, list[str]] = {}
    for sweep_store in load_stores(Path(store or os.environ.get("SAFEGUARDED_RESULTS", "") or RESULTS)):
        present, name = set(sweep_store.cells), f"{sweep_store.sweep} v{sweep_store.version}"
        for notebook, keys in sweep_store.grids().items():
            counts = f"{len(keys & present):,} / {len(keys):,} cells stored"
            used.setdefault(notebook, []).append(f"{name} ({counts})")
    rows = []
    for work in WORKS:
        for path in sorted((figures / work / "claims").glob("*.csv")):
            items = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=["item"])["item"]
            rows.append({"work": work, "notebook": path.stem, "items": " ".join(dict.fromkeys(items)),
                         "sweeps": "; ".join(used.get(path.stem, [])) or "none recorded"})
    return pd.DataFrame(rows, columns=["work", "notebook", "items", "sweeps"])


def write_report(
    figures: Path = FIGURES, *, readme: Path | None = None, findings: Path | None = None,
    protocol: Path | None = None, timings: Path | None = None, reviewing: Path | None = None,
) -> tuple[Path, Path]:
    """Write ``figures/claims.csv`` (with its :data:`SIDE_TABLES`), the overview figures
    (:func:`write_overview`), the index ``figures/CLAIMS.md`` and one ``figures/<work>/CLAIMS.md`` per work
    from all fragments, re-judged under protocol v2; with ``readme``, the README's generated blocks (the
    summary, the verdict in words, the two commands with their times from ``timings``, default
    ``docs/timings.csv``); with ``findings``, the findings page; with ``protocol``, the sensitivity table of
    ``docs/claims.md``; with ``reviewing``, the example row of ``docs/reviewing.md``.  A work without claims
    has no report (a stale one is removed)."""
    rows = registered(figures)
    table = judged(figures, table=rows)
    figures.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = figures / "claims.csv", figures / "CLAIMS.md"
    main, sides = split_report(table)
    main.to_csv(csv_path, index=False, lineterminator="\n")
    for name, side in sides.items():
        side.to_csv(figures / name, index=False, lineterminator="\n")
    sweeps_table(figures).to_csv(figures / "claims_sweeps.csv", index=False, lineterminator="\n")
    drawn = write_overview(table, figures)
    md_path.write_text(_markdown(table, pending_fragments(figures), overview="all" in drawn))
    works = set() if table.empty else set(table["work"])
    for work in WORKS:
        path = figures / work / "CLAIMS.md"
        if work in works:
            path.write_text(_work_markdown(table, work, overview=work in drawn))
        elif path.is_file():
            path.unlink()
    if readme is not None:
        _update_readme(table, readme, timings)
    if findings is not None:
        findings.write_text(findings_markdown(table, WORKS))
    if protocol is not None:
        _update_protocol(protocol, rows, table)
    if reviewing is not None:
        _update_review(reviewing, table)
    return csv_path, md_path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Validate and merge claim fragments into the claims report.")
    parser.add_argument("--figures", type=Path, default=FIGURES)
    parser.add_argument("--readme", type=Path, default=None, help="README whose summary block to update")
    parser.add_argument("--findings", type=Path, default=None, help="where to write the findings page")
    parser.add_argument("--protocol", type=Path, default=None,
                        help="the protocol page (docs/claims.md) whose sensitivity table to update")
    parser.add_argument("--reviewing", type=Path, default=None,
                        help="the reviewer's guide (docs/reviewing.md) whose example row to update")
    args = parser.parse_args(argv)
    csv_path, md_path = write_report(args.figures, readme=args.readme, findings=args.findings,
                                     protocol=args.protocol, reviewing=args.reviewing)
    n = len(pd.read_csv(csv_path))
    print(f"wrote {csv_path} and {md_path} ({n} claims)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
