"""The statement ledger of thesis §3 (mixed-feature Wasserstein classification and regression).

It walks two line ranges of the seed text ``001_748385b54f8c598a.txt``:

* L3387-L3404, §3.5.1, the stylized example behind Figure 14: the only place outside §3.6 where the
  section states numbers it later relies on (the empirical hinge loss 0.41, the worst-case range 0.41 to 2,
  the extra atom's mass 0.063 / 0.048 / 0.1 and its position [1.5, 7.5], mean 2.29);
* L3446-L3508, §3.6 "Numerical Results" with Figure 15's caption and Tables 19-20 (runtimes), and
  L3518-L3592, Tables 21-26 (benchmark errors) with their captions, which the text places after §3.7
  "Conclusions" (L3510-L3516, no numbers).

The appendices 3.A-3.C (L3594-L4041) hold proofs and reformulations only, no numerical results.

Every cell of Tables 21-26 is a printed claim row of ``wasserstein_mixed_tables21_26`` (matched below by
regular expressions on the claim names, not on values, since that notebook is being rerun). Tables 19-20
print times on the authors' cluster: each cell is registered here as a time we do not compare (our
machine and solvers differ), and the ordering each cell states (cut faster than piece) is checked by the
notebook's per-cell rows.
"""

from __future__ import annotations

from safeguarded.statements import Ledger, Skip, Statement

SEED = "001_748385b54f8c598a.txt"

_COLUMNS = [f"N={n} {share}%" for n in (500, 1000, 2500) for share in (25, 50, 75)]

#: Table 19 (L3475-L3477): per line, the two methods and their nine (cut, piece) medians in seconds.
_TABLE19 = {
    3475: (
        "SVM",
        ["0.05", "0.20", "0.25", "0.13", "0.21", "0.45", "0.29", "0.61", "1.23"],
        ["6.35", "11.80", "15.25", "12.48", "22.99", "40.97", "30.4", "109.78", "146.62"],
    ),
    3476: (
        "QR",
        ["0.15", "0.24", "0.36", "0.28", "0.57", "1.18", "1.08", "1.64", "3.08"],
        ["3.35", "5.59", "9.24", "8.71", "19.95", "26.1", "22.83", "48.34", "114.19"],
    ),
    3477: (
        "SVR",
        ["0.12", "0.22", "0.24", "0.26", "0.44", "0.55", "0.76", "0.92", "2.73"],
        ["4.35", "9.20", "17.29", "10.2", "16.78", "35.46", "27.13", "52.02", "95.08"],
    ),
}

#: Table 20 (L3485-L3496): per line, the method and its nine medians in seconds as printed.
_TABLE20 = {
    3485: ("LR-cut", ["0.16", "0.61", "1.32", "0.22", "0.60", "1.48", "0.56", "0.67", "1.87"]),
    3486: (
        "LR-piece [5]",
        ["42.08", "108.0", "157.06", "127.97", "382.6", "608.76", "743.01", "2,371.29*", "NaN"],
    ),
    3487: (
        "LR-piece [10]",
        ["50.32", "133.0", "186.56", "482.51", "236.94*", "339.82*", "3,107.19*", "NaN", "2,595.02*"],
    ),
    3488: (
        "LR-piece [25]",
        ["526.72", "280.11", "499.72", "2,178.79*", "1,634.96*", "1,137.18*", "NaN", "NaN", "NaN"],
    ),
    3489: ("SSVM-cut", ["0.14", "0.31", "0.54", "0.22", "0.46", "0.63", "0.6", "0.61", "1.57"]),
    3490: (
        "SSVM-piece [5]",
        ["20.54", "59.6", "84.11", "44.43", "125.33", "201.43", "460.29", "349.74", "612.18*"],
    ),
    3491: (
        "SSVM-piece [10]",
        ["34.85", "80.19", "114.63", "82.52", "166.36", "277.17*", "1,924.21*", "439.99*", "730.46*"],
    ),
    3492: (
        "SSVM-piece [25]",
        ["90.25", "198.32*", "332.86*", "221.74*", "406.68", "763.53*", "NaN", "1,161.48*", "1,996.73*"],
    ),
    3493: ("RR-cut", ["0.16", "0.19", "0.3", "0.27", "0.3", "0.52", "0.7", "0.78", "1.31"]),
    3494: (
        "RR-piece [5]",
        ["9.87", "23.23", "38.57", "23.13", "55.95", "87.75", "73.02", "171.16", "269.98"],
    ),
    3495: (
        "RR-piece [10]",
        ["16.52", "38.92", "60.38", "37.69", "87.57", "143.39", "105.4", "281.6", "464.49"],
    ),
    3496: (
        "RR-piece [25]",
        ["43.16", "95.53", "155.26", "93.21", "222.79", "373.44*", "296.18*", "824.93*", "1,584.85*"],
    ),
}

