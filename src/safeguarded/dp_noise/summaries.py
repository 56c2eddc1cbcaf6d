"""Per-split summaries and claim registration for the UCI tables (thesis Tables 2, 3, 9 and 18).

Kept apart from the sweep cells (:mod:`safeguarded.dp_noise.learning`,
:mod:`safeguarded.gaussian_mixtures.learning`) so that editing how results are judged does not invalidate
the cached sweeps.  Every comparison is made on the *per-split* results
(each split's error averaged over its noise simulations), as the thesis' t-tests (L942, Salzberg 1997).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from safeguarded.claims import VERDICTS, ClaimSet, printed_tolerance
from safeguarded.validation import check_array, check_choice, check_frame, check_type

__all__ = ["per_split", "improvement_with_se", "register_ml_table", "all_of"]


def per_split(runs: pd.DataFrame, dataset: str, part: str) -> pd.DataFrame:
    """Errors in % of every method of ``dataset``, one row per split (``part``: "train" or "test")."""
    if part not in ("train", "test"):
        raise ValueError(f"part must be 'train' or 'test', got part={part!r}")
    check_frame("runs", runs, ("dataset", "split", "method", f"{part}_error"))
    sub = runs[runs.dataset == dataset]
    if sub.empty:
        raise ValueError(f"dataset={dataset!r} is not in the runs")
    return 100.0 * sub.pivot(index="split", columns="method", values=f"{part}_error").sort_index()


def improvement_with_se(a, b, base) -> tuple[float, float]:
    """Imp = 100·(ā − b̄)/(ā − base̅) (Tables 2/3: a = TLN, b = OPT, base = the non-private method) and its
    standard error across splits by the delta method for a ratio of paired means.

    With x_i = a_i − b_i and y_i = a_i − base_i: R = x̄/ȳ, se(R) ≈ sd(x − R·y)/(√n·|ȳ|).  nan se for
    fewer than two splits; nan Imp when ȳ = 0.
    """
    a, b, base = (check_array(name, v, ndim=1) for name, v in (("a", a), ("b", b), ("base", base)))
    if not (a.shape == b.shape == base.shape) or a.ndim != 1:
        raise ValueError(f"a, b, base must be 1-d of equal length, got {a.shape}, {b.shape}, {base.shape}")
    x, y = a - b, a - base
    ybar = float(y.mean())
    if ybar == 0:
        return float("nan"), float("nan")
    r = float(x.mean()) / ybar
    if len(x) < 2:
        return 100.0 * r, float("nan")
    resid = x - r * y
    return 100.0 * r, 100.0 * float(resid.std(ddof=1)) / (math.sqrt(len(x)) * abs(ybar))


def _check_ml_table_args(claims, item, runs, paper, columns, table, pair, baseline, dd, runs_text, note):
    """The arguments of :func:`register_ml_table`, checked before any claim is registered."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    check_type("item", item, str, "a string (the claims item)")
    check_type("table", table, str, "a string (the table's name)")
    check_frame("runs", runs, ("dataset", "split", "method", "train_error", "test_error"))
    methods = tuple(runs["method"].unique())
    if isinstance(pair, str) or not isinstance(pair, tuple | list) or len(pair) != 2:
        raise ValueError(f"pair must be a pair (a, b) of methods of runs, got pair={pair!r}")
    for m in pair:
        check_choice("pair", m, methods)
    check_choice("baseline", baseline, methods)
    if dd is not None:
        check_choice("dd", dd, methods)
    if isinstance(columns, str) or not isinstance(columns, list | tuple):
        raise ValueError(f"columns must be a list of (part, method) pairs, got columns={columns!r}")
    for col in columns:
        if not isinstance(col, tuple | list) or len(col) != 2:
            raise ValueError(f"columns must hold (part, method) pairs, got {col!r}")
        check_choice("columns", col[0], ("in", "out"))
        check_choice("columns", col[1], (*methods, "Imp"))
    check_type("paper", paper, dict, "a dict {data set: (printed values..., seed line)}")
    for ds, row in paper.items():
        if not isinstance(row, tuple | list) or len(row) != len(columns) + 1:
            raise ValueError(
                f"paper must map each data set to {len(columns)} printed values and a line, got "
                f"paper[{ds!r}]={row!r}"
            )
    check_type("runs_text", runs_text, dict, "a dict {data set: runs text}")
    missing = [ds for ds in paper if ds in set(runs.dataset) and ds not in runs_text]
    if missing:
        raise ValueError(f"runs_text must have an entry for every data set that ran, missing {missing}")
    if note is not None:
        check_type("note", note, dict, "None or a dict {data set: note}")


