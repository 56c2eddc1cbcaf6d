"""The statement ledger: every checkable statement of a work's numerical section, line by line.

A reviewer asks two questions of a claims report: is every number the work states in it, and is each
one judged?  The notebooks answer the second; this module answers the first.  Each work keeps a ledger,
``safeguarded.<work>.statements.LEDGER``, that walks its numerical section in the seed text
(``../shared/seeds/``) and says, for every line that states a number, a ratio, a time or an ordering:

* :class:`Statement` with ``claims`` -- the claim rows (``item`` and a regular expression on ``claim``)
  of ``figures/claims.csv`` that check it;
* :class:`Statement` with ``not_run`` -- we cannot check it (why, in words); ``make claims`` then
  registers it as an ``inconclusive`` printed row with that reason, so it is never absent;
* :class:`Skip` -- the line holds digits but states nothing checkable (an equation or section number, a
  setting already recorded in ``runs``, a citation), with the reason.

Beside the numerical sections a ledger walks its work's theory (``theory``: line ranges): every theorem,
corollary, proposition, lemma, remark and observation there, and the text's statements that something
does or does not hold or extend, is a :class:`Result` -- either checked (``claims``: the rows of ``item``
in the notebooks' claim fragments ``figures/<work>/claims/*.csv`` that test it on computed instances) or
judged not checkable (``why``: an existence statement, an asymptotic rate, a complexity class, ...).
:func:`result_headers` finds the statement headers of the theory ranges; the tests hold every header to a
result of the same name.

``tests/test_statements.py`` holds the ledgers to this: every line of each section that contains a digit
is covered, every ``claims`` pattern matches a row of the committed report, every ``paper`` value occurs
in the lines it cites.  The ledger is data, like the cause registries (``safeguarded.<work>.causes``).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import cache

import pandas as pd

from safeguarded.paths import REPO_ROOT, WORKS
from safeguarded.redaction import MACHINE_PATH

__all__ = [
    "KINDS",
    "LEDGER_NOTE",
    "Ledger",
    "RESULT_HEADER",
    "Result",
    "SEEDS",
    "Skip",
    "Statement",
    "ledger",
    "not_run_rows",
    "result_headers",
    "seed_lines",
    "uncovered_lines",
]

#: What a statement states.
KINDS = ("number", "ratio", "time", "ordering")
#: Where the seed texts live (beside the repository, as in CI).
SEEDS = REPO_ROOT.parent / "shared" / "seeds"
#: The note every ledger-registered row starts with.
LEDGER_NOTE = "not run: "

Lines = tuple[int, int]


def _lines(value: int | tuple[int, int]) -> Lines:
    first, last = (value, value) if isinstance(value, int) else value
    if not (isinstance(first, int) and isinstance(last, int) and 1 <= first <= last):
        raise ValueError(
            f"lines must be a line number >= 1 or (first, last) with first <= last, got {value!r}"
        )
    return first, last


def _location(lines: Lines) -> str:
    """``Lnnn`` for one line, ``Lfirst-Llast`` for a range."""
    first, last = lines
    return f"L{first}" if first == last else f"L{first}-L{last}"


@dataclass(frozen=True)
class Statement:
    """One checkable statement of the work, at ``lines`` (``Lnnn`` or ``(first, last)``) of its seed.

    Exactly one of ``claims`` (a regular expression on the ``claim`` column of the rows of ``item`` that
    check it) and ``not_run`` (why it cannot be checked here) is given.  ``paper`` is the value as
    printed (required with ``not_run``: it becomes the row's ``paper_value``).
    """

    lines: int | tuple[int, int]
    says: str
    item: str
    kind: str = "number"
    claims: str = ""
    not_run: str = ""
    paper: str = ""

    def __post_init__(self):
        object.__setattr__(self, "lines", _lines(self.lines))
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got kind={self.kind!r} ({self.says!r})")
        if bool(self.claims) == bool(self.not_run):
            raise ValueError(f"give exactly one of claims= and not_run= for statement {self.says!r}")
        if self.not_run and not self.paper:
            raise ValueError(f"a statement we cannot check needs its printed value paper= ({self.says!r})")
        if not self.item.strip():
            raise ValueError(f"item is required ({self.says!r})")
        for text in (self.says, self.not_run, self.paper):
            if MACHINE_PATH.search(text):
                raise ValueError(f"a statement names a machine's path (use a relative one): {text!r}")
        re.compile(self.claims)

    @property
    def location(self) -> str:
        return _location(self.lines)


@dataclass(frozen=True)
class Skip:
    """Lines that contain digits but state nothing checkable (``why``: e.g. "equation numbers")."""

    lines: int | tuple[int, int]
    why: str

    def __post_init__(self):
        object.__setattr__(self, "lines", _lines(self.lines))
        if not self.why.strip():
            raise ValueError(f"a skipped line needs its reason (lines {self.lines})")


#: A statement header of the theory: "Theorem 11 (main).", "Corollary 10 (2-norm Constraint).", "Remark 1."
RESULT_HEADER = re.compile(r"^(Theorem|Corollary|Proposition|Lemma|Remark|Observation) (\d+)(?: "
                           r"\([^)]*\))?\.")


@dataclass(frozen=True)
class Result:
    """A theorem-like statement of the work's theory at ``lines``, ``name`` as the text numbers it (e.g.
    "Theorem 11"; "" for a statement of the running text).  Exactly one of ``claims`` (a regular expression
    on the ``claim`` column of the rows of ``item`` that test its conclusion on computed instances) and
    ``why`` (why no computed instance can test it) is given."""

    lines: int | tuple[int, int]
    name: str
    says: str
    item: str = ""
    claims: str = ""
    why: str = ""

    def __post_init__(self):
        object.__setattr__(self, "lines", _lines(self.lines))
        if bool(self.claims) == bool(self.why):
            raise ValueError(f"give exactly one of claims= and why= for result {self.name or self.says!r}")
        if self.claims and not self.item.strip():
            raise ValueError(f"a checked result needs its item ({self.name or self.says!r})")
        if not self.says.strip():
            raise ValueError(f"a result needs says= (lines {self.lines})")
        re.compile(self.claims)

    @property
    def location(self) -> str:
        return _location(self.lines)


@dataclass(frozen=True)
class Ledger:
    """A work's walk through its numerical ``sections`` (line ranges of ``seed``, inclusive) and through
    its ``theory`` (line ranges whose theorem-like statements are ``results``)."""

    seed: str
    sections: tuple[tuple[int, int], ...]
    statements: list[Statement] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    theory: tuple[tuple[int, int], ...] = ()
    results: list[Result] = field(default_factory=list)

    def covered(self) -> set[int]:
        """The line numbers a statement or a skip accounts for."""
        out: set[int] = set()
        for entry in [*self.statements, *self.skips]:
            first, last = entry.lines
            out.update(range(first, last + 1))
        return out


@cache
def seed_lines(seed: str) -> tuple[str, ...]:
    """The lines of ``../shared/seeds/<seed>`` (line ``n`` is element ``n - 1``)."""
    path = SEEDS / seed
    if not path.is_file():
        raise FileNotFoundError(f"seed text {path} not found: the works' texts must lie in ../shared/seeds/")
    return tuple(path.read_text(encoding="utf-8").splitlines())


def ledger(work: str) -> Ledger | None:
    """``safeguarded.<work>.statements.LEDGER``, or ``None`` where the work keeps no ledger yet."""
    if work not in WORKS:
        raise ValueError(f"work must be one of {WORKS}, got work={work!r}")
    try:
        module = importlib.import_module(f"safeguarded.{work}.statements")
    except ModuleNotFoundError as err:
        if err.name == f"safeguarded.{work}.statements":
            return None
        raise
    return module.LEDGER


_DIGIT = re.compile(r"\d")


def uncovered_lines(book: Ledger) -> list[int]:
    """The lines of ``book``'s sections that contain a digit and that no statement or skip covers."""
    text, covered = seed_lines(book.seed), book.covered()
    return [
        n
        for first, last in book.sections
        for n in range(first, last + 1)
        if n <= len(text) and _DIGIT.search(text[n - 1]) and n not in covered
    ]


