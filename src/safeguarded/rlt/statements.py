"""The statement ledger of the RLT work (thesis §6; :mod:`safeguarded.statements`).

Sections walked (lines of ``001_748385b54f8c598a.txt``):

* L6035, the abstract's quantitative promise ("reduce computation times by up to several orders of
  magnitude"), which the experiments are meant to show;
* L6230-L6254, §6.3 "Numerical Experiments": the setup and Figures 19-20 with their captions;
* L6451, App. 6.A.4's summary of the standard-quadratic experiments (tightness and runtime orderings);
* L6453-L6494, App. 6.B "Additional Numerical Experiments": Figures 21-24, their captions and text;
* L6496-L6511, Chapter IV (conclusions): it states no number about these works (no line with a digit).

Figures 19-24 are images absent from the text, so the work prints no plotted value: its checkable
statements are the orderings, shapes and the few numbers of the text (the "about 2 %" and "about 0.5 %"
gaps, "around 1 %", "n >= 60", "up to n = 10"), all listed below.
"""

from __future__ import annotations

from safeguarded.statements import Ledger, Result, Skip, Statement

SEED = "001_748385b54f8c598a.txt"

#: The row that checks the StQP runtime orderings (Fig. 24 and App. 6.A.4).
_FIG24_TIMES = (
    r"^the proposed RLT is faster than RLT and RLT/SDP \(median solver time, every n, both types\)$"
)

_STATEMENTS = [
    # abstract
    Statement(
        6035,
        "the proposed RLT reduces computation times by up to several orders of magnitude",
        "fig20",
        kind="ratio",
        claims=r"^'reduce computation times by up to several orders of magnitude'",
    ),
    # §6.3, Figure 19 (n = 3)
    Statement(
        6246,
        "Fig. 19: f is minimised at the centre of the simplex",
        "fig19",
        kind="ordering",
        claims=r"^f is minimised at the centre of the simplex$",
    ),
    Statement(
        6246,
        "Fig. 19: f is maximised at a vertex",
        "fig19",
        kind="ordering",
        claims=r"^f is maximised at a vertex$",
    ),
    Statement(
        6246,
        "Fig. 19: the maximum of f + g is attained in the interior",
        "fig19",
        kind="ordering",
        claims=r"^the maximum of f \+ g is attained in the interior$",
    ),
    # §6.3, Figure 20
    Statement(
        6254,
        "the optimal values of RLT and RLT/SDP coincide on the simplicial instances",
        "fig20",
        claims=r"^Corollary 16: RLT, RLT/SDP and the proposed RLT have the same optimal value",
    ),
    Statement(
        6254,
        "there are optimal solutions with X* = Diag(x*)",
        "fig20",
        claims=r"^Theorem 22: the RLT optimum has X\* = Diag\(x\*\)$",
    ),
    Statement(
        (6250, 6254),
        "Fig. 20: the proposed RLT substantially outperforms RLT and RLT/SDP in runtime",
        "fig20",
        kind="ordering",
        claims=r"^the proposed RLT is faster than RLT and RLT/SDP \(median solver time, every n\)$",
    ),
    # App. 6.A.4 (standard quadratic optimization)
    Statement(
        6451,
        "StQP: RLT/SDP is tighter than the proposed RLT",
        "fig23",
        kind="ordering",
        claims=r"^RLT/SDP is the tightest",
    ),
    Statement(
        6451,
        "StQP: RLT and the proposed RLT are incomparable (either can be tighter)",
        "fig23",
        kind="ordering",
        claims=r"^RLT and the proposed RLT are incomparable",
    ),
    Statement(
        6451,
        "StQP: the proposed RLT is faster than RLT and RLT/SDP",
        "fig24",
        kind="ordering",
        claims=_FIG24_TIMES,
    ),
    # App. 6.B.1, Figure 21 (hypercube)
    Statement(
        6466,
        "Fig. 21: the proposed RLT is tighter than RLT and RLT/SDP (Theorem 24)",
        "fig21",
        kind="ordering",
        claims=r"^Theorem 24: proposed <= RLT/SDP <= RLT on every hypercube instance$"
        r"|^proposed RLT tighter than RLT",
    ),
    Statement(
        6466,
        "Fig. 21: the outperformance over RLT is substantial and grows with n",
        "fig21",
        kind="ordering",
        claims=r"^the gap of RLT grows with n",
    ),
    Statement(
        6466,
        "Fig. 21: the proposed RLT is only viable up to n = 10",
        "fig21",
        kind="ordering",
        claims=r"^the proposed RLT is only viable up to n = 10",
    ),
    # App. 6.B.1, Figure 22 (simplex x cube)
    Statement(
        6476,
        "Fig. 22: the proposed RLT significantly outperforms RLT/SDP in runtime",
        "fig22",
        kind="ordering",
        claims=r"^the proposed RLT is faster than RLT/SDP \(median solver time, every n\)$",
    ),
    Statement(
        6476,
        "Fig. 22: the proposed RLT is faster than RLT for n >= 60",
        "fig22",
        kind="ordering",
        claims=r"^the proposed RLT is faster than RLT for n >= 60",
    ),
    Statement(
        6476,
        "Fig. 22: the proposed RLT is tighter than RLT by about 2 %",
        "fig22",
        kind="number",
        claims=r"^median gap of RLT over the proposed RLT \(%\)",
    ),
    Statement(
        6476,
        "Fig. 22: the proposed RLT is tighter than RLT/SDP by about 0.5 %",
        "fig22",
        kind="number",
        claims=r"^median gap of RLT/SDP over the proposed RLT \(%\)",
    ),
    Statement(
        6476,
        "Fig. 22: the proposed RLT is tighter than RLT and RLT/SDP (Theorem 24)",
        "fig22",
        kind="ordering",
        claims=r"^Theorem 24: proposed <= RLT/SDP <= RLT on every simplex x cube instance$",
    ),
    Statement(
        6476,
        "Fig. 22: the gap differences are small (around 1 %)",
        "fig22",
        kind="number",
        not_run="a new claim needs the rlt notebook's paper run (28 min), not rerun in this pass; the "
        "committed rows give median gaps of 1.14 % (RLT) and 0.021 % (RLT/SDP, n <= 60)",
        paper="around 1%",
    ),
    # App. 6.B.2, Figures 23-24 (standard quadratic optimization)
    Statement(
        (6482, 6494),
        "Fig. 23: RLT/SDP tends to provide the tightest relaxations",
        "fig23",
        kind="ordering",
        claims=r"^RLT/SDP is the tightest",
    ),
    Statement(
        6494,
        "Fig. 23: the proposed RLT is tighter than RLT on type 1 instances",
        "fig23",
        kind="ordering",
        claims=r"^proposed RLT tighter than RLT on type 1",
    ),
    Statement(
        6494,
        "Fig. 23: the proposed RLT is looser than RLT on type 2 instances",
        "fig23",
        kind="ordering",
        claims=r"^proposed RLT looser than RLT on type 2",
    ),
    Statement(
        (6492, 6494),
        "Fig. 24: the proposed RLT clearly dominates RLT and RLT/SDP in runtime",
        "fig24",
        kind="ordering",
        claims=_FIG24_TIMES,
    ),
]

