"""nbval over the references, checking the notebooks that ``make smoke`` executed -- without a second run.

``make smoke`` executes every notebook **once** at smoke scale with papermill into
``build/smoke/notebooks/`` (the copies the site shows and ``make references`` records, with their
timings and provenance).  ``make nbval`` then runs nbval itself over the committed references::

    pytest --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg tests/references/rldp_fig2.ipynb

nbval collects each reference's code cells, "executes" them in order and compares the outputs of the
cells it marks as checked (``# NBVAL_CHECK_OUTPUT`` under ``--nbval-lax``) with the reference's, with
its own sanitizing, comparison and failure report (``tests/references/<name>.ipynb::Cell <n>``, the
reference output and the new one).  The one thing this file changes: instead of starting a Jupyter
kernel, each reference gets a :class:`ReplayKernel` that answers nbval's execute requests with the
outputs the smoke run stored in ``$SAFEGUARDED_NBVAL_EXECUTED/<name>.ipynb`` (default
``build/smoke/notebooks``).  nbval cannot save what it executes nor inject papermill's parameters,
and a reference holds the code of the day it was recorded, so executing the references would test old
code, twice; replaying the one smoke run of the current notebooks tests the current code, once.

Pairing: the k-th checked cell of the reference gets the outputs of the k-th checked cell of the smoke
copy (checked as nbval decides it, by its own markers and tags); unchecked cells replay no output
(``--nbval-lax`` does not compare them).  A notebook whose smoke copy is missing, whose reference has
no checked cell, or whose checked cells do not pair up fails with what to run; so does one whose smoke
outputs carry a solver log, cache notice or worker warning (:data:`safeguarded.runlog.NOISE`: those go to
``build/smoke/logs/``).
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from itertools import count
from pathlib import Path
from queue import Empty

import nbformat
import pytest
from nbval.plugin import IPyNbFile, find_comment_markers, find_metadata_tags

from safeguarded.runlog import noise_lines

REPO = Path(__file__).resolve().parents[2]
EXECUTED_ENV = "SAFEGUARDED_NBVAL_EXECUTED"
DEFAULT_EXECUTED = REPO / "build" / "smoke" / "notebooks"
SANITIZE = Path(__file__).resolve().parent.parent / "nbval_sanitize.cfg"
_REPLAYED: dict[str, int] = {}  # reference notebook -> its checked cells, for the summary line


def executed_dir() -> Path:
    """The smoke run's executed notebooks: ``$SAFEGUARDED_NBVAL_EXECUTED``, else build/smoke/notebooks."""
    return Path(os.environ.get(EXECUTED_ENV) or DEFAULT_EXECUTED)


def nbval_checks(cell, lax: bool = True) -> bool:
    """Whether nbval compares this code cell's outputs: its markers and tags, exactly as nbval reads them."""
    if cell.get("cell_type") != "code":
        return False
    options = defaultdict(bool, find_metadata_tags(cell.get("metadata", {})))
    options.update(dict(find_comment_markers(cell.get("source", ""))))
    options.setdefault("check", not lax)
    return bool(options["check"]) and not options["skip"]


def _message(msg_id: str, msg_type: str, content: dict) -> dict:
    return {"msg_type": msg_type, "content": content, "parent_header": {"msg_id": msg_id}}