_CLUSTER = (
    "a median time on the authors' Intel Xeon 2.66 GHz cluster nodes, single core and thread, Julia/JuMP "
    "with MOSEK 10 (L3455); our machine (2 shared cores) and solvers (HiGHS, Clarabel) differ, so absolute "
    "seconds are not compared; the ordering this cell states (cut faster than piece) is the notebook's "
    "per-cell row, our medians are in figures/wasserstein_mixed/{table}.csv"
)
_CENSORED = (
    "; '*'/'NaN' says at least one / more than half of the thesis's 100 instances ran past 1 h (L3498), "
    "which needs 100 instances per cell and a 1 h limit (our run: 1 instance per cell, 30 s limit)"
)


def _table19() -> list[Statement]:
    out = []
    for line, (loss, cut, piece) in _TABLE19.items():
        for column, c, p in zip(_COLUMNS, cut, piece, strict=True):
            for method, value in ((f"{loss}-cut", c), (f"{loss}-piece", p)):
                out.append(
                    Statement(
                        line,
                        f"{method} median runtime (s), {column}",
                        "table19",
                        kind="time",
                        not_run=_CLUSTER.format(table="table19"),
                        paper=value,
                    )
                )
    return out


def _table20() -> list[Statement]:
    out = []
    for line, (method, values) in _TABLE20.items():
        for column, value in zip(_COLUMNS, values, strict=True):
            censored = _CENSORED if ("*" in value or value == "NaN") else ""
            out.append(
                Statement(
                    line,
                    f"{method} median runtime (s), {column}",
                    "table20",
                    kind="time",
                    not_run=_CLUSTER.format(table="table20") + censored,
                    paper=value,
                )
            )
    return out


#: Tables 21-26: their lines, caption line and the data-row lines.
_TABLES = {
    "table21": (3518, 3528, (3519, 3526), "mean classification error (%), logistic loss"),
    "table22": (3530, 3540, (3531, 3538), "mean classification error (%), hinge loss"),
    "table23": (3542, 3552, (3543, 3550), "mean classification error (%), smooth hinge loss"),
    "table24": (3554, 3570, (3555, 3568), "mean squared error, Huber loss (delta = 0.5)"),
    "table25": (3572, 3581, (3573, 3579), "mean squared error, pinball loss (tau = 0.5)"),
    "table26": (3583, 3592, (3584, 3590), "mean squared error, tau-insensitive loss (tau = 0.1)"),
}
#: A cell row of Tables 21-26 is named "<data set> <full|half> <method>".
_CELL = r"^[a-z-]+ (full|half) (Nom|MixF\([1K]\)|r-Nom|r-MixF\([1K]\)|ConF\([1K]\))$"


def _tables21_26() -> tuple[list[Statement], list[Skip]]:
    statements, skips = [], []
    for item, (header, caption, rows, what) in _TABLES.items():
        number = item[-2:]
        statements += [
            Statement(
                rows, f"Table {number}: {what}, every data set x method x full/half", item, claims=_CELL
            ),
            Statement(
                rows,
                f"Table {number}: the † / ‡ significance marks (p = 0.05 over (r-)Nom / the better ConF)",
                item,
                kind="ordering",
                claims=r" marked [†‡]$",
            ),
        ]
        skips += [
            Skip(header, f"Table {number}'s column headers (kappa_y = 1 / K)"),
            Skip(
                rows,
                "the N, M_x, M_z, K columns are the data sets' dimensions, tested against our loaders in "
                "tests/test_thesis_datasets.py::test_tables21_26_dimensions (THESIS_DIMENSIONS)",
            ),
            Skip(
                caption,
                f"Table {number}'s caption: loss parameter (recorded in the rows' runs) and cross-references",
            ),
        ]
    return statements, skips


_T2126_STATEMENTS, _T2126_SKIPS = _tables21_26()