_SKIPS = [
    Skip(6230, "section heading"),
    Skip(
        6232,
        "hardware and software versions of the thesis's runs (i7-8750H, MATLAB 2018b, YALMIP R20200930, "
        "MOSEK 9.2.28; citation years): settings",
    ),
    Skip(6234, "an equation number"),
    Skip(
        (6236, 6237), "the objective of the simplicial instances (a formula; implemented in rlt/instances.py)"
    ),
    Skip(
        6250, "Fig. 20's caption: the number of instances (25 per n) is a setting recorded in the rows' runs"
    ),
    Skip(
        6252,
        "the instances' distribution (D's diagonal from [0, 10], a Haar rotation; citation year): a setting, "
        "tested in tests/test_rlt.py::test_scalings_thesis_vs_code and test_haar_rotation_has_haar_moments",
    ),
    Skip(6254, "a section number"),
    Skip(6451, "a section number and the O(n^2) variable count (a property of the formulations)"),
    Skip((6453, 6457), "appendix headings"),
    Skip(6459, "an equation number"),
    Skip((6461, 6462), "the objective of the hypercube instances (a formula)"),
    Skip(
        6464,
        "section number; the lifted space R^(2^n) and the 2n halfspaces are the formulations' sizes, tested "
        "in tests/test_rlt.py::test_vertices_of_the_liftings_are_the_polytope_vertices",
    ),
    Skip(
        6466,
        "the sizes n = 1, ..., 10 of Fig. 21 (a setting recorded in the rows' runs: ours n = 2..10 for the "
        "pairwise tightness rows) and a theorem number",
    ),
    Skip(6470, "Fig. 21's caption: the gap's definition and the number of instances (settings)"),
    Skip(
        6472,
        "size formulas: n + k + 2 halfspaces and 2^k (n - k) lifted vertices (the vertex count is tested in "
        "tests/test_rlt.py::test_vertices_of_the_liftings_are_the_polytope_vertices)",
    ),
    Skip(6474, "the objective of the simplex x cube instances (a formula)"),
    Skip(
        6476,
        "k = 3 and n = 10, 20, ..., 150 of Fig. 22 (settings recorded in the rows' runs); a theorem number",
    ),
    Skip(6479, "Fig. 22's caption: the number of instances (a setting)"),
    Skip(6482, "Fig. 23's caption: the gap's definition and the number of instances (settings)"),
    Skip(6484, "appendix heading"),
    Skip(
        6486,
        "the eigenvalue intervals [-7.5, 2.5] and [-5, 5] (settings: the rows run both these and the "
        "authors' code's n-scaled intervals; citation year)",
    ),
    Skip(6488, "appendix and figure numbers"),
    Skip(6492, "Fig. 24's caption: the number of instances (a setting)"),
    Skip(6494, "figure numbers and instance types"),
]

