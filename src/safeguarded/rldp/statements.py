"""Statement ledger of rldp (Goseling & Lopuhaä-Zwakenberg, *Robust Optimization for Local Differential
Privacy*): every line of its numerical section that states a number, a ratio or an ordering.

Seed: the arXiv version, ``000_4e56b8d676f6ac57.txt``.  The claim rows cite its lines: the tick labels
of Fig. 2 (L213, L215, L217, L219), from which the axis-range claims are read, survive only in the arXiv
text; the ISIT version (``003_2b9de422e6f448b6.txt``) has the panel captions only (C:L255-L257).  The
ISIT version's numerical section (C:L221-L257) is word for word the arXiv's L223-L253 apart from the
reference numbers ([19]-[21] instead of [18]-[20]); it states no number the arXiv version does not.

Section walked: L213-L253, i.e. Fig. 2 with its tick labels and captions (L213-L221), Sec. V "Numerical
experiments" (L223-L245) and Sec. VI "Discussion" (L247-L253), which restates the experiments' finding
(L249) and claims the size of the formulations (L251).  The appendices (L278-L477) are proofs and state
no numerical result.  The figure's x-axis ticks of (c)-(d) (N = 10^1-10^3) are the range of the N grid,
which the paper does not state otherwise (our grid is in the claims' ``runs``).

Note: in this seed the mathematical italic letters are mis-decoded (e.g. as the Thai digit '๐'), so
nearly every line with a formula contains a "digit"; such lines with no number are skipped with that
reason.  The paper prints no number for its results: its checkable statements are axis ranges and
orderings, all checked by qualitative rows of ``notebooks/rldp_fig2.ipynb``.
"""

from safeguarded.statements import Ledger, Skip, Statement

_MISDECODED = "no number: the mis-decoded mathematical letters of this seed read as digits"