def register_ml_table(
    claims: ClaimSet,
    item: str,
    runs: pd.DataFrame,
    paper: dict,
    columns: list[tuple[str, str]],
    *,
    table: str,
    pair: tuple[str, str],
    baseline: str,
    dd: str | None,
    runs_text: dict,
    note: dict | None = None,
    pair_source: str = "stated",
) -> dict:
    """Register every printed value of a UCI table whose data set ran, plus the per-row orderings.

    ``paper``: {data set: (printed strings in ``columns`` order..., seed line)}; ``columns``: (part,
    method) with part "in"/"out" and method a column of the runs or "Imp".  ``pair`` = (a, b) with
    the thesis' ordering "b better than a" (Tables 2/3: TLN, OPT; Table 9: A-G, M-G); its printed gap
    is the ``effect`` of the a- and b-level claims; ``dd`` (the bracketed data-dependent column)
    gets the gap b − dd as its effect.

    ``pair_source`` says where each row's a-vs-b ordering comes from: ``"stated"`` (the text states "b
    better than a" on every data set, e.g. L942/L990 for Tables 2/3) claims "b < a" in every row;
    ``"printed"`` (the text states no per-row ordering, e.g. Table 9) claims what the row prints: "b < a",
    "b > a", or, where the two print equal, "b = a", which holds when our mean difference is within the
    printed unit by k standard errors (:func:`_printed_tie`).  Either way the paper value shows the printed
    pair.  Returns {(data set, part): verdict of the row's ordering}.
    """
    _check_ml_table_args(claims, item, runs, paper, columns, table, pair, baseline, dd, runs_text, note)
    check_choice("pair_source", pair_source, ("stated", "printed"))
    note = note or {}
    a_name, b_name = pair
    verdicts = {}
    ran = [ds for ds in paper if ds in set(runs.dataset)]
    for ds in ran:
        vals, line = paper[ds][:-1], paper[ds][-1]
        printed = dict(zip(columns, vals, strict=True))
        rtext, extra = runs_text[ds], note.get(ds, "")
        for part_label, part in (("in", "train"), ("out", "test")):
            w = per_split(runs, ds, part)
            label = "in-sample" if part_label == "in" else "out-of-sample"
            gap = float(printed[(part_label, a_name)]) - float(printed[(part_label, b_name)])
            for (pl, m), value in printed.items():
                if pl != part_label:
                    continue
                loc = f"{table}, row {ds}, column {label} {m} (L{line})"
                if m == "Imp":
                    imp, se = improvement_with_se(w[a_name], w[b_name], w[baseline])
                    claims.printed_mc(item, f"{ds} {label} Imp (%)", value, imp, se, location=loc, runs=rtext,
                                      effect=float(value),
                                      note=(f"Imp = 100 ({a_name} - {b_name})/({a_name} - {baseline}); se by "
                                            "the delta method over splits" + (f"; {extra}" if extra else "")))
                    continue
                level_a = float(printed[(part_label, a_name)])
                if m in (a_name, b_name):
                    effect = gap  # the a-vs-b ordering these levels are meant to show
                elif dd is not None and m == dd:
                    effect = float(printed[(part_label, b_name)]) - float(value)
                elif m == baseline:
                    effect = level_a - float(value)  # the price of privacy that Imp normalises by
                else:
                    effect = float(value) - level_a  # a benchmark's excess over a
                se = float(w[m].sem()) if len(w) > 1 else float("nan")
                claims.printed_mc(item, f"{ds} {label} {m} error (%)", value, float(w[m].mean()), se,
                                  location=loc, effect=effect, runs=rtext, note=extra)
            pa, pb = printed[(part_label, a_name)], printed[(part_label, b_name)]
            shown = f"printed {b_name} {pb} vs {a_name} {pa}"
            if pair_source == "stated" or float(pb) < float(pa):
                sign = "<"
            else:
                sign = ">" if float(pb) > float(pa) else "="
            loc = f"{table}, row {ds} (L{line})"
            if sign == "=":
                c = _printed_tie(claims, item, f"{ds} {label}: {b_name} error = {a_name} error", w[b_name],
                                 w[a_name], pb, location=loc, paper_value=f"{b_name} = {a_name} ({shown})",
                                 runs=rtext, note=extra)
            else:
                source = "stated; " if pair_source == "stated" else ""
                c = claims.ordering(item, f"{ds} {label}: {b_name} error {sign} {a_name} error", w[b_name],
                                    w[a_name], expect=sign, location=loc, labels=(b_name, a_name), runs=rtext,
                                    note=extra, paper_value=f"{b_name} {sign} {a_name} ({source}{shown})")
            verdicts[(ds, part_label)] = c.verdict
            if dd is not None and part == "train":
                claims.ordering(item, f"{ds} {label}: {dd} error < {b_name} error", w[dd], w[b_name],
                                expect="<", location=f"{table}, row {ds} (L{line})", labels=(dd, b_name),
                                runs=rtext, note=extra)
    return verdicts


