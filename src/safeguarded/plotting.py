"""One figure style and deterministic output: ``figures/<work>/<item>.{png,pdf,csv}``.

Figures are saved without timestamps or software stamps, so that rerunning a notebook with the same
parameters gives the same bytes; the data a figure plots is saved as CSV beside it, and tables as
CSV and Markdown.
"""

from __future__ import annotations

import re
import warnings
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from safeguarded.paths import REPO_ROOT, WORKS, figure_dir  # noqa: E402

__all__ = ["STYLE", "use_style", "style", "save_figure", "save_table", "Saved", "SavedFigure", "SavedTable",
           "ITEM_PATTERN", "VERDICT_MARKS", "claim_keys", "map_frame", "reproduction_map", "TABLE_KEYS",
           "TABLE_MIN_CELLS", "table_patterns", "table_cells", "NoCells", "TableMap", "table_map",
           "compared_tables", "PRINTED_LABEL", "PRINTED_STYLE", "printed_rows",
           "printed_beside", "printed_panel"]

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


def save_figure(fig, work: str, item: str, data: pd.DataFrame | None = None,
                printed: pd.DataFrame | None = None) -> SavedFigure:
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
    printed
        The work's printed values drawn beside ours (what :func:`printed_beside` or :func:`printed_panel`
        returned, concatenated): the CSV then holds ``data`` (column ``source`` = ``ours``) followed by
        these rows (``source`` = ``printed``), so that it carries every number the figure shows.

    Returns
    -------
    SavedFigure
        Paths written, keyed by extension (a ``dict``); a notebook displays it as the PNG, and its
        text lists the paths relative to the repository.
    """
    out = figure_dir(work)
    _check_item(item)
    if printed is not None:
        if not isinstance(printed, pd.DataFrame) or printed.empty or "paper" not in printed.columns:
            raise ValueError("printed must be the printed values drawn (a frame with a column paper, at "
                             f"least one row), got printed={type(printed).__name__}")
        if data is None:
            raise ValueError("printed needs the figure's data: the CSV holds both")
        data = pd.concat([data.assign(source="ours"), printed.assign(source="printed")], ignore_index=True)
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


# --------------------------------------------------------------------------------------------------
# reproduction maps: a grid table compared cell by cell with the work, at one glance

#: The mark a map prints in a cell for each verdict of the claims protocol.
VERDICT_MARKS = {"reproduced": "✓", "deviates": "✗", "inconclusive": "?", "qualitative-ok": "✓",
                 "qualitative-fails": "✗"}


def _frame(rows) -> pd.DataFrame:
    frame = rows.copy() if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows))
    needed = {"paper_value", "reproduced_value", "tolerance", "verdict"}
    if frame.empty or not needed <= set(frame.columns):
        raise ValueError(f"rows must be claim rows with columns {sorted(needed)}, got columns "
                         f"{sorted(frame.columns)}")
    return frame


def claim_keys(rows, pattern: str, names: tuple[str, str]) -> pd.DataFrame:
    """``rows`` with two key columns read from each claim's text by ``pattern`` (two groups).

    E.g. ``claim_keys(rows, r"\\(eps, delta\\) = \\(([^,]+), ([^)]+)\\)", ("epsilon", "delta"))`` for
    claims like "Table 1 at (eps, delta) = (0.005, 0.01) [%]"; rows whose claim does not match are
    dropped. Keys are numbers where they read as numbers.
    """
    frame = _frame(rows)
    if not (isinstance(names, tuple | list) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must be two column names (the keys), got names={names!r}")
    try:
        re.compile(pattern)
    except (re.error, TypeError) as exc:
        raise ValueError(f"pattern must be a regular expression, got pattern={pattern!r} ({exc})") from None
    if "claim" not in frame.columns:
        raise ValueError(f"rows must be claim rows with a column claim, got columns {sorted(frame.columns)}")
    found = frame["claim"].astype(str).str.extract(pattern)
    if found.shape[1] != 2:
        raise ValueError(f"pattern must have two groups (the two keys), got pattern={pattern!r}")
    matched = found.notna().all(axis=1)
    for name, column in zip(names, found.columns, strict=True):
        numbers = pd.to_numeric(found[column], errors="coerce")
        frame[name] = numbers if numbers[matched].notna().all() else found[column]
    return frame[matched].reset_index(drop=True)


def map_frame(rows, x: str, y: str) -> pd.DataFrame:
    """One row per (``x``, ``y``) cell: paper, ours, tolerance, ``score`` = (ours − paper) / tolerance
    (signed; NaN where a value is not a number or the tolerance is not positive), verdict and mark."""
    frame = _frame(rows)
    for name, key in (("x", x), ("y", y)):
        if key not in frame.columns:
            raise ValueError(f"{name} must be a column of rows, got {name}={key!r} (columns: "
                             f"{sorted(frame.columns)})")
    if frame.duplicated([x, y]).any():
        twice = frame.loc[frame.duplicated([x, y], keep=False), [x, y]].drop_duplicates().head(3)
        raise ValueError(f"rows must hold one claim per ({x}, {y}) cell; repeated: "
                         f"{list(map(tuple, twice.to_numpy()))}")

    def number(column: str) -> pd.Series:
        return pd.to_numeric(frame[column].astype(str).str.replace(",", "").str.replace("−", "-"),
                             errors="coerce")

    paper, ours, tol = number("paper_value"), number("reproduced_value"), number("tolerance")
    score = (ours - paper) / tol.where(tol > 0)
    return pd.DataFrame({x: frame[x], y: frame[y], "paper": paper, "ours": ours, "tolerance": tol,
                         "score": score, "verdict": frame["verdict"],
                         "mark": frame["verdict"].map(VERDICT_MARKS).fillna("·")})


def _compact(value: float) -> str:
    """A signed score in at most five characters: +0.56, -4.4, +730, +4e3."""
    if abs(value) < 10:
        return f"{value:+.2g}"
    if abs(value) < 1000:
        return f"{value:+.0f}"
    return f"{value:+.0e}".replace("e+0", "e").replace("e+", "e")


def reproduction_map(rows, x: str, y: str, *, limit: float = 3.0, title: str | None = None, ax=None):
    """A heatmap of (ours − work) / tolerance over the grid ``x`` × ``y``, the verdict marked per cell.

    Parameters
    ----------
    rows
        Claim rows (``figures/claims.csv`` rows or a work's claims frame) of one grid table, with the
        cell's keys in columns ``x`` and ``y`` (see :func:`claim_keys`); one row per cell.
    x, y
        The key columns: ``x`` runs along the columns of the map, ``y`` down its rows.
    limit
        Colours saturate at ±``limit`` tolerances (cells within ±1 are reproduced when the verdict
        follows the tolerance); the number printed in a cell is not clipped.
    title, ax
        Optional title and axes to draw on.

    Returns
    -------
    matplotlib.figure.Figure
        Save it with :func:`save_figure` (``<table>_map``) and :func:`map_frame` as its data.
    """
    import numpy as np
    import seaborn as sns

    if not limit > 0:
        raise ValueError(f"limit must be > 0, got limit={limit!r}")
    cells = map_frame(rows, x, y)
    score = cells.pivot(index=y, columns=x, values="score").sort_index().sort_index(axis=1)
    labels = [m if pd.isna(v) else f"{m}\n{_compact(v)}"
              for m, v in zip(cells["mark"], cells["score"], strict=True)]
    text = cells.assign(text=labels).pivot(index=y, columns=x, values="text").reindex_like(score).fillna("")
    if ax is None:
        width, height = 1.6 + 0.5 * score.shape[1], 1.0 + 0.42 * score.shape[0]
        fig, ax = plt.subplots(figsize=(max(4.0, width), max(2.5, height)))
    else:
        fig = ax.figure
    ax.set_facecolor("0.85")  # cells without a number (inconclusive without a value, text claims)
    with warnings.catch_warnings():  # seaborn's own use of Colormap.set_bad, not ours
        warnings.filterwarnings("ignore", "The set_bad function", PendingDeprecationWarning)
        sns.heatmap(score.clip(-limit, limit), ax=ax, cmap="RdBu_r", center=0.0, vmin=-limit, vmax=limit,
                    annot=text.to_numpy(), fmt="", annot_kws={"fontsize": 7}, linewidths=0.5,
                    linecolor="white", cbar_kws={"label": "(ours − work) / tolerance", "extend": "both"})
    for i, j in zip(*np.nonzero(score.isna().to_numpy() & (text.to_numpy() != "")), strict=True):
        ax.text(j + 0.5, i + 0.5, text.iat[i, j], ha="center", va="center", fontsize=7)  # seaborn skips NaN
    ax.grid(False)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    counts = cells["verdict"].value_counts()
    legend = ", ".join(f"{VERDICT_MARKS.get(v, '·')} {v} {n}" for v, n in counts.items())
    ax.set_title((title + "\n" if title else "") + legend, fontsize=9)
    return fig


# --------------------------------------------------------------------------------------------------
# every compared table's map: the two keys of a cell read from the claim texts each work prints

_P = r"(?P<problem>P\d+(?:-size\d+)?)"
#: The convex_max tables' cells: a problem's bounds, and the solvers' columns printed beside them.
_CONVEX_MAX = [rf"^{_P} (?P<column>upper|lower|exact|Knitro single start|Knitro multistart)(?: value)?$",
               rf"^Table \d+ {_P}: (?P<column>Knitro single start|Knitro multistart start|Knitro multistart|"
               r"BARON|exact method time|CPLEX restricted to our time|CPLEX|GUROBI restricted to our time|"
               r"GUROBI|UB time)\b"]
_EPS_DELTA = r"\(eps, delta\) = \((?P<epsilon>[^,()]+), (?P<delta>[^,()]+)\)"
#: A data set's row of the UCI tables: "adult out-of-sample (GN) error (%)" -> adult × out-of-sample (GN).
_UCI = (r"^(?P<data_set>[\w-]+) (?P<column>(?:in|out-of)-sample .+?)"
        r"(?: error| standard deviation)? \(%\)$")
#: "annealing, alpha=0.2: ARO+Aux error (%)", "reversed split, ecoli, alpha = 0.05: ERM error (%)".
_ROBUST_UCI = (r"^(?P<data_set>.+?, ?alpha ?= ?[\d.]+): (?P<method>(?:ERM|ARO|DRO)\S* .+?) \(%\)"
               r"(?: over \d+ simulations)?$")
_WASSERSTEIN = r"^(?P<data_set>[\w-]+) (?P<model>(?:full|half) (?:r-)?(?:Nom|MixF\([1K]\)|ConF\([1K]\)))$"

#: Per work, the compared tables whose cells a map shows: ``(item pattern, [claim patterns])``, each claim
#: pattern with two named groups, the cell's row key then its column key (their names, ``_`` read as a
#: space, label the map's axes), or ``(item pattern, [claim patterns], row key)`` where the table prints
#: the second group down its rows. A claim of the item that matches none (a summary, a statement) is not
#: a cell. Keys that read as numbers are numbers; the others keep the order the table prints them in.
TABLE_KEYS: dict[str, list[tuple]] = {
    "atr": [
        (r"table02", [r"^(?P<quantity>[^,]+), (?P<group>.+?)(?: \(%\))?$"]),
        (r"table04", [r"^(?P<quantity>[A-Za-z0-9_']+)\((?P<cell>x\d+)\)$"]),
    ],
    "convex_max": [(r"table3[789]|table4[01]", _CONVEX_MAX)],
    "dp_noise": [
        (r"table0[1456]", [rf"^Table \d+ at {_EPS_DELTA} \[%\]$"]),
        (r"table0[23]", [_UCI]),
    ],
    "gaussian_mixtures": [
        (r"table0[78]|table1[34]", [rf"^Table \d+ at {_EPS_DELTA} \[%\]$"], "delta"),  # delta down
        (r"table1[05]", [r"^share of AG's gap closed by MG at "
                         r"\((?P<epsilon>[^,()]+), (?P<delta>[^,()]+)\) \[%\]$"], "delta"),
        (r"table11", [rf"^best K at {_EPS_DELTA}$"], "delta"),
        (r"table09|table18", [_UCI]),
    ],
    "robust_lr_aux": [
        (r"table27|table3[01]", [_ROBUST_UCI]),
        (r"table28|table32", [r"^(?P<norm>l1|l2|linf|none): (?P<method>.+?) error \(%\)$"]),
        (r"table29", [r"^(?P<data_set>[\w-]+): (?P<quantity>N|N_hat|N_te|n)$"]),
        (r"table33", [r"^alpha=(?P<alpha>[\d.]+): mean cross-validated (?P<quantity>.+)$"]),
    ],
    "routing": [
        (r"table01", [r"^cost increase % at eps=(?P<epsilon>[\d.]+), delta=(?P<delta>[\d.]+)$"]),
        (r"table02", [r"^Error #(?P<error>\d) at N=(?P<N>\d+)\b"]),
    ],
    "wasserstein_mixed": [
        (r"table19|table20", [r"^(?P<model>[A-Z]+-(?:cut|piece)(?: \[\d+\])?) median runtime \(s\), "
                              r"(?P<setting>N=\d+ \d+%)$"]),
        (r"table2[1-6]", [_WASSERSTEIN]),
    ],
}
#: A table gets a map on the site when at least this many of its counted printed claims are cells.
TABLE_MIN_CELLS = 6


def _check_work(work) -> str:
    if work not in WORKS:
        raise ValueError(f"work must be one of {WORKS}, got work={work!r}")
    return work


def table_patterns(work: str, item: str) -> list[str]:
    """The claim patterns of ``work``'s compared table ``item`` (see :data:`TABLE_KEYS`); ``[]`` if none."""
    _check_work(work)
    if not isinstance(item, str):
        raise ValueError(f"item must be a string (an item such as 'table01'), got item={item!r}")
    return [p for entry in TABLE_KEYS.get(work, []) if re.fullmatch(entry[0], item) for p in entry[1]]


def _row_key(work: str, item: str, names: tuple[str, str]) -> tuple[str, str]:
    """``names`` (row key, column key) as the table prints them (see :data:`TABLE_KEYS`)."""
    down = [entry[2] for entry in TABLE_KEYS.get(work, []) if len(entry) > 2 and re.fullmatch(entry[0], item)]
    return (names[1], names[0]) if down and down[0] == names[1] else names


def _tidy(key: str) -> str:
    """A key as the table means it: "alpha=0.20" and "alpha=0.2" are one row."""
    return re.sub(r"\b\d+\.\d+\b", lambda m: m.group().rstrip("0").rstrip(".") or "0", str(key))


class NoCells(ValueError):
    """The rows hold no cell of a compared table (e.g. a scale that registers none of its claims)."""


def table_cells(rows, item: str, *, work: str | None = None) -> tuple[pd.DataFrame, str, str]:
    """The cells of the compared table ``item``: ``(rows with its two keys, row key, column key)``.

    ``rows`` are claim rows (a notebook's ``claims.frame()`` or rows of ``figures/claims.csv``); the
    table's printed claims that are not fitted (``note`` "fitted: ...") and match one of its patterns
    (:data:`TABLE_KEYS`) are its cells, their keys read from the claim by :func:`claim_keys`. ``work``
    is needed only where ``rows`` hold the item of several works. A categorical key is an ordered
    categorical in the order the claims print it (the table's order).
    """
    frame = _frame(rows)
    needed = {"work", "item", "claim", "reference", "note"}
    if not needed <= set(frame.columns):
        raise ValueError(f"rows must be claim rows with columns {sorted(needed)}, got columns "
                         f"{sorted(frame.columns)}")
    if not isinstance(item, str):
        raise ValueError(f"item must be a string (an item such as 'table01'), got item={item!r}")
    mine = frame[frame["item"] == item]
    if work is not None:
        mine = mine[mine["work"] == _check_work(work)]
        works = [work]
    else:  # the item's work, or the one work of the rows (a notebook's claims before the table's are in)
        works = sorted(mine["work"].astype(str).unique()) or sorted(frame["work"].astype(str).unique())
    if len(works) != 1:
        items = sorted(frame["item"].astype(str).unique())
        raise ValueError(f"rows must hold item {item!r} of one work (work={work!r}), found it for works "
                         f"{works}; items in rows: {items[:20]}")
    patterns = table_patterns(works[0], item)
    if not patterns:
        raise ValueError(f"item must be a compared table of work={works[0]!r} with keys in TABLE_KEYS, got "
                         f"item={item!r}; its tables: {[entry[0] for entry in TABLE_KEYS.get(works[0], [])]}")
    counted = mine[(mine["reference"] == "printed") & ~mine["note"].astype(str).str.startswith("fitted: ")]
    names = tuple(re.compile(patterns[0]).groupindex)
    parts = []
    for pattern in patterns:
        part = claim_keys(counted, pattern, names) if not counted.empty else counted.iloc[:0]
        parts.append(part)
    cells = pd.concat(parts).reset_index(drop=True) if parts else counted.iloc[:0]
    if cells.empty:
        raise NoCells(f"rows must hold printed claims of {works[0]} {item} that are cells of its table "
                      f"(patterns {patterns}); none of its {len(mine)} rows is")
    for name in names:
        if not pd.api.types.is_numeric_dtype(cells[name]):
            keys = cells[name].map(_tidy)
            cells[name] = pd.Categorical(keys, categories=list(dict.fromkeys(keys)), ordered=True)
    row_key, column_key = _row_key(works[0], item, names)
    return cells, row_key, column_key


class TableMap:
    """What :func:`table_map` returns: the map's ``figure`` (closed to pyplot, so a notebook shows it
    once) and its ``cells`` (:func:`map_frame`); a notebook displays the picture, its text names the table.
    Without a cell (the claims hold none of the table's, as at a scale that registers none) ``figure`` is
    ``None`` and a notebook shows the text alone."""

    def __init__(self, figure, cells: pd.DataFrame, work: str, item: str, rows: str, columns: str):
        self.figure, self.cells, self.work, self.item = figure, cells, work, item
        self.rows, self.columns = rows, columns  # what the map's rows and columns are (its axes' labels)

    def __repr__(self) -> str:
        if self.figure is None:
            return (f"reproduction map of {self.work} {self.item}: no cell of the table in these claims "
                    "(none registered at this scale)")
        counts = self.cells["verdict"].value_counts()
        return (f"reproduction map of {self.work} {self.item}: {len(self.cells)} cells ("
                + ", ".join(f"{v} {n}" for v, n in counts.items()) + ")")

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(repr(self))

    def _repr_png_(self) -> bytes | None:
        import io

        if self.figure is None:
            return None
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", metadata=_PNG_METADATA, bbox_inches="tight")
        return buffer.getvalue()


def table_map(rows, item: str, *, work: str | None = None, limit: float = 3.0, title: str | None = None):
    """The reproduction map of the compared table ``item``: :func:`reproduction_map` over its cells.

    Parameters
    ----------
    rows
        Claim rows holding the table's claims: a notebook's ``claims.frame()`` (right under the table,
        once its claims are registered) or rows of ``figures/claims.csv``.
    item
        The table, e.g. ``"table22"``; its cells' keys are read from the claims by :func:`table_cells`
        with the patterns :data:`TABLE_KEYS` declares for the work.
    work
        Needed only where ``rows`` hold the item of several works.
    limit, title
        As in :func:`reproduction_map`; the default title names the work and the table.

    Returns
    -------
    TableMap
        Displayed in a notebook as the map; ``.figure`` to save it, ``.cells`` its data. Where the rows
        hold none of the table's cells (a scale that registers none), its ``figure`` is ``None`` and it
        says so.

    Examples
    --------
    >>> plotting.table_map(claims.frame(), "table22")  # doctest: +SKIP
    """
    if not limit > 0:
        raise ValueError(f"limit must be > 0, got limit={limit!r}")
    try:
        cells, row_key, column_key = table_cells(rows, item, work=work)
    except NoCells:
        works = _frame(rows)["work"]
        name = work if work is not None else str(works.iloc[0])
        return TableMap(None, pd.DataFrame(columns=["score", "verdict", "mark"]), name, item, "", "")
    name = str(cells["work"].iloc[0])
    with style():
        fig = reproduction_map(cells, column_key, row_key, limit=limit,
                               title=title if title is not None else f"{name} {item}: ours against the work")
    rows_are, columns_are = row_key.replace("_", " "), column_key.replace("_", " ")
    fig.axes[0].set_xlabel(columns_are)
    fig.axes[0].set_ylabel(rows_are)
    fig.axes[0].tick_params(axis="y", labelrotation=0)  # seaborn turns crowded row labels on their side
    plt.close(fig)
    return TableMap(fig, map_frame(cells, column_key, row_key), name, item, rows_are, columns_are)


def compared_tables(rows, work: str) -> list[str]:
    """The items of ``work`` whose map :func:`table_map` draws from ``rows``: the compared tables (see
    :data:`TABLE_KEYS`) with at least :data:`TABLE_MIN_CELLS` counted printed cells (not smoke) that carry
    a value of ours: a table whose printed numbers are not compared (machine-dependent seconds, rows not
    run yet) has no map, since every cell of it would be an empty "?"."""
    _check_work(work)
    frame = _frame(rows)
    needed = {"work", "item", "claim", "reference", "note", "scale"}
    if not needed <= set(frame.columns):
        raise ValueError(f"rows must be claim rows with columns {sorted(needed)}, got columns "
                         f"{sorted(frame.columns)}")
    frame = frame[(frame["work"] == work) & (frame["scale"] != "smoke")]
    found = []
    for item in sorted(frame["item"].astype(str).unique()):
        if not table_patterns(work, item):
            continue
        try:
            cells, _, _ = table_cells(frame, item, work=work)
        except ValueError:
            continue
        ours = cells["reproduced_value"].astype(str).str.strip() if "reproduced_value" in cells else None
        if ours is not None and int((ours != "").sum()) >= TABLE_MIN_CELLS:
            found.append(item)
    return found


# --------------------------------------------------------------------------------------------------
# the claims at a glance: every counted printed number, ours against the work's, and the verdicts

#: Colours of the verdicts (points and bars) and of the deviations' causes (bars).
VERDICT_COLOURS = {"reproduced": "#1a9850", "deviates": "#d73027", "inconclusive": "#a6a6a6"}
CAUSE_COLOURS = {"work-error": "#67001f", "underspecified": "#f46d43", "substitute-data": "#fdae61",
                 "scale": "#8c510a", "solver": "#c51b7d", "unexplained": "#f7a8b8"}
#: Relative deviations are drawn on a symmetric log scale, clipped at ±``OVERVIEW_LIMIT`` (a clipped point is
#: drawn at the edge as a triangle) and linear within a threshold read from the data (:func:`_linthresh`).
OVERVIEW_LIMIT = 10.0


def _number(column: pd.Series) -> pd.Series:
    return pd.to_numeric(column.astype(str).str.replace(",", "").str.replace("−", "-"), errors="coerce")


def overview_frame(rows: pd.DataFrame) -> pd.DataFrame:
    """The counted printed rows of a judged claims report (``reference == "printed"``, not smoke, not
    fitted) with ``paper``, ``ours``, ``tolerance`` as numbers, ``deviation`` = (ours − paper) / |paper|
    (0 where they are equal, ±inf where the paper's value is 0) and ``band`` = tolerance / |paper|; NaN
    where a value is missing (an inconclusive row without a value: counted, not drawn)."""
    needed = {"work", "item", "reference", "scale", "note", "paper_value", "reproduced_value", "tolerance",
              "verdict", "cause"}
    if not needed <= set(rows.columns):
        raise ValueError(f"rows must be judged claim rows with columns {sorted(needed)}, got columns "
                         f"{sorted(rows.columns)}")
    counted = rows[(rows["reference"] == "printed") & (rows["scale"] != "smoke")
                   & ~rows["note"].astype(str).str.startswith("fitted: ")]
    paper, ours, tol = (_number(counted[c]) for c in ("paper_value", "reproduced_value", "tolerance"))
    deviation = ((ours - paper) / paper.abs()).where(ours != paper, 0.0)
    return pd.DataFrame({"work": counted["work"], "item": counted["item"], "verdict": counted["verdict"],
                         "cause": counted["cause"], "paper": paper, "ours": ours, "tolerance": tol,
                         "deviation": deviation.where(ours.notna() & paper.notna()),
                         "band": (tol / paper.abs()).where(tol.notna())}).reset_index(drop=True)


def _verdict_counts(frame: pd.DataFrame, key: str, order: list[str]) -> pd.DataFrame:
    """Per ``key`` value: the counts of reproduced, deviates by cause and inconclusive, in that order."""
    label = frame["verdict"].where(frame["verdict"] != "deviates",
                                   "deviates, " + frame["cause"].replace("", "no cause"))
    columns = ["reproduced", *(f"deviates, {c}" for c in [*CAUSE_COLOURS, "no cause"]), "inconclusive"]
    counts = frame.assign(label=label).groupby([key, "label"]).size().unstack(fill_value=0)
    return counts.reindex(index=order, columns=columns, fill_value=0).fillna(0).astype(int)


def _percent(t: float) -> str:
    return "0" if t == 0 else f"{t * 100:+g}%"


def _linthresh(frame: pd.DataFrame) -> float:
    """The symmetric log scale's linear threshold: the power of ten below the 5 % quantile of the drawn
    deviations and bands that are not 0 (so the small ones are told apart), within [1e-8, 1e-3]."""
    import numpy as np

    values = pd.concat([frame["deviation"], frame["band"]]).abs()
    values = values[(values > 0) & np.isfinite(values)]
    if values.empty:
        return 1e-4
    return float(min(max(10.0 ** np.floor(np.log10(values.quantile(0.05))), 1e-8), 1e-3))


def claims_overview(rows: pd.DataFrame, *, by: str = "work", order: list[str] | None = None,
                    title: str | None = None):
    """Every counted printed number of a judged claims report at a glance: two panels sharing their rows,
    one row per ``by`` value (``"work"``; ``"item"`` for one work's panel, in ``order`` or sorted).

    Left: ours against the work's as the relative deviation (ours − work) / |work| on a symmetric log
    scale (linear near 0, clipped at ±1000 %: a clipped point is a triangle at the edge), one
    point per number coloured by its verdict, with its band (tolerance / |work|) as a bar from 0 toward
    the point: a point on its bar is within its band (it reproduces unless its band is too wide to tell,
    docs/claims.md §2b/§2d). Numbers without a value (inconclusive) are counted under the row's name.
    Right: each row's verdicts as shares: reproduced, the deviations by cause, inconclusive, with the
    counts reproduced / deviate / inconclusive beside. A ``by`` value of ``order`` without a counted
    printed number is named in the title.

    Returns the matplotlib figure (save it with :func:`save_overview`).
    """
    import numpy as np
    from matplotlib.patches import Patch
    from matplotlib.ticker import PercentFormatter

    if by not in ("work", "item"):
        raise ValueError(f"by must be 'work' or 'item', got by={by!r}")
    frame = overview_frame(rows)
    if frame.empty:
        raise ValueError("rows hold no counted printed number (reference printed, not smoke, not fitted)")
    present = list(dict.fromkeys(frame[by]))
    if order is None:
        order = sorted(present) if by == "item" else present
    absent = [o for o in order if o not in set(present)]
    order = [o for o in order if o in set(present)] + [p for p in present if p not in set(order)]
    position = {key: i for i, key in enumerate(order)}
    fig, (ax, bars) = plt.subplots(1, 2, figsize=(10.5, 1.6 + 0.42 * len(order)), sharey=True,
                                   layout="constrained", gridspec_kw={"width_ratios": [2.6, 1.0]})
    drawn = frame[frame["deviation"].notna()].copy()
    drawn["y"] = drawn[by].map(position).to_numpy() + np.random.default_rng(0).uniform(-0.3, 0.3, len(drawn))
    limit = OVERVIEW_LIMIT
    x = drawn["deviation"].clip(-limit, limit)
    toward = np.where(drawn["deviation"] < 0, -1.0, 1.0)
    end = (toward * drawn["band"].fillna(0.0)).clip(-limit, limit)
    start = np.where(drawn["deviation"] == 0, -end, 0.0)  # a value equal to the work's: the whole band
    for verdict, colour in VERDICT_COLOURS.items():
        part = (drawn["verdict"] == verdict).to_numpy()
        if not part.any():
            continue
        ax.hlines(drawn["y"][part], start[part], end[part], colors=colour, alpha=0.07, linewidth=0.5,
                  zorder=1)
        inside = part & (drawn["deviation"].abs() < limit).to_numpy()
        ax.scatter(x[inside], drawn["y"][inside], s=8, color=colour, alpha=0.8, linewidths=0, zorder=2)
        for sign, marker in ((1, ">"), (-1, "<")):
            edge = part & ~inside & (np.sign(drawn["deviation"]) == sign).to_numpy()
            ax.scatter(x[edge], drawn["y"][edge], s=16, marker=marker, color=colour, alpha=0.85,
                       linewidths=0, zorder=2)
    linthresh = _linthresh(drawn)
    ax.set_xscale("symlog", linthresh=linthresh, linscale=0.6)
    ax.set_xlim(-limit * 1.6, limit * 1.6)
    decades = [10.0 ** e for e in range(int(round(np.log10(limit))), int(round(np.log10(linthresh))), -1)]
    decades = decades[:: 1 + (len(decades) > 6)]
    ticks = [-d for d in decades] + [0.0] + decades[::-1]
    ax.set_xticks(ticks, [_percent(t) for t in ticks], fontsize=7)
    ax.axvline(0, color="0.3", linewidth=0.6, zorder=0)
    ax.set_xlabel("(ours − work) / |work|, symmetric log scale; faint bar: the band, tolerance / |work|")
    missing = frame[frame["deviation"].isna()].groupby(by).size()
    labels = [f"{key}\n{missing[key]} without a value" if key in missing.index else key for key in order]
    ax.set_yticks(range(len(order)), labels)
    ax.set_ylim(len(order) - 0.5, -0.5)
    ax.grid(axis="y", visible=False)
    counts = _verdict_counts(frame, by, order)
    shares = counts.div(counts.sum(axis=1), axis=0)
    colours = {"reproduced": VERDICT_COLOURS["reproduced"], "inconclusive": VERDICT_COLOURS["inconclusive"],
               **{f"deviates, {c}": v for c, v in CAUSE_COLOURS.items()}, "deviates, no cause": "black"}
    left = np.zeros(len(order))
    for column in counts.columns:
        if counts[column].any():
            bars.barh(range(len(order)), shares[column], left=left, color=colours[column], height=0.7,
                      linewidth=0)
            left += shares[column].to_numpy()
    for i, (r, d, total) in enumerate(zip(counts["reproduced"], counts.filter(like="deviates").sum(axis=1),
                                          counts.sum(axis=1), strict=True)):
        bars.annotate(f"{r} / {d} / {total - r - d}", (1.0, i), xytext=(3, 0), textcoords="offset points",
                      va="center", fontsize=6.5, annotation_clip=False)
    bars.set_xlim(0, 1)
    bars.xaxis.set_major_formatter(PercentFormatter(1.0))
    bars.set_xlabel("verdicts, as shares\n(beside: reproduced / deviate / inconclusive)")
    bars.grid(axis="y", visible=False)
    bars.tick_params(axis="y", length=0)
    handles = [Patch(color=c, label=v) for v, c in VERDICT_COLOURS.items() if v != "deviates"]
    handles.insert(1, Patch(color=VERDICT_COLOURS["deviates"], label="deviates (points)"))
    handles += [Patch(color=colours[c], label=c) for c in counts.columns
                if c.startswith("deviates") and counts[c].any()]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(5, len(handles)), fontsize=7)
    n, shown = len(frame), len(drawn)
    head = f"{n:,} printed numbers, {shown:,} with a value drawn"
    if absent:
        head += f"; no printed number counted: {', '.join(absent)}"
    fig.suptitle((title + "\n" if title else "") + head, fontsize=9)
    return fig


