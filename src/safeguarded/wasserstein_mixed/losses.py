"""The six losses of thesis Section 3 (Appendices 3.A-3.B) with Lipschitz moduli and affine pieces.

Classification (argument ``e = y * prediction``): log-loss (LR), hinge (SVM), smooth hinge (SSVM).
Regression (argument ``e = prediction - y``): Huber (RR, parameter delta), pinball (QR, tau),
tau-insensitive (SVR, tau).  Piecewise-affine losses carry their pieces ``L(e) = max_j a_j e + b_j``
(Props. 13, 16); the smooth ones carry ``lip(L)`` (Props. 11, 15) and can be replaced by the
maximum of ``J`` tangents at equally spaced breakpoints (the ``piece[J]`` models of Table 20).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from safeguarded.validation import check_in_interval, check_integer, check_positive, check_type

__all__ = ["Loss", "make_loss", "LOSSES", "tangent_loss", "TANGENT_RANGES"]

LOSSES = {
    "logistic": "classification",
    "hinge": "classification",
    "smooth_hinge": "classification",
    "huber": "regression",
    "pinball": "regression",
    "eps_insensitive": "regression",
}

#: Breakpoint ranges of the tangent approximation (the thesis does not state them): the curved part
#: of each smooth loss (logistic: [-4, 4]; smooth hinge: [0, 1]; Huber: [-delta, delta]).
TANGENT_RANGES = {"logistic": (-4.0, 4.0), "smooth_hinge": (0.0, 1.0), "huber": (-1.0, 1.0)}


@dataclass(frozen=True)
class Loss:
    """A convex loss ``L : R -> R_+``.

    ``pieces`` is a (J, 2) array of ``(a_j, b_j)`` for piecewise-affine losses, else ``None``.
    ``param`` is delta (Huber) or tau (pinball, tau-insensitive).
    """

    name: str
    task: str
    lip: float
    pieces: np.ndarray | None = None
    param: float = 0.0

    @property
    def piecewise_affine(self) -> bool:
        return self.pieces is not None

    def __call__(self, e):
        e = np.asarray(e, dtype=float)
        if self.pieces is not None:
            a, b = self.pieces[:, 0], self.pieces[:, 1]
            return np.max(np.multiply.outer(e, a) + b, axis=-1)
        if self.name == "logistic":
            return np.logaddexp(0.0, -e)
        if self.name == "smooth_hinge":
            return np.where(e <= 0, 0.5 - e, np.where(e < 1, 0.5 * (1 - e) ** 2, 0.0))
        if self.name == "huber":
            d = self.param
            return np.where(np.abs(e) <= d, 0.5 * e**2, d * (np.abs(e) - 0.5 * d))
        raise ValueError(f"unknown loss {self.name!r}")

    def derivative(self, e):
        e = np.asarray(e, dtype=float)
        if self.name == "logistic":
            return -1.0 / (1.0 + np.exp(e))
        if self.name == "smooth_hinge":
            return np.where(e <= 0, -1.0, np.where(e < 1, e - 1.0, 0.0))
        if self.name == "huber":
            return np.clip(e, -self.param, self.param)
        raise ValueError(f"derivative only for smooth losses, got {self.name!r}")


def make_loss(name: str, param: float | None = None) -> Loss:
    """The loss ``name`` (see :data:`LOSSES`); ``param`` = Huber delta, pinball tau or insensitivity tau.

    Defaults: Huber delta = 0.5 (Table 24), pinball tau = 0.5 (Table 25), tau-insensitive tau = 0.1
    (Table 26).
    """
    if not isinstance(name, str) or name not in LOSSES:
        raise ValueError(f"loss must be one of {tuple(LOSSES)}, got name={name!r}")
    task = LOSSES[name]
    if param is not None and name in ("logistic", "smooth_hinge", "hinge"):
        raise ValueError(f"param must be None for the {name} loss (it has no parameter), got param={param!r}")
    if name == "logistic":
        return Loss(name, task, 1.0)
    if name == "smooth_hinge":
        return Loss(name, task, 1.0)
    if name == "hinge":
        return Loss(name, task, 1.0, np.array([[-1.0, 1.0], [0.0, 0.0]]))
    if name == "huber":
        d = 0.5 if param is None else check_positive("param", param)  # Huber delta
        return Loss(name, task, d, None, d)
    if name == "pinball":
        t = 0.5 if param is None else check_in_interval("param", param, 0.0, 1.0)  # pinball tau
        # prediction error e = yhat - y: under-prediction (e < 0) costs tau, over-prediction 1 - tau
        return Loss(name, task, max(t, 1 - t), np.array([[-t, 0.0], [1 - t, 0.0]]), t)
    t = 0.1 if param is None else check_positive("param", param, allow_zero=True)  # tau-insensitive tau
    return Loss(name, task, 1.0, np.array([[1.0, -t], [-1.0, -t], [0.0, 0.0]]), t)


def tangent_loss(loss: Loss, J: int, lo: float | None = None, hi: float | None = None) -> Loss:
    """``piece[J]``: the maximum of the ``J`` tangents of a smooth ``loss`` at equally spaced breakpoints
    in ``[lo, hi]`` (Table 20, L3481), plus the zero piece; a pointwise lower bound on ``loss``."""
    check_type("loss", loss, Loss, "a Loss (make_loss)")
    if loss.piecewise_affine:
        raise ValueError(f"loss must be a smooth loss for tangent_loss, got {loss.name!r}")
    J = check_integer("J", J, minimum=2)
    for name, v in (("lo", lo), ("hi", hi)):
        if v is not None:
            check_in_interval(name, v, -np.inf, np.inf)
    r_lo, r_hi = TANGENT_RANGES[loss.name]
    if loss.name == "huber":
        r_lo, r_hi = -loss.param, loss.param
    lo = r_lo if lo is None else lo
    hi = r_hi if hi is None else hi
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got lo={lo!r}, hi={hi!r}")
    e = np.linspace(lo, hi, int(J))
    a = loss.derivative(e)
    b = loss(e) - a * e
    pieces = np.vstack([np.column_stack([a, b]), [0.0, 0.0]])
    return Loss(f"{loss.name}_piece{J}", loss.task, float(np.max(np.abs(a))), pieces, loss.param)
