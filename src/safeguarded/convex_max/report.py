"""Claims of Tables 37–41: the thesis's printed values (:mod:`.thesis`) against this package's results.

Rules (fixed before the runs, never tuned to the result):

* a printed bound or optimum is compared at half a unit of its last printed digit (Tables 37, 40), or of
  its fifth significant figure where the table prints five significant figures padded with zeros
  (Tables 38, 39, 41; :func:`~.thesis.sig5_tolerance`);
* a row the thesis certifies (printed UB = printed LB) is certified here when our UB - LB is at most one
  unit of that last digit (twice the printed tolerance); a row the thesis leaves open is "open" here
  when our gap exceeds it;
* our lower bound against a baseline stand-in's best value at its time limit is a per-instance
  comparison (qualitative), and the dominance the thesis states over a set of instances an ordering.

A printed bound outside its tolerance gets a note from :func:`explain_deviation`, by rules that read
only our own results (never the size of the match): an upper bound below our own lower bound is a
solver inaccuracy of ours; a relaxation whose value at our *feasible* point already exceeds the printed
upper bound (``upper_at_w``, Table 37) shows that the printed value lies below the relaxation's optimum;
a lower bound is the exact objective at our point, so a different value means a different point.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from safeguarded.claim_rules import fmt
from safeguarded.claims import ClaimSet, printed_tolerance
from safeguarded.convex_max.thesis import (
    AUTHORS_REPOSITORY,
    AUTHORS_STORED,
    TABLE37,
    TABLE38,
    TABLE39,
    TABLE40,
    TABLE41,
    is_number,
    parse_printed,
    sig5_tolerance,
)
from safeguarded.validation import check_bool, check_choice, check_type

__all__ = ["register_bounds", "register_certified", "register_exact", "register_lb_vs_baseline",
           "register_local_values", "register_single_start", "register_stored", "explain_deviation",
           "deviation_table", "local_comparison", "stored_comparison", "THESIS_TABLES"]

THESIS_TABLES = {"table37": TABLE37, "table38": TABLE38, "table39": TABLE39, "table40": TABLE40,
                 "table41": TABLE41}
_SIG5 = {"table38", "table39", "table41"}
_SECTION = {"table37": "4.1", "table38": "4.2", "table39": "4.3", "table40": "4.4", "table41": "4.5"}
_TITLE = {"table37": "Table 37", "table38": "Table 38", "table39": "Table 39", "table40": "Table 40",
          "table41": "Table 41"}


def _check_args(claims, item, df, columns=(), items=None) -> None:
    """The arguments every ``register_*`` function shares: a ClaimSet, a table key, a results frame."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    _check_frame(item, df, columns, items)


def _check_frame(item, df, columns=(), items=None) -> None:
    check_choice("item", item, tuple(items or THESIS_TABLES))
    check_type("df", df, pd.DataFrame, "a pandas DataFrame")
    missing = [c for c in ("problem", *columns) if c not in df.columns]
    if missing:
        raise ValueError(f"df must have the columns {['problem', *columns]}, missing {missing}")


def _tol(item: str, printed: str) -> float:
    return sig5_tolerance(printed) if item in _SIG5 else printed_tolerance(printed)


def _loc(item, name, column, line):
    return f"{_TITLE[item]}, row {name}, column {column} (L{line})"


def _printed_and_tol(item: str, ref: dict, column: str) -> tuple[float, float]:
    """The printed value of ``ref[column]`` and its tolerance by the rules above."""
    return parse_printed(ref[column].rstrip("*")), _tol(item, ref[column])


