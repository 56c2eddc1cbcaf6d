"""Convex maximisation via adjustable robust optimisation (thesis §5; Selvi, Ben-Tal, Brekelmans and
den Hertog, INFORMS J. Computing 2022): Tables 37–41.

Modules: :mod:`~.instances` (loader of the authors' ``.mat`` instances, App. 5.G generators),
:mod:`~.functions` (stable log-sum-exp, sum-of-max, quadratic; conjugate argmaxes),
:mod:`~.ball` (Cor. 10 bounds over the 2-norm ball, Cor. 11 exact method over the ∞-norm box),
:mod:`~.polyhedron` (Theorem 21 upper bounds (118)/(113)/(124) and Algorithm 12's lower bound),
:mod:`~.lp` (native HiGHS models), :mod:`~.baselines` (open-source stand-ins for Knitro, BARON,
CPLEX and GUROBI), :mod:`~.tables` (formulation Tables 34–36 and the experiment drivers).
"""

from safeguarded.convex_max.ball import box_enumeration, cor10_bounds, cor11_exact
from safeguarded.convex_max.functions import lse, sum_of_max
from safeguarded.convex_max.instances import (
    BallInstance,
    InstanceFileError,
    PolyInstance,
    generate_lse_ball,
    instance_names,
    load_instance,
)
from safeguarded.convex_max.lp import check_polyhedron
from safeguarded.convex_max.polyhedron import poly_bounds

__all__ = [
    "BallInstance",
    "PolyInstance",
    "InstanceFileError",
    "load_instance",
    "instance_names",
    "generate_lse_ball",
    "lse",
    "sum_of_max",
    "cor10_bounds",
    "cor11_exact",
    "box_enumeration",
    "check_polyhedron",
    "poly_bounds",
]