_STATEMENTS = [
    # --- §3.5.1, Figure 14 --------------------------------------------------------------------------------
    Statement(
        3395,
        "mean expected hinge loss of the empirical risk model over 10,000 data sets: 0.41",
        "fig14",
        claims=r"^mean expected hinge loss of the empirical model$",
    ),
    Statement(
        3400,
        "mixed-feature worst-case expected hinge loss varies from 0.41 to 2",
        "fig14",
        claims=r"^(largest mixed-feature worst-case expected hinge loss|mixed worst-case loss lies between)",
    ),
    Statement(
        3400,
        "at large eps the mixed worst case approaches mixtures of (+1,-1) and (-1,+1)",
        "fig14",
        kind="ordering",
        claims=r"^mixed worst case at large eps is a mixture",
    ),
    Statement(
        3400,
        "the unbounded continuous-feature worst-case loss diverges as eps grows",
        "fig14",
        kind="ordering",
        claims=r"^unbounded worst-case loss diverges",
    ),
    Statement(
        3400,
        "for large eps the unbounded worst case puts mass 0.1 on a non-sensical atom (±c, ±1)",
        "fig14",
        claims=r"^mass of the extra atom for large eps",
    ),
    Statement(
        3402,
        "eps = 0.85: mean mass 0.063 (std. dev. 0.048) on the extra atom, |c| in [1.5, 7.5] (mean 2.29)",
        "fig14",
        claims=r"^(mean mass of the extra atom \(±c, ±1\)|std\. dev\. of the extra atom's mass|"
        r"(smallest|largest|mean) \|c\| of the extra atom), .*eps = 0\.85$",
    ),
    # --- §3.6.1, Figure 15 --------------------------------------------------------------------------------
    Statement(
        3463,
        "improved out-of-sample losses as more of the 20 binary features are treated as binary",
        "fig15",
        kind="ordering",
        claims=r"all 20 features binary beats none",
    ),
    Statement(
        3463,
        "the Figure 15 trend is robust to the choice of the eps grid",
        "fig15",
        kind="ordering",
        not_run="the alternative eps grids are not stated (the thesis defers them to its GitHub repository) "
        "and Figure 15's paper run (331 s) is beyond this ledger pass's 5-minute rerun limit",
        paper="robust to different choices of the ϵ -grid",
    ),
    # --- §3.6.2, Tables 19 and 20 ---------------------------------------------------------------------------
    Statement(
        3471,
        "the cutting plane is significantly faster than the bounded continuous-feature model (Table 19)",
        "table19",
        kind="ordering",
        claims=r"cut faster than piece",
    ),
    Statement(
        (3475, 3477),
        "Table 19: in every cell the -cut median is below the -piece median",
        "table19",
        kind="ordering",
        claims=r"^(SVM|QR|SVR) N=\d+ \d+%: cut faster than piece",
    ),
    Statement(
        (3475, 3477),
        "Table 19: its printed cells give piece/cut ratios of 21x to 180x (no ratio is printed)",
        "table19",
        kind="ratio",
        claims=r"^piece/cut ratio",
    ),
    Statement(
        3481,
        "the cutting plane is significantly faster than piece[J] (Table 20)",
        "table20",
        kind="ordering",
        claims=r"cut faster than piece \[(5|10|25)\]",
    ),
    Statement(
        3481,
        "piece[J] is a lower bound on the original problem",
        "table20",
        kind="ordering",
        claims=r"^piece\[J\] is a lower bound",
    ),
    Statement(
        3481,
        "more than 25 pieces are needed to guarantee a suboptimality of 0.1% or less",
        "table20",
        claims=r"^suboptimality of piece\[10\] exceeds 0\.1%",
    ),
    Statement(
        (3485, 3496),
        "Table 20: in every cell the -cut median is below the -piece [J] median",
        "table20",
        kind="ordering",
        claims=r"^(LR|SSVM|RR) N=\d+ \d+%: cut faster than piece \[(5|10|25)\]",
    ),
    *_table19(),
    *_table20(),
    # --- §3.6.3, Tables 21-26 -------------------------------------------------------------------------------
    Statement(
        3506,
        "runtimes: nominal models within seconds, continuous-feature within minutes, mixed-feature "
        "within 10 minutes (an ordering nominal < ConF < MixF)",
        "table21",
        kind="ordering",
        claims=r"^runtimes: nominal fastest, mixed-feature slowest",
    ),
    Statement(
        3506,
        "most mixed-feature models were solved within 10 minutes",
        "table21",
        kind="time",
        not_run="a time on the authors' cluster (L3455) over 100 splits and the full grids; our per-fit "
        "medians (other machine and solvers) are in the row 'runtimes: nominal fastest, ...', which "
        "compares their ordering only",
        paper="within 10 minutes",
    ),
    *_T2126_STATEMENTS,
    *[
        Statement(
            3508,
            f"the mixed-feature models outperform the (regularised) nominal models and the "
            f"continuous-feature approximations (Table {item[-2:]})",
            item,
            kind="ordering",
            claims=r"better than (Nom|r-Nom|ConF\([1K]\)) \((full|half) size",
        )
        for item in _TABLES
    ],
    Statement(
        3508,
        "the outperformance over the continuous-feature approximations is larger for instances "
        "with many discrete features",
        "table21",
        kind="ordering",
        claims=r"^(classification|regression): MixF\(K\)'s gain over ConF\(K\) grows with",
    ),
    Statement(
        3508,
        "the mixed-feature models perform better on the parsimonious (half-size) instances (classification)",
        "table21",
        kind="ordering",
        claims=r"^classification: MixF\(K\) gains more over Nom on the half-size data",
    ),
    Statement(
        3508,
        "the mixed-feature models perform better on the parsimonious (half-size) instances (regression)",
        "table24",
        kind="ordering",
        claims=r"^regression: MixF\(K\) gains more over Nom on the half-size data",
    ),
    Statement(
        3508,
        "regularising the mixed-feature model gives no significant advantage in classification",
        "table21",
        kind="ordering",
        claims=r"^classification: regularising MixF gives no significant",
    ),
    Statement(
        3508,
        "regularising the mixed-feature model helps in regression",
        "table24",
        kind="ordering",
        claims=r"^regression: regularising MixF helps",
    ),
    Statement(
        3508,
        "no significant differences among the classification loss functions",
        "table21",
        kind="ordering",
        claims=r"^classification: no significant difference among the loss functions",
    ),
    Statement(
        3508,
        "the Huber loss performs best on the regression instances",
        "table24",
        kind="ordering",
        claims=r"^Huber loss performs best on regression",
    ),
]