def result_headers(book: Ledger) -> list[tuple[int, str]]:
    """(line, name) of every statement header (:data:`RESULT_HEADER`) in ``book``'s theory ranges."""
    text = seed_lines(book.seed)
    out = []
    for first, last in book.theory:
        for n in range(first, min(last, len(text)) + 1):
            match = RESULT_HEADER.match(text[n - 1])
            if match:
                out.append((n, f"{match.group(1)} {match.group(2)}"))
    return out


def not_run_rows(work: str, columns: list[str]) -> pd.DataFrame:
    """The ledger's statements we cannot check, as ``inconclusive`` printed rows of ``columns`` (a
    statement spanning a table row keeps its printed cells, tab-separated in the seed, as ``a | b``)."""
    book = ledger(work)
    rows = [
        {
            "work": work,
            "item": s.item,
            "claim": s.says,
            "reference": "printed",
            "location": s.location,
            "paper_value": re.sub(r"\s*\t\s*", " | ", s.paper.strip()),
            "reproduced_value": "",
            "tolerance": "",
            "verdict": "inconclusive",
            "scale": "reduced",
            "runs": "not run",
            "solver": "",
            "note": f"{LEDGER_NOTE}{s.not_run} (statement ledger, src/safeguarded/{work}/statements.py)",
        }
        for s in (book.statements if book else [])
        if s.not_run
    ]
    return pd.DataFrame(rows, columns=columns)