def explain_deviation(item: str, row, column: str) -> str:
    """The likely reason why ``row[column]`` misses the printed value of ``item`` (empty if it does not).

    Rules, in order (each uses our results only): (1) ``upper`` below our own ``lower`` by more than
    the printed tolerance: our UB solve is inaccurate by at least that much; (2) ``upper`` above the
    printed value and ``upper_at_w`` (the relaxation at our feasible point, a certified lower estimate
    of its optimum) above printed + tolerance: the printed UB is below the optimum of the relaxation,
    which no tolerance of our solver explains; (3) ``lower`` off the printed value: our LB is the exact
    objective at our point, which the solver's relaxation solution determines; a different LB means a
    different point (below the printed value: the thesis's point is better; above: ours is).
    """
    check_choice("item", item, tuple(THESIS_TABLES))
    check_choice("column", column, ("upper", "lower"))
    if not hasattr(row, "get") or "problem" not in row:
        raise ValueError(f"row must be a mapping or Series with a 'problem' entry, got {type(row).__name__}")
    ref = THESIS_TABLES[item].get(row["problem"])
    if ref is None or not is_number(ref[column]):
        return ""
    printed, tol = _printed_and_tol(item, ref, column)
    ours = float(row[column]) if row.get(column) is not None else float("nan")
    if not np.isfinite(ours) or abs(ours - printed) <= tol:
        return ""
    lower = float(row.get("lower", np.nan))
    if column == "upper":
        if np.isfinite(lower) and ours < lower - tol:
            return (f"our UB is below our own LB by {lower - ours:.3g}: the UB solve is inaccurate by at "
                    "least that much (solver accuracy, not a different bound)")
        at_w = float(row.get("upper_at_w", np.nan))
        if ours > printed and np.isfinite(at_w) and at_w > printed + tol:
            return (f"the relaxation at our feasible point is already {at_w:.10g}, "
                    f"{at_w - printed:.3g} above the printed UB: the printed UB is below the "
                    "relaxation's optimum (not a tolerance of our solver)")
        return ""
    side = "better" if ours < printed else "worse"
    return (f"our LB is the exact objective at our point (from the solver's relaxation solution); the "
            f"thesis's point is {side} by {abs(ours - printed):.3g}")


def deviation_table(item: str, df) -> pd.DataFrame:
    """Every printed UB / LB of ``item`` that ``df`` misses by more than its tolerance, with the reason.

    Columns: problem, bound, printed, ours, ours - printed, tolerance, reason (:func:`explain_deviation`).
    """
    check_choice("item", item, tuple(THESIS_TABLES))
    check_type("df", df, pd.DataFrame, "a pandas DataFrame")
    missing = [c for c in ("problem", "upper", "lower") if c not in df.columns]
    if missing:
        raise ValueError(f"df must have the columns ['problem', 'upper', 'lower'], missing {missing}")
    table = THESIS_TABLES[item]
    out = []
    for _, row in df.iterrows():
        ref = table.get(row["problem"])
        for col in ("upper", "lower"):
            if ref is None or not is_number(ref[col]):
                continue
            (printed, tol), ours = _printed_and_tol(item, ref, col), float(row[col])
            if np.isfinite(ours) and abs(ours - printed) <= tol:
                continue
            out.append({"problem": row["problem"], "bound": col, "printed": ref[col], "ours": ours,
                        "ours - printed": ours - printed, "tolerance": tol,
                        "reason": explain_deviation(item, row, col) if np.isfinite(ours)
                        else f"no value: {row.get('ub_status', 'our solve failed')}"})
    return pd.DataFrame(out, columns=["problem", "bound", "printed", "ours", "ours - printed", "tolerance",
                                      "reason"])


def _stored_columns(item: str) -> tuple[str, ...]:
    return ("exact",) if item == "table38" else ("upper", "lower")


def _stored_file(item: str, name: str, column: str) -> str:
    file, variable = {"upper": ("UB solution", "upper_bound"), "lower": ("LB solution", "lower_bound"),
                      "exact": ("Solution", "global_optimum")}[column]
    return f"{AUTHORS_REPOSITORY}, Section {_SECTION[item]}/{name}/{file}.mat ({variable})"


def stored_comparison(item: str, df) -> pd.DataFrame:
    """The printed bounds, the authors' stored ones (:data:`~.thesis.AUTHORS_STORED`) and ours, per
    problem of ``df`` and bound: whether the printed value is the stored one at the printed digits
    (``|printed - stored| <= tolerance``, the claims' rule) and whether ours is."""
    check_choice("item", item, tuple(THESIS_TABLES))
    columns = _stored_columns(item)
    _check_frame(item, df, columns)
    table, stored = THESIS_TABLES[item], AUTHORS_STORED[item]
    out = []
    for _, row in df.iterrows():
        name = row["problem"]
        if name not in stored or name not in table:
            continue
        for col, value in zip(columns, stored[name], strict=True):
            if not is_number(table[name][col]):
                continue
            (printed, tol), ours = _printed_and_tol(item, table[name], col), float(row[col])
            out.append({"problem": name, "bound": col, "printed": table[name][col], "authors' stored": value,
                        "ours": ours, "printed - stored": printed - value, "ours - stored": ours - value,
                        "tolerance": tol, "printed is stored": abs(printed - value) <= tol,
                        "ours is stored": bool(np.isfinite(ours) and abs(ours - value) <= tol)})
    return pd.DataFrame(out, columns=["problem", "bound", "printed", "authors' stored", "ours",
                                      "printed - stored", "ours - stored", "tolerance", "printed is stored",
                                      "ours is stored"])


