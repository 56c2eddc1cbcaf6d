"""Statement ledger of routing (Tsao, Gopalakrishnan, Yang & Pavone, *Differentially Private Stochastic
Convex Optimization for Network Routing Applications*, seed ``004_b77a16fc80405124.txt``): every line of
its numerical sections that states a number, a ratio, a time or an ordering.

Sections walked:

* L454-L522, Sec. 5 "Experiments" (data set, algorithms and their settings, Fig. 1-3, Table 1) and
  Sec. 6 "Conclusions", which restates the 2 % suboptimality (L520);
* L760-L781, App. D "Computational approximations" (Table 2 and its discussion), on which Sec. 5.3
  (L484) relies for its approximation errors and speed-ups.

The proofs (App. A-C, L523-L759) state no numerical result.  The run-time ratios of L484 and L781
("up to 50X", "30X", "30-50X") are measured on the authors' machine: they are registered as not run.

Inconsistencies within the work seen on these lines: the experiments use alpha = 10^4 (L472, L514),
App. D's Error #3 and its "less than a 0.01% error" use alpha = 10^3 (L781); Error #3 is printed as
8.17e-3 (L776-L778), which is below 0.01 % only if read in percent, while Error #1 is called a
"fractional error" (L781) and L484 gives the same error as "less than 10^-4 %".
"""

from safeguarded.statements import Ledger, Skip, Statement

_TIMES = (
    "a run-time ratio of the authors' implementation on their machine (neither stated); the repository "
    "reports its own timings of both approximations as benchmark output "
    "(benchmarks/bench_routing_speedups.py), "
    "never as claims, because they depend on the machine and its load"
)