def _printed_tie(claims: ClaimSet, item: str, claim: str, b, a, printed: str, *, location: str, **opts):
    """A row that prints b and a equal: their true difference is below one unit of the printed digit
    (each value rounds by half a unit).  Holds when our mean difference of the splits lies within that unit
    by ``claims.k`` standard errors, fails when it lies beyond it by as much, else inconclusive."""
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    unit = 2 * printed_tolerance(printed)
    mean = float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")
    if not np.isfinite(se):
        holds = None
    elif abs(mean) + claims.k * se < unit:
        holds = True
    elif abs(mean) - claims.k * se >= unit:
        holds = False
    else:
        holds = None
    return claims.qualitative(
        item, claim, holds, location=location,
        reproduced_value=f"mean difference {mean:.4g} (se {se:.2g}, n={d.size}); printed unit {unit:g}",
        **opts,
    )


def all_of(verdicts) -> bool | None:
    """A statement "on every data set" from per-data-set ordering verdicts: False if any fails, None if
    any is inconclusive (or there are none), True if every one is ``qualitative-ok``."""
    if isinstance(verdicts, str) or not hasattr(verdicts, "__iter__"):
        raise ValueError(f"verdicts must be a sequence of claim verdicts, got verdicts={verdicts!r}")
    verdicts = list(verdicts)
    for v in verdicts:
        check_choice("verdicts", v, VERDICTS)
    if "qualitative-fails" in verdicts:
        return False
    if not verdicts or "inconclusive" in verdicts:
        return None
    return True


# --------------------------------------------------------------------------------------------------
# Tables 1, 4, 5, 6: the Geng integer rule of the authors' public code, and the LP-bracket tolerance
# --------------------------------------------------------------------------------------------------
def authors_rule_frame(cells: pd.DataFrame, upper: str = "tlap") -> pd.DataFrame:
    """The Table 1/4/5 columns of swept cells (:func:`synthetic.table_cell`) with the Geng bound's n of the
    authors' public C++ (``data_independent.cpp``: the largest n with Σ_{k<n} a·b^k ≤ 1/2, then
    LB = 2aΔf Σ_{k=1}^{n−1} k b^k) — the only rule the thesis' code states (its footnote 3, L891, only
    says the rounding is "non-monotonic").  :func:`synthetic.table_frame` keeps the rule fitted to the
    printed tables (n + 1 unless that exceeds O), which must be labelled ``fitted``.
    """
    from safeguarded.dp_noise import synthetic as syn

    if upper not in ("tlap", "best_ub"):
        raise ValueError(f"upper must be 'tlap' or 'best_ub', got upper={upper!r}")
    out = cells.copy()
    rows = [syn.table_metrics(r[upper], r["geng_lb_loop"], r["geng_lb_loop"], r["P"], r["D"])
            for _, r in cells.iterrows()]
    for key in rows[0]:
        out[key] = [row[key] for row in rows]
    return out


def lp_bracket_tolerance(ub: float, lb: float, upper: float, lower: float, table: str) -> float:
    """Half the range of a Table 1/4/5 percentage when O runs over our LP bracket [D, P] (O = (P + D)/2 is
    only known to ±(P − D)/2): Table 1 = 100(B_UB − LB)/max{O, 1}, Table 4 = 100(B_UB − O)/max{O, 1},
    Table 5 = 100(O − LB)/max{O, 1} (L871)."""
    if table not in ("table1", "table4", "table5"):
        raise ValueError(f"table must be 'table1', 'table4' or 'table5', got table={table!r}")
    if not upper >= lower:
        raise ValueError(f"need upper >= lower, got upper={upper!r}, lower={lower!r}")

    def value(o):
        num = {"table1": ub - lb, "table4": ub - o, "table5": o - lb}[table]
        return 100.0 * num / max(o, 1.0)

    return 0.5 * abs(value(upper) - value(lower))
