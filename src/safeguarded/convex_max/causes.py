"""Why convex_max's printed numbers deviate: the causes of its claims (protocol v2, ``docs/claims.md``).

Read by :mod:`safeguarded.judging` when ``make claims`` merges the notebooks' rows; the first matching
rule wins.  Each ``why`` gives the size; the notebooks' "Paper vs. ours" sections give the detail.
"""

from safeguarded.judging import Cause, Finding

_T37 = "notebooks/convex_max_table37.ipynb#paper-vs-ours"

FINDINGS = [
    Finding(
        id="convex_max-certified",
        title="Table 37 certifies P7 and P8 with an upper bound below the relaxation's own value",
        text=(
            "Table 37 prints equal upper and lower bounds for P7 (570.8467) and P8 (601.6886), i.e. the "
            "instances are certified optimal. The upper bound is the optimum of the convex relaxation "
            "(a maximisation), so it is at least the relaxation's value at any of its feasible points. At "
            "the point our solve returns, that value is already 570.846827 (P7) and 601.6899955 (P8): the "
            "printed upper bounds lie 1.3e-4 and 1.4e-3 below it (2.2e-7 and 2.3e-6 relative), more than "
            "the last printed digit and than an interior-point solver's default relative gap (1e-8). The "
            "printed bounds therefore do not certify optimality to the printed digits."
        ),
        evidence=(
            "the relaxation evaluated at our feasible point (claims 'P7 upper' and 'P8 upper', "
            f"{_T37}); the qualitative claim 'P7 certified (UB = LB)' fails (gap 1.15e-4)"
        ),
        size="1.3e-4 (P7) and 1.4e-3 (P8) on values of 571 and 602",
        claims=("table37",),
    ),
]

CAUSES = [
    Cause(
        "work-error",
        "the printed UB lies below the relaxation's value at a feasible point (P7 by 1.3e-4, P8 by 1.4e-3)",
        f"{_T37}; the relaxation value at our point is a lower bound on any valid UB",
        item="table37",
        claim="upper",
        note="printed UB is below the relaxation",
        finding="convex_max-certified",
    ),
    Cause(
        "solver",
        "a lower bound is the objective at the relaxation's primal point, which differs between solvers: "
        "ours differs from the thesis's by 7e-5 to 2.2e-4 (relative <= 2e-6)",
        "status optimal (Clarabel, thesis MOSEK): the LB point is the interior-point solution, not unique",
        item="table3[7-9]|table40",
        claim="lower",
        note="our LB is the exact objective at our point",
    ),
    Cause(
        "solver",
        "our UB solve is inaccurate: it lies below our own LB by 7e-5 (P1-size40) and 2.7e-4 (P1-size100)",
        "status optimal (Clarabel) but UB < LB: the solve's accuracy limit",
        item="table40",
        note="our UB is below our own LB",
    ),
    Cause(
        "solver",
        "Clarabel ended optimal_inaccurate; our UB is the verified value of a repaired point, a valid bound "
        "above the optimum (P5-P7 upper, 0.01-0.7 % above the printed UB)",
        "status optimal_inaccurate (Clarabel); the repaired point's value is verified",
        item="table39",
        claim="upper",
        note="Clarabel ended optimal_inaccurate",
    ),
    Cause(
        "underspecified",
        "the table prints five significant figures padded with zeros (1,723.30; 177,640.00): read literally "
        "the band is +-0.005, ours agrees to the five printed significant figures",
        "text: Tables 38-41 print five significant figures (e.g. '177,640.00', '6,100,200.00'); the "
        "literal rule of docs/claims.md is applied, the padded digits are not the work's precision",
        item="table3[89]|table41",
        note="was reproduced; the printed digits fix the band literally",
    ),
    Cause(
        "unexplained",
        "Table 41 lower bounds (P3-P6, P10, P13): ours are 0.4-4.5 % higher (better feasible points) "
        "than the thesis's; "
        "which setting of the thesis's lower-bounding heuristic differs is not found",
        "notebooks/convex_max_table41.ipynb#paper-vs-ours",
        item="table41",
        claim="lower",
    ),
    Cause(
        "unexplained",
        "Table 39 P4 upper: ours 177,652 vs 177,640 (6.8e-5 relative) with an optimal solver status",
        "notebooks/convex_max_table39.ipynb#paper-vs-ours",
        item="table39",
        claim="P4 upper",
    ),
    Cause(
        "unexplained",
        "Table 40 P3 and P6 upper bounds: ours 1e-3 and 9e-4 above the printed values with an optimal status",
        "notebooks/convex_max_table40.ipynb#paper-vs-ours",
        item="table40",
        claim="upper",
    ),
]