def register_stored(claims, item: str, df) -> None:
    """Each bound the authors store (:data:`~.thesis.AUTHORS_STORED`) against ours, as a ``supplement``
    claim (judged like a printed number, never counted with them): the stored value written with the
    printed cell's digits, so the band is the printed table's (half a unit of its last digit, or of the
    fifth significant figure in Tables 38, 39 and 41)."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    for r in stored_comparison(item, df).to_dict("records"):
        printed, value = r["printed"], r["authors' stored"]
        decimals = len(printed.split(".")[1]) if "." in printed else 0
        stored = f"{value:,.{decimals}f}"
        kw = {}
        if item in _SIG5:
            kw = dict(solver_tolerance=sig5_tolerance(stored),
                      reason="the table prints five significant figures")
        name, bound, is_stored = r["problem"], r["bound"], "" if r["printed is stored"] else "not "
        claims.printed(item, f"{name} {bound} (authors' stored solution)", stored, float(r["ours"]),
                       reference="supplement", location=_stored_file(item, name, bound),
                       note=f"printed {printed}: the printed value is {is_stored}the stored one at the "
                       f"printed digits (printed - stored {r['printed - stored']:+.3g})", **kw)


def register_bounds(claims, item: str, df, *, columns=("upper", "lower"), skip=(), note: str = "",
                    explain: bool = False, recovered: str = "") -> None:
    """Printed UB / LB (or other value columns) of every row of ``df`` (columns ``problem`` + values).

    ``explain``: append :func:`explain_deviation`'s note to each deviating UB / LB.  ``recovered`` (the
    variant's name): ``df`` holds the values of a recovered computation, each registered beside its printed
    row (registered before by this function) under the same rule (docs/claims.md §7)."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    check_choice("item", item, tuple(THESIS_TABLES))
    table = THESIS_TABLES[item]
    known = set(next(iter(table.values()))) - {"line"}
    if not isinstance(columns, tuple | list) or not all(isinstance(c, str) and c in known for c in columns):
        raise ValueError(f"columns must be a tuple of columns of {item} {sorted(known)}, got {columns!r}")
    _check_args(claims, item, df, tuple(columns))
    if not isinstance(skip, tuple | list | set | frozenset):
        raise ValueError(f"skip must be a collection of problem names, got skip={skip!r}")
    check_type("note", note, str, "a string")
    explain = check_bool("explain", explain)
    check_type("recovered", recovered, str, "a string")
    for _, row in df.iterrows():
        name = row["problem"]
        if name not in table or name in skip:
            continue
        ref = table[name]
        for col in columns:
            printed = ref[col]
            if not is_number(printed):
                continue
            tol = _tol(item, printed)
            kw = {}
            if tol > printed_tolerance(printed):
                kw = dict(solver_tolerance=tol, reason="the table prints five significant figures")
            why = explain_deviation(item, row, col) if explain and col in ("upper", "lower") else ""
            full = "; ".join(x for x in (note, why) if x)
            claims.printed(item, f"{name} {col}", printed, float(row[col]), location=_loc(item, name, col,
                           ref["line"]), note=full, recovered=recovered, **kw)


def register_exact(claims, item: str, df) -> None:
    """Table 38's exact optima (Cor. 11): printed value against ours, plus 'proven' (MILP bound met)."""
    _check_args(claims, item, df, ("exact", "exact_status", "exact_bound"), items=("table38",))
    register_bounds(claims, item, df, columns=("exact",))
    for _, row in df.iterrows():
        ref = TABLE38[row["problem"]]
        proven = row["exact_status"] == "optimal"
        claims.qualitative(item, f"{row['problem']} optimum proven (Cor. 11)", proven,
                           location=_loc(item, row["problem"], "exact", ref["line"]),
                           paper_value="exact global optimum",
                           reproduced_value=f"value {row['exact']:.6f}, bound {row['exact_bound']:.6f}, "
                                            f"{row['exact_status']}")