class ReplayKernel:
    """Stands in for nbval's ``RunningKernel``: replays the stored outputs of an executed notebook.

    ``reference_cells``: the reference's code cells in order; ``checked``: those nbval checks.
    ``execute_cell_input(source)`` finds the next reference cell with that source and queues, as
    iopub messages, the outputs of the smoke copy's matching checked cell (none for an unchecked one),
    then the ``idle`` status that ends nbval's read loop.
    """

    def __init__(self, executed: Path, reference_cells: list, checked: list, lax: bool = True):
        self.executed = executed
        nb = nbformat.read(executed, as_version=4)
        self.smoke_checked = [c for c in nb.cells if nbval_checks(c, lax)]
        self.reference_cells = reference_cells
        self.checked_ids = [id(c) for c in checked]
        self._position = 0
        self._messages: deque = deque()
        self._ids = count()
        self._alive = True

    def _pairing_error(self) -> str:
        return (f"the smoke run {self.executed} has {len(self.smoke_checked)} checked cells, the reference "
                f"{len(self.checked_ids)}: the notebook's checked cells changed; if deliberately, run "
                f"`make references` and commit the diff of tests/references/")

    def execute_cell_input(self, source: str, allow_stdin: bool = False) -> str:
        cells = self.reference_cells
        while self._position < len(cells) and cells[self._position].source != source:
            self._position += 1  # cells nbval skipped (NBVAL_SKIP) are never sent
        if self._position == len(cells):
            raise RuntimeError(f"nbval sent a cell that is not in the reference, in order:\n{source}")
        cell = cells[self._position]
        self._position += 1
        msg_id = f"replay-{next(self._ids)}"
        outputs = []
        if id(cell) in self.checked_ids:
            k = self.checked_ids.index(id(cell))
            if len(self.smoke_checked) != len(self.checked_ids):
                raise RuntimeError(self._pairing_error())
            outputs = self.smoke_checked[k].get("outputs", [])
        for out in outputs:
            kind = out["output_type"]
            if kind == "stream":
                content = {"name": out["name"], "text": out["text"]}
            elif kind in ("display_data", "execute_result"):
                content = {"data": out.get("data", {}), "metadata": out.get("metadata", {}),
                           "execution_count": out.get("execution_count")}
            elif kind == "error":
                content = {"ename": out["ename"], "evalue": out["evalue"], "traceback": out["traceback"]}
            else:
                continue
            self._messages.append(_message(msg_id, kind, content))
        self._messages.append(_message(msg_id, "status", {"execution_state": "idle"}))
        return msg_id

    def get_message(self, stream: str = "iopub", timeout=None) -> dict:
        if not self._messages:
            raise Empty
        return self._messages.popleft()

    def await_reply(self, msg_id, timeout=None) -> dict:
        return {"content": {"status": "ok"}}

    def await_idle(self, msg_id, timeout=None) -> None:
        while self._messages:
            msg = self._messages.popleft()
            if msg["msg_type"] == "status" and msg["parent_header"]["msg_id"] == msg_id:
                return

    def is_alive(self) -> bool:
        return self._alive

    def interrupt(self) -> None:
        pass

    def stop(self) -> None:
        self._alive = False


class ReplayNbFile(IPyNbFile):
    """nbval's notebook collector, with the smoke run's stored outputs in place of a kernel."""

    def collect(self):
        items = list(super().collect())
        self.checked_cells = [it.cell for it in items if it.options["check"] and not it.options["skip"]]
        return items

    def get_sanitize_files(self):
        """The file given with ``--nbval-sanitize-with``, else tests/nbval_sanitize.cfg."""
        return super().get_sanitize_files() or ([str(SANITIZE)] if SANITIZE.is_file() else [])

    def setup(self):
        name = self.path.name
        executed = executed_dir() / name
        if not executed.is_file():
            raise FileNotFoundError(
                f"no executed smoke copy {executed} of {name}: run `make smoke` first "
                f"(or set {EXECUTED_ENV} to the folder holding it)")
        noisy = noise_lines(nbformat.read(executed, as_version=4))
        if noisy:  # solver logs, cache notices, worker warnings: they belong in build/smoke/logs/
            raise ValueError(f"{name}: the smoke run's outputs carry {len(noisy)} log lines, which belong in "
                             f"its log (safeguarded.runlog), e.g. " + "; ".join(noisy[:3]))
        if not self.checked_cells:
            raise ValueError(f"{name}: no `# NBVAL_CHECK_OUTPUT` cell, so none of its numbers is "
                             f"regression-tested: print the checked values in such a cell")
        unrun = [i for i, c in enumerate(self.checked_cells) if c.get("execution_count") is None]
        if unrun:  # nbval silently skips comparing a reference cell without an execution count
            raise ValueError(f"{name}: checked cells {unrun} of the reference have no execution count, so "
                             f"nbval would not compare them: rewrite it with `make references`")
        code = [c for c in self.nb.cells if c.cell_type == "code"]
        self.kernel = ReplayKernel(executed, code, self.checked_cells, lax=not self.compare_outputs)
        _REPLAYED[name] = len(self.checked_cells)
        self.setup_sanitize_files()


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path, parent):
    """Replace nbval's collector of a reference notebook by :class:`ReplayNbFile`."""
    collected = yield
    return [ReplayNbFile.from_parent(parent, path=file_path) if type(node) is IPyNbFile else node
            for node in collected]


def pytest_terminal_summary(terminalreporter):
    """Say how many checked cells nbval compared, and against which run."""
    if _REPLAYED:
        terminalreporter.write_line(
            f"nbval: {sum(_REPLAYED.values())} checked cells of {len(_REPLAYED)} notebooks compared with "
            f"their references; outputs of the smoke run in {executed_dir()}")