LEDGER = Ledger(
    seed="004_b77a16fc80405124.txt",
    sections=((454, 522), (760, 781)),
    statements=[
        Statement(
            462,
            "Sioux Falls: 24 nodes, 76 edges, 528 OD pairs, mean OD demand 682 veh/h, "
            "edge travel times 2-10 min",
            "fig01",
            claims=(
                r"^(?:nodes|edges|OD pairs with positive demand|mean OD demand"
                r"|min edge travel time|max edge travel time)"
            ),
        ),
        Statement(
            472, "beta = largest eigenvalue of B^T Q B = 2.08e7", "fig02", claims=r"^beta = lambda_max"
        ),
        Statement(
            484,
            "evaluating costs at the mean demand introduces less than 1e-4 % error",
            "table02",
            claims=r"^Error #1 below 1e-6",
        ),
        Statement(
            484,
            "the cost of the mean-demand solution has less than 1e-7 % error (App. D's Error #2)",
            "table02",
            claims=r"^Error #2 at N=",
        ),
        Statement(
            484,
            "evaluating costs at the mean demand improves the run time by up to 50X (Sec. 5.3)",
            "table02",
            kind="time",
            not_run=_TIMES,
            paper="up to 50X",
        ),
        Statement(
            484,
            "solving at the mean demand instead of (10) gives a speed-up of 30X (Sec. 5.3)",
            "table02",
            kind="time",
            not_run=_TIMES,
            paper="speed up of 30X",
        ),
        Statement(
            486,
            "the cost decreases monotonically with the iterations for N = 10, 25, 50",
            "fig02",
            kind="ordering",
            claims=r"^cost decreases monotonically with k for every N",
        ),
        Statement(
            486,
            "the final cost for N = 50 is the lowest",
            "fig02",
            kind="ordering",
            claims=r"^N=50 ends lower than N=(?:10|25)",
        ),
        Statement(
            486,
            "Algorithm 1 ends around 2% from the optimal policy",
            "fig02",
            claims=r"^final cost gap to the Baseline for N=50",
        ),
        Statement(
            486,
            "the 2% gap is (suspected to be) due to the l2 regulariser",
            "fig02",
            kind="ordering",
            claims=r"due to the l2 regulariser",
        ),
        Statement(
            491,
            "the price of privacy is less than 7.8e-2 % in the worst case",
            "table01",
            claims=r"^worst-case price of privacy",
        ),
        Statement(
            491,
            "at eps = 0.1, delta = 0.1 the cost of privacy is even smaller",
            "table01",
            kind="ordering",
            claims=r"^cost of privacy at eps=0\.1, delta=0\.1 below the worst case",
        ),
        Statement(
            491, "every OD pair typically has a few hundred trips", "fig01", claims=r"few hundred trips"
        ),
        Statement(491, "over 500 OD pairs", "fig01", claims=r"^OD pairs with positive demand"),
        Statement(
            491,
            "tens of thousands of vehicles contribute with every data point",
            "fig01",
            claims=r"tens of thousands of vehicles",
        ),
        Statement(
            (494, 499),
            "Table 1: cost increase (%) for eps in {0.01, 0.1, 0.5} and delta in {0.1, 0.5}",
            "table01",
            claims=r"^cost increase % at eps=",
        ),
        Statement(
            512,
            "Fig. 3(a): for larger alpha the costs decrease faster",
            "fig03a",
            kind="ordering",
            claims=r"^larger alpha decreases the cost faster",
        ),
        Statement(
            512,
            "Fig. 3(a): the cost ratio does not go to 1",
            "fig03a",
            kind="ordering",
            claims=r"^cost ratio does not go to 1",
        ),
        Statement(
            514,
            "Fig. 3(b): a steeper latency (factor 5 vs 2, 1.5) takes more iterations but ends with the "
            "lowest costs",
            "fig03b",
            kind="ordering",
            claims=r"^kappa=5 (?:ends with a lower cost ratio|takes more iterations)",
        ),
        Statement(
            516,
            "Fig. 3(c): higher demand (scale 1.5 vs 1, 0.5) ends closer to 1",
            "fig03c",
            kind="ordering",
            claims=r"^demand scale 1\.5 ends closer to 1",
        ),
        Statement(
            520,
            "only a 2% suboptimality in total travel time",
            "fig02",
            claims=r"^final cost gap to the Baseline",
        ),
        Statement(
            (776, 778),
            "Table 2: Error #1, #2 (< 1e-10), #3 for N = 10, 25, 50",
            "table02",
            claims=r"^Error #[123] at N=(?:10|25|50)",
        ),
        Statement(781, "Error #1 is less than 1e-6", "table02", claims=r"^Error #1 below 1e-6"),
        Statement(
            781,
            "the small Error #2 justifies solving at the mean demand",
            "table02",
            claims=r"^Error #2 at N=",
        ),
        Statement(
            781,
            "the alpha = 1e3 regulariser gives less than a 0.01% error in the total travel cost",
            "table02",
            claims=r"^regulariser error below 0\.01%",
        ),
        Statement(
            781,
            "evaluating costs at the mean demand is 30-50X faster (App. D)",
            "table02",
            kind="time",
            not_run=_TIMES,
            paper="30-50X",
        ),
        Statement(
            781,
            "solving at the mean demand gives up to a 30X speed-up (App. D)",
            "table02",
            kind="time",
            not_run=_TIMES,
            paper="upto a 30X speedup",
        ),
    ],
    skips=[
        Skip(454, "section heading"),
        Skip(456, "reference to Theorem 3 and Algorithm 1 (no number)"),
        Skip(458, "section references 5.1-5.4 (no number)"),
        Skip(460, "section heading"),
        Skip(464, "section heading"),
        Skip(466, "section references 5.3, 5.4 and Algorithm 1 (no number)"),
        Skip(468, "the Baseline problem: equation references (10), (11) and the SAA objective"),
        Skip(470, "Algorithm 1's regularised problem: equation reference (11), Assumption 4, l2 (no number)"),
        Skip(480, "caption of Fig. 1 (no number)"),
        Skip(482, "section heading"),
        Skip(489, "caption of Fig. 2 (no number)"),
        Skip(500, "caption of Table 1 (no number)"),
        Skip(502, "section heading"),
        Skip(510, "caption of Fig. 3 (no number)"),
        Skip(518, "section heading"),
        Skip((764, 772), "notation of App. D: equation reference (7) and the averages over i = 1..N"),
        Skip(
            (774, 775),
            "header of Table 2 (the error definitions, implemented in the routing_fig3_table2 notebook)",
        ),
        Skip(779, "caption of Table 2 (no number)"),
    ],
)
