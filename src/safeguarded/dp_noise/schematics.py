"""The two schematic figures of thesis §1, drawn from the package's own definitions.

* Figure 2 (L646): the ordering P(L, β) ≥ P(β) ≥ P = D ≥ D(β) ≥ D(L, β) of §1.2 (Props. 1–3, Theorem 1).
  :func:`draw_bound_ordering` draws the diagram; the notebook places the *computed* bounds of
  :func:`safeguarded.dp_noise.synthetic.figure2_cell` beside it.
* Figure 6 (L1080): the split of a fine cell I_i(β) into I_i¹(φ, β) and I_i²(φ, β) by the shifted grid
  (Definition 1).  :func:`draw_interval_split` draws the configuration returned by
  :func:`safeguarded.dp_noise.bounds.interval_split`, so the picture cannot drift from the code.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from safeguarded.dp_noise.bounds import interval_split
from safeguarded.validation import check_type

__all__ = ["draw_bound_ordering", "draw_interval_split"]

#: Figure 2's nodes, left to right: (label, meaning).
BOUND_ORDER = (
    (r"$P(L,\beta)$", "Prop. 1: (2) + support\n$[\\pm L]$ (3)"),
    (r"$P(\beta)$", "step noise (2)"),
    (r"$P = D$", "weak duality (Prop. 2)\n+ Theorem 1"),
    (r"$D(\beta)$", "step dual\nvariables (4)"),
    (r"$D(L,\beta)$", "Prop. 3: (4) + dual\nsupport $[\\pm L]$ (5)"),
)


def draw_bound_ordering(ax: plt.Axes) -> plt.Axes:
    """Figure 2: the five problems of §1.2 with dashed arrows x ⇢ y for x ≥ y (bound relations).

    The double arrow between the outer bounds marks their convergence as L grows and β shrinks.
    """
    check_type("ax", ax, plt.Axes, "a matplotlib Axes")
    xs = [0.1, 0.3, 0.5, 0.7, 0.9]
    for x, (label, meaning) in zip(xs, BOUND_ORDER, strict=True):
        ax.text(
            x,
            0.62,
            label,
            ha="center",
            va="center",
            fontsize=12,
            bbox=dict(boxstyle="round", fc="white", ec="0.3"),
        )
        ax.text(x, 0.45, meaning, ha="center", va="top", fontsize=7, color="0.25")
    for a, b in zip(xs[:-1], xs[1:], strict=True):
        ax.annotate(
            "",
            xy=(b - 0.07, 0.62),
            xytext=(a + 0.07, 0.62),
            arrowprops=dict(arrowstyle="->", ls="--", color="0.2"),
        )
        ax.text((a + b) / 2, 0.68, r"$\geq$", ha="center", fontsize=9)
    ax.annotate(
        "",
        xy=(xs[-1], 0.78),
        xytext=(xs[0], 0.78),
        arrowprops=dict(arrowstyle="<->", lw=2.0, color="C3", connectionstyle="arc3,rad=-0.15"),
    )
    ax.text(
        0.5,
        0.95,
        r"converge as $L \to \infty$, $\beta \to 0$ (Theorem 1)",
        ha="center",
        color="C3",
        fontsize=9,
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.axis("off")
    return ax


def draw_interval_split(ax: plt.Axes, i: int = 0, phi: float = 0.35, beta: float = 1.0) -> dict:
    """Figure 6: I_i(β), the shifted cells I_{j−1}(β) + φ and I_j(β) + φ, and I_i¹, I_i² (Definition 1).

    Returns the drawn configuration ``{"i", "j", "I1", "I2"}`` (from :func:`interval_split`).
    """
    check_type("ax", ax, plt.Axes, "a matplotlib Axes")
    j, I1, I2 = interval_split(i, phi, beta)
    lo, hi = (i - 1.5) * beta, (i + 2.5) * beta
    y_grid, y_shift = 0.7, 0.35
    for m in range(i - 2, i + 3):  # the grid I_m(β)
        ax.plot([m * beta] * 2, [y_grid - 0.05, y_grid + 0.05], color="0.3", lw=1)
    ax.hlines(y_grid, lo, hi, color="0.3", lw=1)
    ax.text(lo, y_grid + 0.1, r"grid $I_m(\beta)$", fontsize=8, va="bottom")
    for m in range(j - 3, j + 3):  # the shifted grid I_m(β) + φ
        x = phi + m * beta
        if lo <= x <= hi:
            ax.plot([x] * 2, [y_shift - 0.05, y_shift + 0.05], color="C0", lw=1)
    ax.hlines(y_shift, lo, hi, color="C0", lw=1)
    ax.text(lo, y_shift - 0.12, r"shifted grid $I_m(\beta) + \varphi$", fontsize=8, color="C0", va="top")
    ax.axvspan(*I1, ymin=0.2, ymax=0.85, color="C1", alpha=0.35, lw=0)
    ax.axvspan(*I2, ymin=0.2, ymax=0.85, color="C2", alpha=0.35, lw=0)
    ax.text(sum(I1) / 2, 0.9, r"$I_i^1(\varphi,\beta)$", ha="center", fontsize=9, color="C1")
    ax.text(sum(I2) / 2, 0.9, r"$I_i^2(\varphi,\beta)$", ha="center", fontsize=9, color="C2")
    ax.text(
        phi + (j - 0.5) * beta,
        y_shift - 0.28,
        r"$I_{j-1}(\beta)+\varphi$",
        ha="center",
        fontsize=8,
        color="C0",
    )
    ax.text(
        phi + (j + 0.5) * beta, y_shift - 0.28, r"$I_{j}(\beta)+\varphi$", ha="center", fontsize=8, color="C0"
    )
    ax.text((i + 0.5) * beta, y_grid + 0.08, r"$I_i(\beta)$", ha="center", fontsize=8)
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.1, 1.05)
    ax.set_yticks([])
    ax.set_xlabel(rf"noise value ($i = {i}$, $\varphi = {phi:g}$, $\beta = {beta:g}$, $j = {j}$)")
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    return {"i": i, "j": j, "I1": I1, "I2": I2}
