"""Nature's worst-case distributions for a fixed hypothesis (Section 3.5.1, Fig. 14).

* :func:`transport_worst_case` - the primal of (56) for a fixed beta when there are no numerical
  features: a transport LP moving each empirical atom's mass 1/N to points of Z x Y at cost
  ``kappa_z d_z + kappa_y d_y`` within budget eps (mixed-feature model, Z discrete).
* :func:`unbounded_worst_case` - the unbounded continuous-feature model of the stylised example
  (one feature z in R, hinge loss, no intercept): the finite LP of Mohajerin Esfahani & Kuhn (2018)
  with, per data point n, label y' and hinge piece j, a mass q and a displacement v (atom at
  ``z_n + v / q``), cost ``|z - z'| + kappa_y 1[y != y']``.  Displacements are bounded by
  ``max_shift * q`` so that every atom carries its mass (without it the supremum is also approached
  by vanishing mass at infinity, and LP vertices need not be distributions with finite atoms).
* :func:`stylised_sample` - the data of the example: z uniform on {-1, +1}, P(y = z | z) = 0.8.
"""

from __future__ import annotations

import itertools

import numpy as np

from safeguarded.solvers import SolverError
from safeguarded.validation import check_array, check_in_interval, check_integer, check_positive, check_rng
from safeguarded.wasserstein_mixed.data import check_metric_params, d_z

__all__ = ["stylised_sample", "transport_worst_case", "unbounded_worst_case", "HINGE_PIECES"]

HINGE_PIECES = ((-1.0, 1.0), (0.0, 0.0))
_NAME = "HIGHS (highspy)"


def stylised_sample(rng: np.random.Generator, N: int = 10, p_agree: float = 0.8):
    """(z, y) with z uniform on {-1, +1} and ``P(y = z | z) = p_agree`` (Section 3.5.1)."""
    check_rng("rng", rng)
    N = check_integer("N", N, minimum=1)
    p_agree = check_in_interval("p_agree", p_agree, 0.0, 1.0, closed="both")
    z = rng.choice([-1.0, 1.0], size=N)
    y = np.where(rng.random(N) < p_agree, z, -z)
    return z, y


def _lp_max(cost, A_eq, b_eq, A_ub, b_ub, upper=None):
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    n = len(cost)
    inf = highspy.kHighsInf
    hi = np.full(n, inf) if upper is None else upper
    h.addVars(n, np.zeros(n), hi)
    h.changeColsCost(n, np.arange(n, dtype=np.int32), -np.asarray(cost, float))
    for A, lo, up in ((A_eq, b_eq, b_eq), (A_ub, np.full(len(b_ub), -inf), b_ub)):
        A = np.atleast_2d(np.asarray(A, float))
        for r in range(A.shape[0]):
            idx = np.nonzero(A[r])[0].astype(np.int32)
            h.addRow(float(lo[r]), float(up[r]), idx.size, idx, A[r, idx])
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError("worst-case primal LP", _NAME, h.modelStatusToString(status))
    return np.asarray(h.getSolution().col_value), -float(h.getInfo().objective_function_value)


def transport_worst_case(loss_of, atoms, support, eps, *, kappa_z=1.0, kappa_y=1.0, p=1.0):
    """Worst case over the type-1 Wasserstein ball of the empirical distribution on ``atoms``
    restricted to the finite ``support`` (both lists of ``(codes, y)``), for a fixed hypothesis with
    loss ``loss_of(codes, y)``.  Returns ``(value, mass on support points (len(support),))``."""
    if not callable(loss_of):
        raise ValueError(f"loss_of must be a callable loss_of(codes, y), got {type(loss_of).__name__}")
    for name, points in (("atoms", atoms), ("support", support)):
        if not isinstance(points, list | tuple) or not points or not all(
            isinstance(pt, tuple | list) and len(pt) == 2 for pt in points
        ):
            raise ValueError(f"{name} must be a non-empty list of (codes, y) pairs, got {name}={points!r}")
    shapes = {np.shape(c) for c, _ in (*atoms, *support)}
    if len(shapes) != 1:
        raise ValueError(f"atoms and support must have codes of one length, got shapes {sorted(shapes)}")
    eps = check_positive("eps", eps, allow_zero=True)
    kappa_z, kappa_y, p = check_metric_params(kappa_z, kappa_y, p)
    N, V = len(atoms), len(support)
    cost = np.array([loss_of(c, y) for c, y in support] * N)
    dist = np.array(
        [
            kappa_z * float(d_z(np.sum(np.asarray(c) != np.asarray(c2)), p)) + kappa_y * float(y != y2)
            for (c, y) in atoms
            for (c2, y2) in support
        ]
    )
    A_eq = np.kron(np.eye(N), np.ones((1, V)))
    x, val = _lp_max(cost, A_eq, np.full(N, 1.0 / N), dist[None, :], np.array([eps]))
    return val, x.reshape(N, V).sum(axis=0)


def binary_support():
    """Z x Y of the example with the feature as a level code (0: z = -1, 1: z = +1)."""
    return [((c,), y) for c, y in itertools.product((0, 1), (-1.0, 1.0))]