_SKIPS = [
    Skip(3387, "citations (2015, 2019) and the problem number (56)"),
    Skip(
        3389,
        "the example's setting (Prob(y = z | z) = 0.8, kappa_y = 1, N = 10): recorded in the fig14 rows' "
        "runs and used by its derived rows",
    ),
    Skip((3391, 3393), "the three formulations' definitions: problem numbers and the support {-1, +1}"),
    Skip(
        3398, "Figure 14's caption: 10,000 simulations is the setting (fig14 runs); the bars are not printed"
    ),
    Skip(3446, "section heading"),
    Skip(3448, "problem and section numbers"),
    Skip(3451, "Figure 15's caption: losses scaled to [0,1] (a plotting choice; no value is printed)"),
    Skip(3453, "section numbers"),
    Skip(
        3455,
        "the authors' software and hardware (Julia 1.9.2, MOSEK 10.0, 2.66 GHz, 8 GB): cited as the "
        "reason the runtimes of Tables 19-20 are not compared",
    ),
    Skip(3457, "section heading"),
    Skip(3459, "section and problem numbers"),
    Skip(3461, "Figure 15's setting (100 instances per loss, 6 losses): recorded in the fig15 rows' runs"),
    Skip(
        3463,
        "Figure 15's setting (N = 20, K = 20, eps grid, (kappa_z, kappa_y, p) = (1, 1, 1), 1-norm): "
        "recorded in the fig15 rows' runs",
    ),
    Skip(3465, "section heading"),
    Skip(3467, "section and problem numbers"),
    Skip(
        3469,
        "Table 19's setting (100 data sets, N in {500, 1,000, 2,500}, 30 features, 25/50/75% discrete "
        "with 4 values) and the O(N J K) size of the bounded reformulation, a property of the formulation, "
        "not a measured number",
    ),
    Skip(
        3471,
        "Table 19's setting (eps = 10^-2, (kappa_z, kappa_y, p) = (1, K, 1)): recorded in its rows' runs",
    ),
    Skip((3473, 3474), "Table 19's column headers (N, share of discrete features)"),
    Skip(3479, "Table 19's caption: loss parameters (tau = 0.5, tau = 10^-2), recorded in its rows' runs"),
    Skip(3481, "Table 20's setting (100 data sets, J in {5, 10, 25})"),
    Skip((3483, 3484), "Table 20's column headers"),
    Skip(
        3498,
        "Table 20's caption: Huber delta = 0.05 and the 1-hour limit (settings; the '*'/'NaN' markers "
        "are registered with each cell)",
    ),
    Skip(3500, "section heading"),
    Skip(
        3502,
        "section and problem numbers; the 8 + 7 data sets are the tables' rows (tests/"
        "test_thesis_datasets.py::test_every_thesis_data_set_is_listed); the output scaling to [-1, 1] is a "
        "preprocessing setting",
    ),
    Skip(3504, "Tables 21-26's protocol (100 splits, 80/20, half-size variants): recorded in the rows' runs"),
    Skip(
        3506,
        "the methods' settings ((kappa_z, p) = (1, 1), kappa_y in {1, K}, the eps and alpha grids, "
        "p-value 0.05 of the marks): recorded in the rows' runs",
    ),
    Skip(3508, "section numbers (3.5.1, 3.6.1)"),
    Skip(
        (3556, 3568),
        "Table 24's OCR repeats each data set's dimensions on its half-size line in garbled form "
        "(presumably L3556 '11,010' for bike 17,379; L3558 'iiic 011 10 91 4' for fire 517 10 31 4); "
        "not numbers the thesis states",
    ),
    *_T2126_SKIPS,
]

LEDGER = Ledger(
    seed=SEED, sections=((3387, 3404), (3446, 3508), (3518, 3592)), statements=_STATEMENTS, skips=_SKIPS
)