def register_certified(claims, item: str, df) -> None:
    """Rows with printed UB = LB are certified; rows with UB > LB are left open (gap rule above)."""
    _check_args(claims, item, df, ("upper", "lower"))
    table = THESIS_TABLES[item]
    for _, row in df.iterrows():
        name = row["problem"]
        if name not in table or not is_number(table[name]["upper"]):
            continue
        ref = table[name]
        unit = 2 * _tol(item, ref["upper"])
        gap = float(row["upper"] - row["lower"])
        thesis_certified = ref["upper"] == ref["lower"]
        ours_certified = gap <= unit
        claim = f"{name} certified (UB = LB)" if thesis_certified else f"{name} open (UB > LB)"
        holds = None if np.isnan(gap) else (ours_certified if thesis_certified else not ours_certified)
        claims.qualitative(item, claim, holds,  # None: a bound is missing (recorded failure), inconclusive
                           location=_loc(item, name, "upper/lower", ref["line"]),
                           paper_value=f"UB {ref['upper']}, LB {ref['lower']}",
                           reproduced_value=f"gap {gap:.3g} (unit of last printed digit {unit:.3g})")


def register_lb_vs_baseline(claims, item: str, df, baseline: str, label: str, limit: float | str,
                            location: str, names=None) -> None:
    """Our LB >= the stand-in's best value at its limit, per instance (NaN value: none found).

    ``limit``: seconds, or a text such as "our UB + LB time" for the restricted runs."""
    _check_args(claims, item, df, ("lower",))
    if not isinstance(baseline, str) or baseline not in df.columns:
        raise ValueError(f"baseline must be a column of df {list(df.columns)}, got baseline={baseline!r}")
    check_type("label", label, str, "a string")
    number = isinstance(limit, int | float) and not isinstance(limit, bool)
    if not isinstance(limit, str) and not (number and limit > 0 and np.isfinite(limit)):
        raise ValueError(f"limit must be a number of seconds > 0 or a text, got limit={limit!r}")
    if not isinstance(location, str) or not location:
        raise ValueError(f"location must be a non-empty string, got location={location!r}")
    if names is not None and not isinstance(names, tuple | list | set | frozenset):
        raise ValueError(f"names must be a collection of problem names or None, got names={names!r}")
    limit = limit if isinstance(limit, str) else f"{limit:g} s"
    for _, row in df.iterrows():
        if names is not None and row["problem"] not in names:
            continue
        value = row[baseline]
        if np.isnan(row["lower"]):  # our method failed on this row: nothing to compare
            holds = None
        else:
            holds = bool(np.isnan(value) or row["lower"] >= value - 1e-6 * max(1.0, abs(value)))
        shown = "none found" if np.isnan(value) else f"{value:.6g}"
        claims.qualitative(item, f"{row['problem']} our LB >= {label} at {limit}", holds,
                           location=location, paper_value="stated",
                           reproduced_value=f"LB {row['lower']:.6g} vs {label} {shown}", scale="reduced",
                           note=f"{label} is an open-source stand-in, time limit {limit}")


# -- Knitro's columns against an open-source local solver (docs/claims.md §2e) ---------------------------

#: Knitro's printed value columns, our stand-in's column and the run's name.
_LOCAL_RUNS = (("knitro", "local_value", "single start"), ("ms", "ms_value", "multistart"))
_LOCAL_TABLES = ("table37", "table38", "table40")
#: The stand-in, as the ``solver`` column names it.
LOCAL_STANDIN = "scipy SLSQP (open-source stand-in for Knitro)"
_CONFIRMS_ONLY = ("a local solver stops at a local optimum: another solver from the same start (SLSQP, "
                  "from the centre; multistart from seeded random feasible points) may stop at another one, "
                  "so a different value says nothing about Knitro's, and only a value above our certified "
                  "bound on the maximum refutes it")


def _bound(item: str, row) -> tuple[float, float]:
    """Our certified bound on the maximum of ``row`` and its own inaccuracy: Table 38's proven MILP bound
    (``exact_bound``); else our UB, whose inaccuracy is how far it lies below our attained LB."""
    if item == "table38":
        return float(row["exact_bound"]), 0.0
    upper, lower = float(row["upper"]), float(row["lower"])
    slack = max(0.0, lower - upper) if np.isfinite(upper) and np.isfinite(lower) else 0.0
    return upper, slack


