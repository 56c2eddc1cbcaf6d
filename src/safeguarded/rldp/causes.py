"""rldp's findings (protocol v2, ``docs/claims.md``): the paper prints no number we compare, so no
printed deviation needs a cause; what the reproduction found about the paper goes to the findings page.
"""

from safeguarded.judging import Cause, Finding

_FIG2 = "notebooks/rldp_fig2.ipynb"

CAUSES: list[Cause] = []

FINDINGS = [
    Finding(
        id="rldp-which-optimum",
        title="Fig. 2's D* and ε* come from one optimal protocol the paper does not specify",
        text=(
            "NUNP, NURP, RUNP and RURP have many optimal protocols, and Fig. 2 scores D* and ε* under P*, "
            "which the optimisation never sees, so the plotted points depend on which optimum the solver "
            "returns. Over 30 instances per N, each problem solved five ways that are all optimal to 3.9e-7 "
            "(tie-break of 1e-5 of either sign, none, and tilted to the smallest and largest D*), the widest "
            "ranges are for NUNP: D* in [0.215, 0.979] at N = 5 and ε* in [1.536, 2.982] at N = 10; for the "
            "robust problems D* in [2.404, 2.515] (NURP, N = 10) and ε* in [0.149, 0.360] (RURP, N = 5). "
            "ε* also depends on the zero tolerance that decides which probabilities count as 0 (2,356 values "
            "change when read with exact zeros). The paper states neither choice. None of Fig. 2's "
            "qualitative claims changes verdict with the choice (each is judged at every choice)."
        ),
        evidence=(
            f"{_FIG2}#which-optimum-the-range-of-d-and-epsilon-over-optimal-protocols; "
            "tests/test_rldp.py::test_directed_tie_breaks_bracket_every_optimal_protocol"
        ),
        size="NUNP D* can move by up to 0.76 at N = 5 (0.19 on the plotted mean)",
        claims=("fig02c", "fig02d"),
    ),
]