def save_overview(fig, path: Path) -> Path:
    """Save ``fig`` as a PNG at ``path`` without a software stamp (same data, same bytes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata=_PNG_METADATA, dpi=150)
    return path


# --------------------------------------------------------------------------------------------------
# the work's printed numbers beside ours, in the figure they belong to

#: The label of the work's printed values in a figure (a thesis or a paper: both say "work").
PRINTED_LABEL = "work (printed)"
#: Black open diamonds: the work's values, told apart from every curve of ours.
PRINTED_STYLE = {"marker": "D", "markersize": 6, "markerfacecolor": "none", "markeredgecolor": "black",
                 "markeredgewidth": 1.2, "color": "black", "linestyle": "none", "zorder": 5}


def printed_rows(rows, item: str, *, work: str | None = None, claims=None) -> pd.DataFrame:
    """The work's numbers behind figure ``item``: its claims with reference ``printed`` or ``supplement``
    whose printed value is a number, one row each with ``paper``, ``ours`` and ``tolerance`` as numbers
    (``ours``/``tolerance`` NaN where the claim has no value), in the order of ``rows``.

    Parameters
    ----------
    rows
        Claim rows: a notebook's ``claims.frame()`` once the figure's claims are registered, or
        ``figures/claims.csv`` (then name the ``work``).
    item
        The figure's item, e.g. ``"fig05"``.
    work
        Keep only this work's rows (needed where ``rows`` hold several works).
    claims
        Keep only these claims (their texts, in this order); every one must be among the item's printed
        numbers.
    """
    frame = _frame(rows)
    needed = {"item", "claim", "reference", "location"}
    if not needed <= set(frame.columns):
        raise ValueError(f"rows must be claim rows with columns {sorted(needed)}, got columns "
                         f"{sorted(frame.columns)}")
    if not isinstance(item, str) or not item:
        raise ValueError(f"item must be a figure's item name such as 'fig05', got item={item!r}")
    if work is not None:
        if "work" not in frame.columns:
            raise ValueError("rows must have a column work when work is given")
        frame = frame[frame["work"] == _check_work(work)]
    elif "work" in frame.columns and frame["work"].nunique() > 1:
        raise ValueError(f"rows hold several works ({sorted(frame['work'].unique())}): name the work")
    mine = frame[(frame["item"] == item) & frame["reference"].isin(["printed", "supplement"])]
    paper = _number(mine["paper_value"])
    out = pd.DataFrame({"claim": mine["claim"].astype(str), "reference": mine["reference"],
                        "location": mine["location"], "paper": paper,
                        "ours": _number(mine["reproduced_value"]),
                        "tolerance": _number(mine["tolerance"]), "verdict": mine["verdict"]})
    out = out[paper.notna()].reset_index(drop=True)
    if claims is not None:
        if isinstance(claims, str) or not all(isinstance(c, str) for c in claims):
            raise ValueError(f"claims must be a list of claim texts, got claims={claims!r}")
        unknown = [c for c in claims if c not in set(out["claim"])]
        if unknown:
            raise ValueError(f"claims must be printed numbers of {item}; not found: {unknown}")
        out = out.set_index("claim").loc[list(claims)].reset_index()
    return out


def _floats(name: str, values, size: int | None = None):
    import numpy as np

    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got {name}={values!r}") from None
    if size is not None and array.size != size:
        raise ValueError(f"{name} must have one value per point ({size}), got {array.size}")
    return array


def printed_beside(ax, x, y, *, band=None, label: str = PRINTED_LABEL, claims=None) -> pd.DataFrame:
    """The work's printed values as black open diamonds at ``(x, y)`` on our axes, each with its band
    (± ``band``, the claim's tolerance: our curve within the bar reproduces the number) as an error bar.

    Parameters
    ----------
    ax
        The axes of our curve.
    x, y
        The printed points: ``y`` the work's values (from :func:`printed_rows`, never retyped), ``x`` where
        the work puts them on our x axis; finite numbers, one or more.
    band
        Half-widths of the bars (≥ 0; NaN: no bar), one per point or one for all; ``None``: no bars.
    label
        The legend label of the diamonds.
    claims
        The claim of each point (for the CSV); default none.

    Returns
    -------
    pandas.DataFrame
        The points drawn (``claim``, ``x``, ``paper``, ``tolerance``): give it to :func:`save_figure` as
        ``printed`` so that the figure's CSV carries them.
    """
    import numpy as np
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes, got ax={type(ax).__name__}")
    ys = _floats("y", y)
    if ys.size == 0:
        raise ValueError("y must hold at least one printed value, got none")
    xs = _floats("x", x)
    if xs.size == 1 and ys.size > 1:
        xs = np.repeat(xs, ys.size)
    if xs.size != ys.size:
        raise ValueError(f"x must have one value per printed value ({ys.size}), got {xs.size}")
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        raise ValueError(f"x and y must be finite numbers, got x={xs.tolist()}, y={ys.tolist()}")
    if band is None:
        bands = np.full(ys.size, np.nan)
    else:
        bands = _floats("band", band)
        if bands.size == 1:
            bands = np.repeat(bands, ys.size)
        if bands.size != ys.size:
            raise ValueError(f"band must have one value per printed value ({ys.size}) or one for all, "
                             f"got {bands.size}")
        if (bands[~np.isnan(bands)] < 0).any() or np.isinf(bands).any():
            raise ValueError(f"band must be finite and >= 0 (NaN: no bar), got band={bands.tolist()}")
    if not isinstance(label, str) or not label.strip():
        raise ValueError(f"label must be a non-empty string, got label={label!r}")
    names = [""] * ys.size if claims is None else list(claims)
    if len(names) != ys.size or not all(isinstance(c, str) for c in names):
        raise ValueError(f"claims must be one claim text per printed value ({ys.size}), "
                         f"got claims={claims!r}")
    barred = ~np.isnan(bands)
    if barred.any():
        ax.errorbar(xs[barred], ys[barred], yerr=bands[barred], fmt="none", ecolor="black", elinewidth=1.0,
                    capsize=3, zorder=4)
    ax.plot(xs, ys, label=label + (", bar: ± tolerance" if barred.any() else ""), gid="printed",
            **PRINTED_STYLE)
    return pd.DataFrame({"claim": names, "x": xs, "paper": ys, "tolerance": bands})


def printed_panel(ax, printed: pd.DataFrame, *, relative: bool = True, names=None, unit: str = "",
                  label: str = PRINTED_LABEL) -> pd.DataFrame:
    """A panel of the work's printed numbers that are not points of our curves: one row per number, the
    work's value as a black open diamond, ours as a dot with our band (the claim's tolerance) as an error
    bar, coloured by the verdict.

    Parameters
    ----------
    ax
        An empty axes beside our figure's.
    printed
        :func:`printed_rows` of the figure (``claim``, ``paper``, ``ours``, ``tolerance``, ``verdict``); a
        number without our value is drawn as the diamond alone.
    relative
        ``True``: every number divided by the work's (the diamonds at ×1; a log axis where ours is off by
        more than a factor 2), so that numbers of different units share the axis; ``False``: the values
        themselves (one unit, named by ``unit``).
    names
        The row labels (default: the claims).
    unit, label
        The axis' unit (``relative=False``) and the diamonds' legend label.

    Returns
    -------
    pandas.DataFrame
        ``printed`` as drawn: give it to :func:`save_figure` as ``printed``.
    """
    import numpy as np
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes, got ax={type(ax).__name__}")
    if not isinstance(printed, pd.DataFrame) or not {"claim", "paper", "ours", "tolerance"} <= set(printed):
        raise ValueError("printed must be printed_rows() of a figure (columns claim, paper, ours, tolerance)")
    if printed.empty:
        raise ValueError("printed must hold at least one printed number, got none")
    if not isinstance(relative, bool):
        raise ValueError(f"relative must be True or False, got relative={relative!r}")
    if not isinstance(label, str) or not label.strip():
        raise ValueError(f"label must be a non-empty string, got label={label!r}")
    if not isinstance(unit, str):
        raise ValueError(f"unit must be a string, got unit={unit!r}")
    labels = list(printed["claim"]) if names is None else list(names)
    if len(labels) != len(printed) or not all(isinstance(n, str) for n in labels):
        raise ValueError(f"names must be one string per printed number ({len(printed)}), got names={names!r}")
    paper = printed["paper"].to_numpy(float)
    ours, tol = printed["ours"].to_numpy(float), printed["tolerance"].to_numpy(float)
    if not np.isfinite(paper).all():
        raise ValueError(f"printed must hold finite printed values, got paper={paper.tolist()}")
    if relative and (paper == 0).any():
        raise ValueError("printed must hold values other than 0 for relative=True (else relative=False)")
    scale = np.abs(paper) if relative else np.ones_like(paper)
    pos = np.arange(len(printed))
    verdicts = printed["verdict"] if "verdict" in printed else pd.Series(["inconclusive"] * len(printed))
    for verdict, colour in VERDICT_COLOURS.items():
        part = (verdicts == verdict).to_numpy() & np.isfinite(ours)
        if part.any():
            err = np.where(np.isfinite(tol[part]), tol[part], 0.0) / scale[part]
            ax.errorbar(ours[part] / scale[part], pos[part], xerr=err, fmt="o", color=colour, ms=3.5,
                        capsize=3, elinewidth=1.0, label=f"ours ({verdict}), bar: ± tolerance", zorder=6)
    ax.plot(paper / scale, pos, label=label, gid="printed", **PRINTED_STYLE)
    whose = label.split(" (")[0]
    for i, (p, o) in enumerate(zip(paper, ours, strict=True)):  # the numbers themselves, right of the panel
        text = f"{whose} {p:.6g}" + (f" · ours {o:.6g}" if np.isfinite(o) else " · ours: no value")
        ax.annotate(text, (1.0, i), xycoords=("axes fraction", "data"), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=6.5, annotation_clip=False)
    ax.set_yticks(pos, labels, fontsize=7)
    ax.set_ylim(len(printed) - 0.5, -0.5)
    ax.grid(axis="y", visible=False)
    if relative:
        spread = np.nan_to_num(tol)
        drawn = np.concatenate([ours, ours - spread, ours + spread, paper]) / np.tile(scale, 4)
        drawn = drawn[np.isfinite(drawn) & (drawn > 0)]
        if drawn.size and (drawn.min() < 0.5 or drawn.max() > 2):
            ax.set_xscale("log")
        ax.axvline(1.0, color="0.5", lw=0.6, zorder=0)
        ax.set_xlabel(f"value / the {whose}'s printed value")
    else:
        ax.set_xlabel(f"value ({unit})" if unit else "value")
    ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.18 if relative else -0.2), ncol=2,
              frameon=False)
    return printed.assign(x=paper / scale if relative else paper).reset_index(drop=True)
