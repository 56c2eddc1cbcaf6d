"""The first cell after every notebook's parameters: validate them, validate the environment, and send the
outputs of any run that is not at paper scale to ``build/<scale>/``.

    from safeguarded.parameters import setup
    setup(scale=scale, seed=seed, n_sims=n_sims)

However a notebook is run — ``make``, ``python -m safeguarded.notebooks``, ``papermill`` by hand, "Run All"
in Jupyter — a bad parameter stops it before any work starts with an error naming the parameter and its
valid values, and only a paper-scale run writes the committed outputs (``figures/``, the claims fragments,
the results store ``results/``): at any other scale, ``$SAFEGUARDED_FIGURES`` and ``$SAFEGUARDED_RESULTS``
default to ``build/<scale>/figures`` and ``build/<scale>/results`` (an explicit setting is kept).

Every parameter a notebook declares has a kind in :data:`KINDS` (a name missing there is an error, so a new
parameter gets its check when it is added).
"""

from __future__ import annotations

import os
from pathlib import Path

from safeguarded.paths import REPO_ROOT
from safeguarded.validation import check_choice, check_integer, check_positive

__all__ = ["SCALES", "KINDS", "setup", "check_parameter", "check_environment", "output_roots"]

#: The scales a notebook runs at: ``smoke`` (seconds, outputs under build/smoke) and ``paper``.
SCALES = ("smoke", "paper")

#: parameter name -> (kind, minimum): ``count`` an integer ≥ minimum, ``seconds`` a number > 0, ``counts`` a
#: non-empty list of integers ≥ minimum, ``names`` a non-empty list of strings, ``positives`` a non-empty list
#: of numbers > 0; every kind but ``scale`` and ``seed`` also takes None (the scale's default).
KINDS: dict[str, tuple[str, int]] = {
    "splits": ("count", 1),
    "n_sims": ("count", 1),
    "sweep_sims": ("count", 1),
    "instances": ("count", 1),
    "max_starts": ("count", 1),
    "folds": ("count", 2),
    "J": ("count", 1),
    "fig20_sdp_max": ("count", 1),
    "fig20_rlt_max": ("count", 1),
    "fig22_sdp_max": ("count", 1),
    "baseline_limit": ("seconds", 0),
    "exact_limit": ("seconds", 0),
    "ub_time_limit": ("seconds", 0),
    "time_limit": ("seconds", 0),
    "time_limit20": ("seconds", 0),
    "fig20_n": ("counts", 1),
    "fig21_n": ("counts", 1),
    "fig22_n": ("counts", 1),
    "fig23_n": ("counts", 1),
    "fig24_extra_n": ("counts", 1),
    "sizes": ("counts", 1),
    "sizes20": ("counts", 1),
    "discrete_counts": ("counts", 0),
    "datasets": ("names", 0),
    "mg_deltas": ("positives", 0),
}


def _check_name(name: str, value, minimum: int) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a list of names (non-empty strings), got {name}={value!r}")


#: how each kind checks one value (``validation``'s checkers, which name the parameter)
_CHECKS = {
    "count": lambda name, value, minimum: check_integer(name, value, minimum=minimum),
    "counts": lambda name, value, minimum: check_integer(name, value, minimum=minimum),
    "seconds": lambda name, value, minimum: check_positive(name, value),
    "positives": lambda name, value, minimum: check_positive(name, value),
    "names": _check_name,
}


def check_parameter(name: str, value):
    """``value`` if it is valid for the notebook parameter ``name``; ValueError naming both otherwise."""
    if name == "scale":
        return check_choice("scale", value, SCALES)
    if name == "seed":
        check_integer("seed", value, minimum=0)
        return value
    if name not in KINDS:
        raise ValueError(
            f"unknown notebook parameter {name!r}: give it a kind in safeguarded.parameters.KINDS "
            f"(known: scale, seed, {', '.join(sorted(KINDS))})"
        )
    if value is None:
        return value
    kind, minimum = KINDS[name]
    is_list = kind in ("counts", "names", "positives")
    if is_list and (isinstance(value, str | bytes) or not isinstance(value, list | tuple) or not value):
        raise ValueError(f"{name} must be None or a non-empty list, got {name}={value!r}")
    for item in value if is_list else [value]:
        try:
            _CHECKS[kind](name, item, minimum)
        except ValueError as error:
            raise ValueError(f"{error} (or None: the scale's default)") from None
    return value


def check_environment() -> None:
    """Raise ValueError naming the variable and its valid values for a bad ``SAFEGUARDED_*`` setting, by the
    checks of the modules that read them (empty or unset: the default)."""
    from safeguarded import arrays, experiments

    experiments.env_n_jobs()
    experiments.env_backend()
    experiments.deadline()
    if os.environ.get(arrays.ENV, "").strip():
        arrays.parse_backend(os.environ[arrays.ENV])


def output_roots(scale: str, environ=None) -> dict[str, Path]:
    """Where a run at ``scale`` writes: figures/ and results/ at paper scale, build/<scale>/... otherwise
    (an explicit ``$SAFEGUARDED_FIGURES`` / ``$SAFEGUARDED_RESULTS`` wins)."""
    check_parameter("scale", scale)
    environ = os.environ if environ is None else environ
    base = REPO_ROOT if scale == "paper" else REPO_ROOT / "build" / scale
    return {
        var: Path(environ.get(var) or base / sub)
        for var, sub in (("SAFEGUARDED_FIGURES", "figures"), ("SAFEGUARDED_RESULTS", "results"))
    }


def setup(**parameters) -> None:
    """Check a notebook's parameters (``scale`` and ``seed`` required) and the environment, then route the
    outputs of a non-paper run (see the module) and, in a kernel the runner started, the warnings of joblib
    and loky to the run's log (:func:`safeguarded.runlog.route_library_warnings`).  Returns nothing, so the
    cell shows no output."""
    for required in ("scale", "seed"):
        if required not in parameters:
            raise ValueError(f"setup needs the notebook's {required!r} parameter")
    for name, value in parameters.items():
        check_parameter(name, value)
    check_environment()
    for variable, root in output_roots(parameters["scale"]).items():
        os.environ[variable] = str(root)
    from safeguarded.runlog import route_library_warnings

    route_library_warnings()