# -- the theory (§6.1-§6.2, L6031-L6229; App. 6.A, L6256-L6451) --------------------------------------------
# Every theorem-like statement, checked on constructed instances by notebooks/rlt_theorems.ipynb
# (safeguarded.rlt.theorems) or on the figures' instances by rlt_figs19_24.ipynb, or judged not checkable.
RESULTS = [
    Result(6047, "", "problem (137) is hard even if P = NP (a citation of Nesterov 2004, Theorem 1)",
           why="a complexity statement cited from the literature; no computed instance can test it"),
    Result(6083, "", "assuming the probability simplex does not restrict generality (f(Tx), g(Tx))",
           why="a change of variables by the matrix of the simplex's vertices, exact by construction"),
    Result(6110, "Proposition 20", "five function classes have monotone liftings", "prop20",
           claims=r"^Proposition 20\."),
    Result(6181, "Corollary 15", "convex and conic quadratics, negative entropy and powers have "
                                 "monotone liftings",
           "cor15", claims=r"^Corollary 15\."),
    Result(6204, "", "any indefinite quadratic is a convex plus a concave quadratic", "app6a4",
           claims=r"^App\. 6\.A\.4: "),
    Result(6208, "Theorem 22", "the RLT relaxation (140) has an optimal solution with X* = Diag(x*)", "fig20",
           claims=r"^Theorem 22: the RLT optimum has X\* = Diag\(x\*\)$"),
    Result(6218, "Corollary 16", "RLT and RLT/SDP have the same optimal value", "fig20",
           claims=r"^Corollary 16: RLT, RLT/SDP and the proposed RLT have the same optimal value"),
    Result(6285, "Theorem 23", "two simplices: an optimal solution with X* = Diag(x*), Y* = Diag(y*)",
           "thm23",
           claims=r"^Theorem 23: "),
    Result(6294, "Corollary 17", "two simplices: RLT and RLT/SDP have the same optimal value", "thm23",
           claims=r"^Corollary 17: "),
    Result(6323, "", "the results do not extend to three or more simplices (counterexamples exist)", "app6a1",
           claims=r"^L6323: over three simplices RLT/SDP is strictly tighter"),
    Result(6336, "", "the lifted problem (144) has p vertices, typically exponential in m; 2n for the 1-norm "
           "ball's images", why="a count of a polytope's vertices (the hypercube's 2^n and the "
                                "simplex x cube's "
           "counts are tested in "
           "tests/test_rlt.py::test_vertices_of_the_liftings_are_the_polytope_vertices)"),
    Result(6338, "", "the RLT relaxation of the original polytope is typically strictly weaker than RLT/SDP",
           "app6a2", claims=r"^L6338: "),
    Result(6340, "Theorem 24", "the RLT of the lifted problem (144) is at least as tight as RLT/SDP of (137)",
           "fig21", claims=r"^Theorem 24: proposed <= RLT/SDP <= RLT on every hypercube instance$"),
    Result(6425, "", "(148) with lifted nonlinear constraints has an optimum with X* = Diag(x*) and "
                     "X* >= x*x*'",
           "app6a3", claims=r"^\(148\): "),
    Result(6445, "", "with a second block y in Y the RLT keeps an optimum with X* = Diag(x*)", "app6a3",
           claims=r"^L6445: "),
    Result(6449, "", "the eigen-split of a standard quadratic problem makes Theorem 22 and "
                     "Corollary 16 apply",
           "app6a4", claims=r"^App\. 6\.A\.4: "),
]

LEDGER = Ledger(
    seed=SEED,
    sections=((6035, 6035), (6230, 6254), (6451, 6451), (6453, 6494), (6496, 6511)),
    statements=_STATEMENTS,
    skips=_SKIPS,
    theory=((6031, 6229), (6256, 6451)),
    results=RESULTS,
)