LEDGER = Ledger(
    seed="000_4e56b8d676f6ac57.txt",
    sections=((213, 253),),
    statements=[
        Statement(
            213,
            "Fig. 2(a) axes: eps* from 0 to 6, D* from 0 to 3 (tick labels)",
            "fig02a",
            claims=r"^finite eps\* at n=75 in \[0, 6\]|^all D\* in \[0, 3\] at n=75",
        ),
        Statement(
            215,
            "Fig. 2(b) axes: eps* from 0.5 to 2, D* from 0 to 1.5 (tick labels)",
            "fig02b",
            claims=r"eps\* in \[0\.5, 2\]|^all D\* in \[0, 1\.5\]",
        ),
        Statement(
            217,
            "Fig. 2(c) y-axis: eps* from 0 to 2 (tick labels)",
            "fig02c",
            claims=r"^plotted means of eps\* in \[0, 2\]",
        ),
        Statement(
            219,
            "Fig. 2(d) y-axis: D* from 0 to 2 (tick labels)",
            "fig02d",
            claims=r"^plotted means of D\* in \[0, 2\]",
        ),
        Statement(
            239,
            "without robust privacy (NUNP, RUNP) almost all instances have eps* >> eps",
            "fig02a",
            kind="ordering",
            claims=r"^(?:NUNP|RUNP): almost all instances have eps\* >> eps",
        ),
        Statement(
            239,
            "robust privacy costs utility significantly (Fig. 2(a))",
            "fig02a",
            kind="ordering",
            claims=r"^robust privacy costs utility: D\*\(NURP\) > D\*\(NUNP\) at N=5",
        ),
        Statement(
            239,
            "robust privacy costs utility significantly (Fig. 2(b))",
            "fig02b",
            kind="ordering",
            claims=r"^robust privacy costs utility: D\*\(NURP\) > D\*\(NUNP\) at N=1000",
        ),
        Statement(
            239,
            "even with robust privacy eps* <= eps does not always hold",
            "fig02a",
            kind="ordering",
            claims=r"^robust privacy does not always give eps\* <= eps",
        ),
        Statement(
            239,
            "because P* in F only with probability 1 - alpha (robust privacy holds whenever P* in F)",
            "fig02a",
            kind="ordering",
            claims=r"^robust privacy guarantee",
        ),
        Statement(
            239,
            "P* in F with probability 1 - alpha (asymptotically)",
            "fig02",
            claims=r"^coverage P\[P\* in F\]",
        ),
        Statement(
            239,
            "in Fig. 2(a) NURP has more than the expected number of outliers",
            "fig02a",
            claims=r"^NURP has more than the expected number",
        ),
        Statement(
            239,
            "NURP and RURP very similar: the utility cost of robust privacy is much greater than "
            "the benefit of robust utility (Fig. 2(a))",
            "fig02a",
            kind="ordering",
            claims=r"^NURP ~ RURP: .* at N=5",
        ),
        Statement(
            239,
            "NURP and RURP very similar (Fig. 2(b))",
            "fig02b",
            kind="ordering",
            claims=r"^NURP ~ RURP: .* at N=1000",
        ),
        Statement(
            239,
            "some large eps* of NURP in Fig. 2(a) seem small-sample artifacts (by comparison with Fig. 2(b))",
            "fig02a",
            kind="ordering",
            claims=r"small-sample artifacts",
        ),
        Statement(
            239,
            "in both figures there are outliers, especially in eps*",
            "fig02a",
            kind="ordering",
            claims=r"^outliers in both panels",
        ),
        Statement(
            243,
            "for small n RURP is very conservative, eps* << eps",
            "fig02c",
            kind="ordering",
            claims=r"^RURP very conservative at small n",
        ),
        Statement(
            243,
            "robustness in utility has relatively little impact (Figs. 2(c)-(d))",
            "fig02c",
            kind="ordering",
            claims=r"^robustness in utility has little impact",
        ),
        Statement(
            249,
            "the non-robust forms achieve privacy levels much worse than anticipated",
            "fig02a",
            kind="ordering",
            claims=r"almost all instances have eps\* >> eps",
        ),
        Statement(
            251,
            "the number of variables and constraints grows exponentially in |S| and |U|",
            "Sec. VI",
            kind="ordering",
            claims=r"grow exponentially in \|S\| and \|U\|",
        ),
    ],
    skips=[
        Skip(214, "caption of Fig. 2(a): K = 30, n = 75 (the setting, recorded in the claims' runs)"),
        Skip(216, "caption of Fig. 2(b): K = 30, n = 15,000 (the setting, recorded in the claims' runs)"),
        Skip(218, "caption of Fig. 2(c): eps* against n = N|S||U| (no number)"),
        Skip(220, "caption of Fig. 2(d): D* against n = N|S||U| (no number)"),
        Skip(221, "caption of Fig. 2: alpha = 0.05, eps = 0.5, |S| = 3, |U| = 5 (the setting of every run)"),
        Skip(227, "definition (31) of D*, implemented in safeguarded.rldp.measures.distortion_star"),
        Skip(231, "definition (32) of eps*, implemented in safeguarded.rldp.measures.epsilon_star"),
        Skip(233, "conventions of (32) (0/0 = 1, x/0 = inf), implemented in safeguarded.rldp.measures"),
        Skip(
            235,
            "the setting: S = {0,1,2}, U = {0,...,4}, d = (x-y)^2, alpha, eps, Dirichlet(1/2) (every run)",
        ),
        Skip(
            237,
            "the setting of the first experiment (K = 30, n = 75 and 15,000, equation references); the "
            "omission of eps* = inf instances is the procedure of the scatter cells (counts printed there)",
        ),
        Skip(
            241,
            "the setting of the second experiment (K = 10^3, +-1 sd bands after the 1.5 IQR rule), "
            "recorded in the runs; its 'Figures 2(c) and 2(d), respectively' puts D* in (c), the captions "
            "(L218, L220) put eps* in (c): we follow the captions",
        ),
        Skip(245, "citations [19], [20] of CVX and MOSEK"),
        Skip(253, _MISDECODED + " (the output alphabet equals U, a modelling assumption)"),
    ],
)
