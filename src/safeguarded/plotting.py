"""One figure style and deterministic output: ``figures/<work>/<item>.{png,pdf,csv}``.

Figures are saved without timestamps or software stamps, so that rerunning a notebook with the same
parameters gives the same bytes; the data a figure plots is saved as CSV beside it, and tables as
CSV and Markdown.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from safeguarded.paths import REPO_ROOT, figure_dir  # noqa: E402

__all__ = ["STYLE", "use_style", "style", "save_figure", "save_table", "Saved", "SavedFigure", "SavedTable",
           "ITEM_PATTERN"]

STYLE = str(resources.files("safeguarded").joinpath("safeguarded.mplstyle"))

#: Output names: ``fig02a``, ``table04``, or a repository-own name such as ``runtime``.
ITEM_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

_PNG_METADATA = {"Software": None}
_PDF_METADATA = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}


def use_style() -> None:
    """Apply the repository's style globally (notebooks call this once)."""
    plt.style.use(STYLE)


@contextmanager
def style():
    """Context manager applying the repository style temporarily."""
    with plt.style.context(STYLE):
        yield


def _check_item(item: str) -> str:
    if not ITEM_PATTERN.match(item):
        raise ValueError(f"item must be a lower-case name like 'fig02a' or 'table04', got item={item!r}")
    return item


def _shown(path: Path) -> str:
    """``path`` relative to the repository (or to its folder when outside): never a machine's path."""
    path = Path(path)
    try:
        return path.resolve().relative_to(REPO_ROOT.resolve()).as_posix()
    except ValueError:
        return f"<{path.parent.name}>/{path.name}"


class Saved(dict):
    """The paths a ``save_*`` call wrote, keyed by extension (a ``dict`` of :class:`~pathlib.Path`).

    Its text representation lists the paths relative to the repository, so a notebook's output never
    shows the machine that ran it; subclasses add the rich representation a notebook displays.
    """

    def __repr__(self) -> str:
        return "wrote " + ", ".join(_shown(p) for p in self.values())

    def _repr_pretty_(self, p, cycle) -> None:  # IPython's text/plain
        p.text(repr(self))


class SavedFigure(Saved):
    """What :func:`save_figure` returns: displayed in a notebook as the saved PNG itself."""

    def _repr_png_(self) -> bytes:
        return Path(self["png"]).read_bytes()


class SavedTable(Saved):
    """What :func:`save_table` returns: displayed in a notebook as the saved table, rendered."""

    def __init__(self, paths: dict, table: pd.DataFrame, floatfmt: str):
        super().__init__(paths)
        self._table, self._floatfmt = table.copy(), floatfmt

    def _repr_html_(self) -> str:
        return self._table.to_html(index=False, float_format=lambda v: format(v, self._floatfmt))

    def _repr_markdown_(self) -> str:
        return _markdown(self._table, self._floatfmt)


def save_figure(fig, work: str, item: str, data: pd.DataFrame | None = None) -> SavedFigure:
    """Write ``<item>.png``, ``<item>.pdf`` and (if ``data`` is given) ``<item>.csv``.

    Parameters
    ----------
    fig
        The matplotlib figure.
    work
        The work's short name (``rldp``, ``atr``, ...; see :data:`safeguarded.paths.WORKS`).
    item
        The paper's item name, e.g. ``fig02a``.
    data
        The plotted data, saved as CSV so that the figure's numbers can be read without the image.

    Returns
    -------
    SavedFigure
        Paths written, keyed by extension (a ``dict``); a notebook displays it as the PNG, and its
        text lists the paths relative to the repository.
    """
    out = figure_dir(work)
    _check_item(item)
    paths = {"png": out / f"{item}.png", "pdf": out / f"{item}.pdf"}
    fig.savefig(paths["png"], metadata=_PNG_METADATA)
    fig.savefig(paths["pdf"], metadata=_PDF_METADATA)
    if data is not None:
        paths["csv"] = out / f"{item}.csv"
        data.to_csv(paths["csv"], index=False, float_format="%.10g", lineterminator="\n")
    return SavedFigure(paths)


def save_table(table: pd.DataFrame, work: str, item: str, floatfmt: str = ".4g") -> SavedTable:
    """Write ``<item>.csv`` (full precision) and ``<item>.md`` (rounded with ``floatfmt``).

    Returns the paths keyed by extension (a ``dict``); a notebook displays it as the table, rendered
    with ``floatfmt`` as in the Markdown file, and its text lists the paths relative to the repository.
    """
    out = figure_dir(work)
    _check_item(item)
    paths = {"csv": out / f"{item}.csv", "md": out / f"{item}.md"}
    table.to_csv(paths["csv"], index=False, float_format="%.10g", lineterminator="\n")
    paths["md"].write_text(_markdown(table, floatfmt) + "\n")
    return SavedTable(paths, table, floatfmt)


def _markdown(table: pd.DataFrame, floatfmt: str) -> str:
    """``table`` as Markdown, numbers rounded with ``floatfmt``; a column of strings is printed as it is
    (``"0.005"`` stays 0.005 under ``.2f``: keys such as epsilon are written as the work prints them)."""
    def strings(column: pd.Series) -> bool:
        return not pd.api.types.is_numeric_dtype(column) and column.map(lambda v: isinstance(v, str)).all()

    text = [i for i, c in enumerate(table.columns) if strings(table[c])]
    return table.to_markdown(index=False, floatfmt=floatfmt, disable_numparse=text or False)