def local_comparison(item: str, df) -> pd.DataFrame:
    """Knitro's printed local values (single start and multistart) beside our stand-in's (scipy SLSQP,
    :func:`~.baselines.local_multistart`) and our certified bound on the maximum, per problem of ``df``
    that the thesis's table holds, with the verdict of docs/claims.md §2e: equal at the printed digits
    -> ``reproduced``; the printed value above our bound by more than half a printed unit plus the bound's
    own inaccuracy -> ``deviates`` (no feasible point attains it); otherwise ``inconclusive``.

    Columns: problem, run, printed, stand-in, bound, bound slack, tolerance, verdict."""
    check_choice("item", item, _LOCAL_TABLES)
    bound_columns = ("exact_bound",) if item == "table38" else ("upper", "lower")
    _check_frame(item, df, ("local_value", "ms_value", *bound_columns), items=_LOCAL_TABLES)
    table, out = THESIS_TABLES[item], []
    for _, row in df.iterrows():
        ref = table.get(row["problem"])
        if ref is None:
            continue
        bound, slack = _bound(item, row)
        for printed_column, column, run in _LOCAL_RUNS:
            printed = ref[printed_column]
            if not is_number(printed):
                continue
            value, tol, ours = parse_printed(printed), printed_tolerance(printed), float(row[column])
            if np.isfinite(ours) and abs(ours - value) <= tol:
                verdict = "reproduced"
            elif np.isfinite(bound) and value > bound + slack + tol:
                verdict = "deviates"
            else:
                verdict = "inconclusive"
            out.append({"problem": row["problem"], "run": run, "printed": printed, "stand-in": ours,
                        "bound": bound, "bound slack": slack, "tolerance": tol, "verdict": verdict})
    return pd.DataFrame(out, columns=["problem", "run", "printed", "stand-in", "bound", "bound slack",
                                      "tolerance", "verdict"])


def register_local_values(claims, item: str, df) -> None:
    """Knitro's printed single-start and multistart values against our open-source stand-in's, by the
    rule of :func:`local_comparison` (the verdicts a ``ClaimSet`` then gives are the same): a printed row
    each, with ``solver`` naming the stand-in and Knitro's time left unjudged."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    compared = local_comparison(item, df)  # checks item and df
    table = THESIS_TABLES[item]
    bound_name = "the proven bound of our exact method" if item == "table38" else "our upper bound"
    for r in compared.to_dict("records"):
        name, run = r["problem"], r["run"]
        column = "Knitro" if run == "single start" else "Knitro multistart value"
        slack = (f", {fmt(r['bound slack'])} below our own LB (its inaccuracy, added to the band)"
                 if r["bound slack"] else "")
        note = (f"Knitro (commercial) is not available: ours is its {run} run by {LOCAL_STANDIN}; "
                f"{bound_name} {r['bound']:.10g}{slack}; Knitro's time is not judged")
        kw = {}
        if r["verdict"] == "deviates":
            note += ": the printed value lies above it, so no feasible point attains it"
        else:
            kw["cannot_refute"] = _CONFIRMS_ONLY
        claims.printed(item, f"{name} Knitro {run} value", r["printed"], r["stand-in"],
                       location=_loc(item, name, column, table[name]["line"]), note=note,
                       solver=LOCAL_STANDIN, **kw)


def register_single_start(claims, item: str, df, *, finds: tuple[str, ...], location: str) -> None:
    """The text's statement that a single local start misses the optimum on every problem of ``df`` but
    ``finds`` (where it reaches it), checked with our stand-in (:data:`LOCAL_STANDIN`): one qualitative row.
    The optimum is the best value we attain (our LB, or the multistart's where that is higher); a single
    start "finds" it within half a unit of the table's fourth decimal (the printed digits)."""
    check_type("claims", claims, ClaimSet, "a ClaimSet")
    _check_frame(item, df, ("local_value", "ms_value", "lower"), items=_LOCAL_TABLES)
    if not isinstance(finds, tuple) or not all(isinstance(n, str) for n in finds):
        raise ValueError(f"finds must be a tuple of problem names, got finds={finds!r}")
    check_type("location", location, str, "a string")
    best = np.fmax(df["lower"].astype(float), df["ms_value"].astype(float))
    found = (df["local_value"].astype(float) >= best - 5e-5).to_numpy()
    stated = df["problem"].isin(finds).to_numpy()
    agree = found == stated
    off = ", ".join(f"{p} ({'finds' if f else 'misses'})"
                    for p, f, a in zip(df["problem"], found, agree, strict=True) if not a)
    claims.qualitative(item, f"single start misses the optimum on every problem but {', '.join(finds)} "
                       "(stand-in)", bool(agree.all()), location=location, paper_value="stated",
                       reproduced_value=f"as stated on {int(agree.sum())} of {len(agree)}"
                       + (f"; not on {off}" if off else ""), solver=LOCAL_STANDIN,
                       note="Knitro (commercial) is not available: the stand-in runs the same protocol (a "
                            "single start, then multistart); the optimum is the best value we attain")