def unbounded_worst_case(z, y, eps, *, beta=1.0, kappa_y=1.0, max_shift=1e3):
    """Worst case of the hinge loss ``max(0, 1 - y beta z)`` over the Wasserstein ball around the
    empirical distribution of (z, y) with z in R (cost ``|z - z'| + kappa_y 1[y != y']``).

    Returns ``(value, atoms)`` with atoms an (M, 3) array of rows ``(z', y', mass)``.
    """
    z = check_array("z", z, ndim=1)
    y = check_array("y", y, ndim=1)
    if y.shape != z.shape:
        raise ValueError(f"z and y must have the same length, got {z.size} and {y.size}")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must have entries in {{-1, +1}}, got {np.unique(y).tolist()}")
    eps = check_positive("eps", eps, allow_zero=True)
    beta = check_in_interval("beta", beta, -np.inf, np.inf)
    kappa_y = check_positive("kappa_y", kappa_y)
    max_shift = check_positive("max_shift", max_shift)
    N = len(z)
    blocks = [(n, yp, j) for n in range(N) for yp in (-1.0, 1.0) for j in range(len(HINGE_PIECES))]
    B = len(blocks)
    # variables per block: q, v+, v-
    cost = np.zeros(3 * B)
    A_eq = np.zeros((N, 3 * B))
    budget = np.zeros(3 * B)
    shift = np.zeros((B, 3 * B))
    for b, (n, yp, j) in enumerate(blocks):
        a, c = HINGE_PIECES[j]
        cost[3 * b] = a * yp * beta * z[n] + c
        cost[3 * b + 1] = a * yp * beta
        cost[3 * b + 2] = -a * yp * beta
        A_eq[n, 3 * b] = 1.0
        budget[3 * b] = kappa_y * float(yp != y[n])
        budget[3 * b + 1] = budget[3 * b + 2] = 1.0
        shift[b, 3 * b + 1] = shift[b, 3 * b + 2] = 1.0
        shift[b, 3 * b] = -max_shift
    A_ub = np.vstack([budget[None, :], shift])
    b_ub = np.concatenate([[eps], np.zeros(B)])
    x, val = _lp_max(cost, A_eq, np.full(N, 1.0 / N), A_ub, b_ub)
    x = x.reshape(B, 3)
    atoms = []
    for b, (n, yp, _) in enumerate(blocks):
        q = x[b, 0]
        if q > 1e-12:
            atoms.append((z[n] + (x[b, 1] - x[b, 2]) / q, yp, q))
    return val, np.array(atoms)


#: Atoms of Fig. 14 in plotting order: (z, y) on the four support points, then any other atom.
FIG14_ATOMS = ((-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0))


def _atom_masses(points_mass):
    """Mass on the four (z, y) support points and on every other atom (|z| != 1)."""
    out = np.zeros(5)
    other_z = []
    for zz, yy, q in points_mass:
        if abs(abs(zz) - 1.0) <= 1e-7:
            out[FIG14_ATOMS.index((float(np.sign(zz)), float(yy)))] += q
        else:
            out[4] += q
            other_z.append(abs(zz))
    return out, (max(other_z) if other_z else np.nan)


def fig14_cell(chunk: int, n_sims: int, eps: float, N: int = 10, kappa_y: float = 1.0, seed: int = 0):
    """``n_sims`` simulations of the stylised example (Section 3.5.1, Fig. 14) at radius ``eps``:
    empirical, mixed-feature (Z = {-1, +1}) and unbounded continuous (Z = R) worst cases of the hinge
    loss for beta_z = 1 (kappa_z = 1 in the mixed model; |z - z'| in the continuous one)."""
    from safeguarded.experiments import rng_for

    rng = rng_for(seed, chunk)
    support = binary_support()
    rows = []
    for sim in range(n_sims):
        z, y = stylised_sample(rng, N)
        emp_points = [(zz, yy, 1.0 / N) for zz, yy in zip(z, y, strict=True)]
        emp_mass, _ = _atom_masses(emp_points)
        atoms = [((int(zz > 0),), yy) for zz, yy in zip(z, y, strict=True)]
        mixed, mass = transport_worst_case(
            lambda c, yy: max(0.0, 1.0 - yy * (2 * c[0] - 1)), atoms, support, eps, kappa_y=kappa_y
        )
        mixed_mass, _ = _atom_masses(
            [(2 * c[0] - 1.0, yy, q) for ((c, yy), q) in zip(support, mass, strict=True)]
        )
        unb, unb_atoms = unbounded_worst_case(z, y, eps, kappa_y=kappa_y)
        unb_mass, c_abs = _atom_masses(unb_atoms)
        row = {
            "chunk": chunk,
            "sim": sim,
            "eps": eps,
            "empirical_loss": float(np.mean(np.maximum(0, 1 - y * z))),
            "mixed_loss": mixed,
            "unbounded_loss": unb,
            "other_abs_c": c_abs,
        }
        for name, m in (("empirical", emp_mass), ("mixed", mixed_mass), ("unbounded", unb_mass)):
            for a, (za, ya) in enumerate(FIG14_ATOMS):
                row[f"{name}_{int(za):+d}_{int(ya):+d}"] = m[a]
            row[f"{name}_other"] = m[4]
        rows.append(row)
    return rows
