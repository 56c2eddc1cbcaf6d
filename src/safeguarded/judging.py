"""Claims protocol v2: verdicts that decide, a cause for every deviation, and the findings page.

:mod:`safeguarded.claims` collects the rows the notebooks register (protocol v1: a tolerance fixed by
rule and a verdict).  This module re-judges those rows under the stricter rules of ``docs/claims.md``
§2a–§2d and attributes a cause to every printed deviation; both steps are pure functions of the stored
row and of the work's registry ``safeguarded.<work>.causes``, so ``make claims`` gives the same report
bytes every time and a reviewer can check each step.

Decisive verdicts (fixed before the re-judged report was first generated)
------------------------------------------------------------------------
* **Monte-Carlo bands** (``band == "monte-carlo"``) need at least :data:`MIN_SAMPLES` samples behind
  the standard error.  With fewer, ``k = 2`` standard errors is not a 95 % band: the band is rebuilt
  with Student's ``t`` quantile for ``n - 1`` degrees of freedom; a value outside it still
  ``deviates``, anything else is ``inconclusive`` (too few samples to tell), never ``reproduced``.
  A standard error of exactly 0 from fewer than :data:`MIN_SAMPLES` samples is no band at all:
  ``inconclusive``.
* **A band too wide to fail** does not reproduce: a Monte-Carlo ``reproduced`` whose half-width
  exceeds :data:`MAX_RELATIVE_BAND` of the work's value is ``inconclusive``.
* **The printed digits, literally.**  A tolerance widened because of how the work prints ("the table
  prints five significant figures") is not a solver's accuracy: the band is half a unit of the last
  printed digit.
* **The band rule, for every band** (§2d): whatever fixed the band, a ``reproduced`` whose band exceeds
  half a printed unit by more than :data:`MAX_RELATIVE_BAND` of the work's value is ``inconclusive``;
  a value outside the band still ``deviates``.
* **A construction of ours decides nothing**: a deviation whose cause is ``underspecified`` with
  source ``ours:`` compares the work with a choice the work never states, so it is ``inconclusive``.
* **The work's own accuracy.**  Where a work states the accuracy of its printed values (an LP gap, a
  MIP gap), its registry declares an :class:`Accuracy`; the work's value then carries that band, added
  to ours, with the line that states it.

Causes (column ``cause``), a closed set
---------------------------------------
``work-error``       the work is wrong or inconsistent with itself; ``evidence`` names the check (a test
                     id ``tests/…::…`` or a notebook section ``notebooks/….ipynb#…``) that would fail
                     if the work were right;
``underspecified``   the work does not state what is needed; ``evidence`` starts with the source of our
                     choice (``text:``, ``authors-code:`` or ``ours:``) and names the choice;
``substitute-data``  the work's data are not available; ours is a labelled substitute;
``scale``            our reduced run (``runs`` says by how much);
``solver``           a solver status or accuracy limit, with the status in ``evidence``;
``unexplained``      an honest "we do not know yet".
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
from dataclasses import dataclass, field

import pandas as pd

from safeguarded.claim_rules import (
    CANNOT_REFUTE_PREFIX,
    FITTED_PREFIX,
    RECOVERED_PREFIX,
    fmt,
    printed_tolerance,
    recovered_parts,
)

__all__ = [
    "Accuracy",
    "CAUSES",
    "Cause",
    "Finding",
    "MAX_RELATIVE_BAND",
    "MIN_SAMPLES",
    "PROTOCOL",
    "Rules",
    "V2_COLUMNS",
    "band_kind",
    "cause_counts",
    "findings_markdown",
    "judge",
    "RECOVERED_MIN_HITS",
    "RECOVERY_MIN_ROWS",
    "recovered_groups",
    "recovery_groups",
    "count_changes",
    "headline_in_words",
    "registry",
    "samples_of",
    "sensitivity_markdown",
    "sensitivity_table",
    "validate_causes",
    "validate_recovered",
    "verdict_in_words",
]

CAUSES = ("work-error", "underspecified", "substitute-data", "scale", "solver", "unexplained")
UNDERSPECIFIED_SOURCES = ("text", "authors-code", "ours")
BANDS = ("digits", "monte-carlo", "solver", "work-accuracy", "")

#: Samples behind a standard error below which ``k = 2`` is not a 95 % band (docs/claims.md §2a).
MIN_SAMPLES = 10
#: Largest Monte-Carlo half-width, as a fraction of the work's value, that can reproduce (§2b).
MAX_RELATIVE_BAND = 0.10
#: The ``k`` of the v1 Monte-Carlo rule every notebook states (``ClaimSet(k=2.0)``).
V1_K = 2.0
#: The band of a printed number, in units of its last printed digit (half a unit, §2).
DIGITS_UNITS = 0.5
#: The references judged as printed numbers: the printed rows and the recovered rows beside them (§7).
_JUDGED = ("printed", "recovered")
#: Share of a recovered computation's rows that must reproduce their printed values for it to be registered.
RECOVERED_MIN_HITS = 0.8


@dataclass(frozen=True)
class Rules:
    """The protocol's parameters, for re-judging the report under other rules (:func:`judge`).

    ``k``
        standard errors in a Monte-Carlo band: the v1 band ``V1_K·se + half a unit`` is rebuilt as
        ``k·se + digits``; a Student *t* band (fewer than ``min_samples`` samples) is scaled by ``k / V1_K``;
    ``band_limit``
        the largest band, beyond the printed digits, that can reproduce, as a fraction of the work's value
        (§2b, §2d);
    ``digits_units``
        the band a printed number's own digits allow, in units of its last digit (0.5: half a unit);
    ``min_samples``
        samples behind a standard error below which the band is rebuilt with *t* (§2a).

    The defaults (:data:`PROTOCOL`) are the protocol's; under them a row's verdict is never re-decided
    from its rounded values, so :func:`judge` gives the committed report.
    """

    k: float = V1_K
    band_limit: float = MAX_RELATIVE_BAND
    digits_units: float = DIGITS_UNITS
    min_samples: int = MIN_SAMPLES

    def __post_init__(self):
        for name in ("k", "band_limit", "digits_units"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number, got {name}={value!r}")
        if not (isinstance(self.min_samples, int) and self.min_samples >= 2):
            raise ValueError(f"min_samples must be an integer >= 2, got min_samples={self.min_samples!r}")

    def label(self) -> str:
        """The rules in words, e.g. ``k = 3, band limit 25 %, digits ±1 unit``."""
        text = f"k = {self.k:g}, band limit {self.band_limit:.0%}, digits ±{_units_words(self.digits_units)}"
        return text + (f", min samples {self.min_samples}" if self.min_samples != MIN_SAMPLES else "")


#: The protocol's own rules (docs/claims.md §2–§2d).
PROTOCOL = Rules()

#: Columns the re-judged report adds to :data:`safeguarded.claims.COLUMNS`.
V2_COLUMNS = ["band", "samples", "cause", "why", "evidence"]

_CHECK = re.compile(r"(tests/[\w./-]+\.py::\w+|notebooks/[\w.-]+\.ipynb#[\w.-]+)")
_SAMPLES = re.compile(
    r"(?P<n>\d[\d,]*)[ -](?:splits?|simulations?|sims|seeds?|(?:noise |intervention )?draws|fold|instances)\b"
)
_SOLVER_NOTE = re.compile(r"(?:^|; )tolerance \S+ from ")  # first, or after a fitted declaration
#: A "solver tolerance" whose reason is how the work prints (v1 convex_max: "five significant figures"):
#: the printed digits fix the band literally (§2c), so it reverts to half a unit of the last digit.
_PRINTING_NOTE = re.compile(r"(?:^|; )tolerance \S+ from the table prints ")
_V2_NOTE = "v2: "


@dataclass(frozen=True)
class Cause:
    """Why a group of printed deviations deviates.

    The rule matches a row when the regular expressions ``item``, ``claim`` and ``note`` all search
    successfully in the row's columns of those names; the first matching rule of a work wins.
    ``why`` is the sentence a reviewer reads (with the size), ``evidence`` what makes it checkable
    (see the module docstring), ``finding`` the id of a :class:`Finding` for ``work-error`` rows,
    ``section`` the notebook section that explains the group.  ``tried`` lists the computations tried to
    recover the printed values of the group, one factor varied at a time, each as ``"variant: outcome"``
    with its hit rate under the digits rule (``docs/findings.md``, "What was tried"; issue 53 item 3).
    """

    cause: str
    why: str
    evidence: str
    item: str = ""
    claim: str = ""
    note: str = ""
    finding: str = ""
    section: str = ""
    tried: tuple[str, ...] = ()

    def __post_init__(self):
        if self.cause not in CAUSES:
            raise ValueError(f"cause must be one of {CAUSES}, got cause={self.cause!r}")
        problem = _evidence_problem(self.cause, self.evidence)
        if problem:
            raise ValueError(f"cause {self.why!r}: {problem}")
        if isinstance(self.tried, str) or not all(isinstance(t, str) and t.strip() for t in self.tried):
            raise ValueError(
                f"cause {self.why!r}: tried must be a tuple of non-empty texts, got tried={self.tried!r}"
            )

    def matches(self, row) -> bool:
        return all(
            re.search(pattern, str(row[column]))
            for column, pattern in (("item", self.item), ("claim", self.claim), ("note", self.note))
        )


@dataclass(frozen=True)
class Finding:
    """A place where a work is wrong or inconsistent with itself, for ``docs/findings.md``."""

    id: str
    title: str
    text: str
    evidence: str
    size: str = ""
    claims: tuple[str, ...] = field(default_factory=tuple)  # items affected beyond the work-error rows


@dataclass(frozen=True)
class Accuracy:
    """The work's own stated accuracy of a group of printed values: relative ``rtol`` (e.g. an LP gap
    below 1 %), stated at ``location``; matched like :class:`Cause` on ``item`` and ``claim``."""

    rtol: float
    location: str
    item: str = ""
    claim: str = ""

    def matches(self, row) -> bool:
        return bool(re.search(self.item, str(row["item"])) and re.search(self.claim, str(row["claim"])))


def _evidence_problem(cause: str, evidence: str) -> str:
    evidence = str(evidence or "").strip()
    if not evidence:
        return f"a {cause!r} cause needs its evidence"
    if cause == "work-error" and not _CHECK.search(evidence):
        return (
            "a work-error names the check that would fail if the work were right "
            "(tests/…::… or notebooks/….ipynb#…)"
        )
    if cause == "underspecified" and evidence.split(":", 1)[0] not in UNDERSPECIFIED_SOURCES:
        return f"an underspecified cause names its source first: one of {UNDERSPECIFIED_SOURCES} then ':'"
    if cause == "solver" and "status" not in evidence:
        return "a solver cause names the solver status or accuracy limit ('status …')"
    return ""


def registry(work: str) -> tuple[list[Cause], list[Finding], list[Accuracy]]:
    """The work's causes, findings and stated accuracies (``safeguarded.<work>.causes``; empty if none)."""
    try:
        module = importlib.import_module(f"safeguarded.{work}.causes")
    except ModuleNotFoundError as error:
        if error.name != f"safeguarded.{work}.causes":
            raise
        return [], [], []
    return (
        list(getattr(module, "CAUSES", [])),
        list(getattr(module, "FINDINGS", [])),
        list(getattr(module, "ACCURACY", [])),
    )


# --------------------------------------------------------------------------------------------------
# the decisive rules


def _float(text) -> float | None:
    try:
        value = float(str(text).replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def samples_of(runs: str) -> int | None:
    """The samples behind a Monte-Carlo standard error: the first count of splits, simulations, seeds,
    draws, folds or instances that ``runs`` names (``"3 splits x {full, half}"`` -> 3)."""
    match = _SAMPLES.search(str(runs))
    return int(match.group("n").replace(",", "")) if match else None


def band_kind(row) -> str:
    """How the row's tolerance was fixed: ``digits`` (half a printed unit), ``solver`` (a stated solver
    tolerance), ``monte-carlo`` (standard errors; also a decided value whose ``runs`` counts samples but
    whose band is the half unit alone, i.e. a standard error of 0), or ``""`` (not a printed number)."""
    if row["reference"] not in _JUDGED or _float(row["tolerance"]) is None:
        return ""
    if _SOLVER_NOTE.search(str(row["note"])):
        return "solver"
    half = printed_tolerance(str(row["paper_value"]))
    if _float(row["tolerance"]) > half * (1 + 1e-6):
        return "monte-carlo"
    return "monte-carlo" if samples_of(row["runs"]) is not None else "digits"


def _t_quantile(n: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.975, n - 1))


def _digits(paper_value: str, rules: Rules) -> tuple[float, float]:
    """(half a printed unit, the band the printed digits allow under ``rules``)."""
    half = printed_tolerance(str(paper_value))
    return half, half * (rules.digits_units / DIGITS_UNITS)


def _units_words(digits_units: float, noun: str = "unit") -> str:
    """A band of ``digits_units`` units of the last printed digit in words: "half a unit", "1 unit", ..."""
    if digits_units == DIGITS_UNITS:
        return f"half a {noun}"
    return f"{digits_units:g} {noun}" + ("" if digits_units == 1 else "s")


def _base_band(row, kind: str, tol: float, rules: Rules) -> float:
    """The row's v1 band rebuilt under ``rules`` (exactly ``tol`` under the protocol's k and digits): a
    Monte-Carlo band ``V1_K·se + half`` becomes ``k·se + digits``, a digits band ``digits``, a solver band
    the larger of the solver's tolerance and ``digits``."""
    if rules.k == V1_K and rules.digits_units == DIGITS_UNITS:
        return tol
    half, digits = _digits(row["paper_value"], rules)
    if kind == "monte-carlo":
        return rules.k * max(tol - half, 0.0) / V1_K + digits
    if kind == "solver":
        return max(tol, digits)
    return digits


def rejudge(row, accuracy: Accuracy | None = None, rules: Rules = PROTOCOL) -> tuple[str, str, str]:
    """(verdict, tolerance, reason) of a printed numeric row under the v2 rules with the parameters
    ``rules`` (default: the protocol's); reason '' if unchanged."""
    verdict, tol_text = row["verdict"], row["tolerance"]
    if row["reference"] not in _JUDGED or verdict not in ("reproduced", "deviates"):
        return verdict, tol_text, ""
    paper, ours, tol = (_float(row[c]) for c in ("paper_value", "reproduced_value", "tolerance"))
    if None in (paper, ours, tol):
        return verdict, tol_text, ""
    new, band, why, source = _decisive(row, accuracy, verdict, paper, ours, tol, rules)
    if new == "deviates" and _note_body(row["note"]).startswith(CANNOT_REFUTE_PREFIX):  # §2e: confirms only
        return "inconclusive", fmt(band), f"outside the band ±{fmt(band)}, which cannot refute"
    _, digits = _digits(row["paper_value"], rules)
    if new == "reproduced" and band - digits > rules.band_limit * abs(paper) * (1 + 1e-9):
        share = (band - digits) / abs(paper) if paper else math.inf
        share = f"{share:.0%} of" if math.isfinite(share) else "more than"
        digits_words = _units_words(rules.digits_units, "printed unit")
        return (
            "inconclusive",
            fmt(band),
            (
                f"{source}: ±{fmt(band - digits)} beyond {digits_words} is {share} the value "
                f"{row['paper_value']} (> {rules.band_limit:.0%}): too wide to tell"
            ),
        )
    return new, (tol_text if band == tol else fmt(band)), why


def _decisive(
    row, accuracy, verdict, paper, ours, tol, rules: Rules = PROTOCOL
) -> tuple[str, float, str, str]:
    """(verdict, band, reason, the band's source in words) under §2a–§2c, before the band rule §2d."""
    tol_text = row["tolerance"]
    relation = re.search(r"\((<=|>=) paper value\)$", str(row["claim"]))
    relation = relation.group(1) if relation else "=="

    def decide(band: float) -> str:
        ok = {"==": abs(ours - paper) <= band, "<=": ours <= paper + band, ">=": ours >= paper - band}
        return "reproduced" if ok[relation] else "deviates"

    def redecide(band: float) -> str:
        """The verdict under another band than the row's own ``tol``: a wider band keeps a reproduced row
        reproduced, a narrower one keeps a deviation (decided on the full-precision value, which the
        row's rounded one may not resolve); only the other direction is decided on the row's value."""
        if (verdict == "reproduced" and band >= tol) or (verdict == "deviates" and band <= tol):
            return verdict
        return decide(band)

    kind = band_kind(row)
    base = _base_band(row, kind, tol, rules)
    if accuracy is not None:
        band = base + accuracy.rtol * abs(paper)
        new = decide(band)
        why = (
            f"the work's stated accuracy ({accuracy.location}) allows ±{fmt(accuracy.rtol * abs(paper))}: "
            f"band ±{fmt(band)}"
        )
        source = (
            f"the band (ours ±{fmt(base)} plus the work's stated accuracy "
            f"±{fmt(accuracy.rtol * abs(paper))}, {accuracy.location})"
        )
        return new, band, (why if new != verdict else ""), source
    half, digits = _digits(row["paper_value"], rules)
    if kind == "solver" and _PRINTING_NOTE.search(str(row["note"])):
        new = decide(digits)
        return new, digits, f"the printed digits fix the band literally: ±{fmt(digits)}, not ±{tol_text}", ""
    rebuilt = f"band ±{fmt(base)} under {rules.label()}"
    if kind != "monte-carlo":
        source = "the solver's accuracy band" if kind == "solver" else "the band"
        if base == tol:
            return verdict, tol, "", source
        new = redecide(base)
        return new, base, (rebuilt if new != verdict else ""), source
    n = samples_of(row["runs"])
    se = max(tol - half, 0.0) / V1_K
    if n is not None and n < rules.min_samples:
        if se == 0 or n < 2:
            return "inconclusive", tol, f"a standard error of {se:g} from {n} samples is no band", ""
        band = (rules.k / V1_K) * _t_quantile(n) * se + digits
        new = decide(band)
        if new == "reproduced":
            return (
                "inconclusive",
                band,
                f"{n} < {rules.min_samples} samples: too few to tell (t band {fmt(band)})",
                "",
            )
        return new, band, f"{n} < {rules.min_samples} samples: band rebuilt with t({n - 1}) quantile", ""
    new = redecide(base)
    if new == "reproduced" and base > rules.band_limit * abs(paper):
        share = base / abs(paper) if paper else math.inf
        return (
            "inconclusive",
            base,
            (f"band ±{fmt(base)} is {share:.0%} of the value (> {rules.band_limit:.0%}): too wide to tell"),
            "",
        )
    return new, base, (rebuilt if new != verdict else ""), "the Monte-Carlo band"


def _note_body(note) -> str:
    """A note without a recovered row's leading ``recovered: <variant>; `` (the printed row's note)."""
    note = str(note)
    if note.startswith(RECOVERED_PREFIX):
        return note.split("; ", 1)[1] if "; " in note else ""
    return note


def _attribute(row, causes: list[Cause]) -> Cause | None:
    return next((c for c in causes if c.matches(row)), None)


def judge(table: pd.DataFrame, rules: Rules = PROTOCOL) -> pd.DataFrame:
    """The v1 rows re-judged under v2 (with the parameters ``rules``, default the protocol's) and, for every
    printed deviation, its cause (columns :data:`V2_COLUMNS` added; a changed verdict says why at the start
    of its note)."""
    table = table.copy()
    out = {c: [] for c in ["verdict", "tolerance", "note", *V2_COLUMNS]}
    registries = {work: registry(work) for work in table["work"].unique()}
    for row in table.to_dict("records"):  # plain dicts: the registries' rules read them fast
        causes, _, accuracies = registries[row["work"]]
        # a recovered row takes its printed row's accuracy: matched on the printed row's claim
        recovered = row["reference"] == "recovered"
        beside = {**row, "claim": recovered_parts(row["claim"])[0]} if recovered else row
        accuracy = (
            next((a for a in accuracies if a.matches(beside)), None) if row["reference"] in _JUDGED else None
        )
        verdict, tol, reason = rejudge(row, accuracy, rules)
        note = row["note"]
        if reason:
            changed = f"was {row['verdict']}; " if verdict != row["verdict"] else ""
            note = _with_v2_reason(note, changed + reason)
        band = band_kind(row) if accuracy is None else "work-accuracy"
        samples = samples_of(row["runs"]) if band == "monte-carlo" else None
        row = {**row, "verdict": verdict, "note": note}
        cause = _attribute(row, causes) if verdict == "deviates" and row["reference"] == "printed" else None
        if cause is not None and _against_ours(cause):
            verdict = "inconclusive"
            note = _with_v2_reason(
                note,
                "was deviates; compared with a construction of ours where the work states none "
                f"({cause.why}): decides nothing about the work",
            )
        for column, value in (
            ("verdict", verdict),
            ("tolerance", tol),
            ("note", note),
            ("band", band),
            ("samples", "" if samples is None else str(samples)),
            ("cause", cause.cause if cause else ""),
            ("why", cause.why if cause else ""),
            ("evidence", cause.evidence if cause else ""),
        ):
            out[column].append(value)
    for column, values in out.items():
        table[column] = values
    return table


def _against_ours(cause: Cause) -> bool:
    """An ``underspecified`` cause whose choice is ours (source ``ours:``): the row compares the work with
    a construction the work never states, so it cannot deviate from the work (docs/claims.md §7)."""
    return cause.cause == "underspecified" and cause.evidence.startswith("ours:")


def _with_v2_reason(note: str, reason: str) -> str:
    """The note with a v2 reason: first, except after a fitted or recovered declaration (such rows never
    count)."""
    if note.startswith((FITTED_PREFIX, RECOVERED_PREFIX)):
        return f"{note}; {_V2_NOTE}{reason}"
    return f"{_V2_NOTE}{reason}" + (f"; {note}" if note else "")


def validate_causes(table: pd.DataFrame) -> list[str]:
    """Every printed deviation at paper or reduced scale without a cause (or with a cause whose evidence
    breaks the rules), as messages naming the row."""
    problems = []
    rows = table[
        (table["reference"] == "printed") & (table["verdict"] == "deviates") & (table["scale"] != "smoke")
    ]
    for _, row in rows.iterrows():
        where = f"{row['work']} / {row['item']} / {row['claim']!r}"
        if row["cause"] not in CAUSES:
            problems.append(
                f"{where}: a printed deviation needs a cause in {CAUSES}: add a rule to "
                f"src/safeguarded/{row['work']}/causes.py (an honest 'unexplained' is allowed)"
            )
            continue
        problem = _evidence_problem(row["cause"], row["evidence"])
        if problem:
            problems.append(f"{where}: {problem}")
    return problems


# --------------------------------------------------------------------------------------------------
# the words a reviewer reads


def _counted(t: pd.DataFrame) -> pd.DataFrame:
    return t[
        (t["reference"] == "printed") & (t["scale"] != "smoke") & ~t["note"].str.startswith(FITTED_PREFIX)
    ]


def cause_counts(t: pd.DataFrame) -> str:
    """The counted printed deviations split by cause, e.g. ``"work-error 12 · underspecified 40"``."""
    dev = _counted(t)
    dev = dev[dev["verdict"] == "deviates"]
    parts = []
    for cause in CAUSES:
        rows = dev[dev["cause"] == cause]
        if len(rows):
            parts.append(f"{cause} {len(rows)}")
    missing = int((~dev["cause"].isin(CAUSES)).sum())
    if missing:
        parts.append(f"no cause {missing}")
    return " · ".join(parts) if parts else "–"


def _overall(reproduced: int, deviates: int, inconclusive: int) -> str:
    """The verdict in one phrase, from the counted printed numbers: all decided ones reproduce ->
    "reproduces"; at least half -> "reproduces in part"; fewer -> "reproduces in small part"; none ->
    "does not reproduce as printed"."""
    decided = reproduced + deviates
    if decided == 0:
        return "cannot be judged yet" if inconclusive else "states no printed number we check"
    if deviates == 0:
        return "reproduces"
    share = reproduced / decided
    if share >= 0.5:
        return "reproduces in part"
    return "reproduces in small part" if reproduced else "does not reproduce as printed"


_SIDES = (
    ("work-error", "the work's own errors"),
    ("underspecified", "choices the work does not fix"),
    ("substitute-data", "substitute data"),
    ("scale", "our reduced runs"),
    ("solver", "solver accuracy"),
    ("unexplained", "unexplained"),
)


def verdict_in_words(t: pd.DataFrame, work: str, sections: dict[str, str] | None = None) -> list[str]:
    """The opening of ``figures/<work>/CLAIMS.md``: one line of verdict, the deviations grouped by cause
    (largest groups first, each with its count, its reason and where it is explained), the recovered
    computations with their hit rates, then the inconclusive rows grouped by their reason."""
    counted = _counted(t)
    r, d, i = (int((counted["verdict"] == v).sum()) for v in ("reproduced", "deviates", "inconclusive"))
    scales = "/".join(s for s in ("paper", "reduced") if (counted["scale"] == s).any()) or "–"
    dev = counted[counted["verdict"] == "deviates"]
    line = (
        f"**{work} {_overall(r, d, i)}**: of its printed numbers, {r} reproduced, {d} deviate, "
        f"{i} inconclusive (scale {scales})."
    )
    if i > r + d:
        line += f" Most of them ({i} of {r + d + i}) cannot be judged yet: the reasons are listed below."
    sides = [f"{int((dev['cause'] == c).sum())} {label}" for c, label in _SIDES if (dev["cause"] == c).any()]
    if sides:
        line += f" The {d} deviations: " + ", ".join(sides) + "."
    lines = ["## Verdict", "", line, ""]
    if len(dev):
        lines += ["### Deviations by cause", "", "| rows | cause | why | evidence |", "|---:|---|---|---|"]
        groups = dev.assign(cause=dev["cause"].replace("", "no cause")).groupby(
            ["cause", "why", "evidence"], sort=False
        )
        for (cause, why, evidence), rows in sorted(groups, key=lambda kv: -len(kv[1])):
            lines.append(f"| {len(rows)} | `{cause}` | {_cell(why) or '–'} | {_cell(evidence) or '–'} |")
        lines.append("")
    lines += [line.replace("](claims.md", "](../../docs/claims.md") for line in _recovered_lines(t)]
    inc = counted[counted["verdict"] == "inconclusive"]
    if len(inc):
        reasons = inc["note"].map(_inconclusive_reason)
        lines += ["### Inconclusive, by reason", "", "| rows | reason |", "|---:|---|"]
        for reason, n in reasons.value_counts().items():
            lines.append(f"| {n} | {_cell(reason)} |")
        lines.append("")
    return lines


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d.,]*(?:e[-+]?\d+)?%?")


def _inconclusive_reason(note: str) -> str:
    """The rule behind an inconclusive row, with its numbers masked (``#``) so that rows group by rule."""
    note = str(note)
    if note.startswith(_V2_NOTE):
        parts = [p.strip() for p in note[len(_V2_NOTE) :].split(";")]
        parts = [p for p in parts if not p.startswith("was ")][:1]
        return "protocol v2: " + _NUMBER.sub("#", parts[0]) if parts else "protocol v2"
    if note.startswith("no reproduced value"):
        rest = [p.strip() for p in note.split(";")[1:3]]
        return "not computed" + (": " + _NUMBER.sub("#", "; ".join(rest))[:160] if rest else "")
    if note.startswith("no standard error"):
        return "no standard error (a single run)"
    return _NUMBER.sub("#", note)[:160] or "–"


def findings_markdown(table: pd.DataFrame, works) -> str:
    """``docs/findings.md``: every place where a work is wrong or inconsistent with itself, with its
    evidence, its size and the claims it affects (the ``work-error`` rows), one section per finding."""
    lines = [
        "# Findings: where the works are wrong or inconsistent with themselves",
        "",
        "Generated by `make claims` from the works' registries (`src/safeguarded/<work>/causes.py`) and",
        "the `work-error` rows of the claims report; do not edit by hand. Each finding names the check",
        "that would fail if the work were right, so a reviewer can rerun it. Protocol:",
        "[the claims protocol](claims.md).",
        "",
    ]
    any_finding = False
    for work in works:
        causes, findings, _ = registry(work)
        if not findings:
            continue
        any_finding = True
        lines += [f"## {work}", ""]
        t = table[table["work"] == work]
        for finding in findings:
            ids = {c.why for c in causes if c.finding == finding.id}
            rows = t[(t["cause"] == "work-error") & t["why"].isin(ids)]
            lines += [f"### {finding.title}", "", finding.text, "", f"* **Evidence:** {finding.evidence}"]
            if finding.size:
                lines.append(f"* **Size:** {finding.size}")
            affected = sorted(set(rows["item"]) | set(finding.claims))
            plural = "s" if len(rows) != 1 else ""
            marked = f"{len(rows)} printed number{plural} marked `work-error`"
            marked = marked if len(rows) else "no printed number"
            lines.append(
                f"* **Claims affected:** {marked}"
                + (f"; items {', '.join(affected)}" if affected else "")
                + f"; see [{work}'s claims](../figures/{work}/CLAIMS.md)."
            )
            lines.append("")
    if not any_finding:
        lines += ["No finding has been registered yet.", ""]
    lines += _recovery_lines(recovery_groups(table, works))
    lines += _recovered_lines(table[table["work"].isin(list(works))], heading="##")
    return "\n".join(lines)


#: A group of printed deviations with one cause is searched for the computation behind the printed values
#: (issue 53 item 3) once it has at least this many counted rows.
RECOVERY_MIN_ROWS = 5


def recovery_groups(table: pd.DataFrame, works, min_rows: int = RECOVERY_MIN_ROWS) -> pd.DataFrame:
    """The groups of counted printed deviations that one cause rule explains, with at least ``min_rows``
    rows: columns ``work``, ``cause``, ``why``, ``rows``, ``items`` and ``tried`` (the rule's tuple; empty
    where nothing has been tried yet), largest group first within each work in ``works`` order."""
    if not (isinstance(min_rows, int) and min_rows >= 1):
        raise ValueError(f"min_rows must be an integer >= 1, got min_rows={min_rows!r}")
    deviations = _counted(table)
    deviations = deviations[deviations["verdict"] == "deviates"]
    rows = []
    for work in works:
        causes, _, _ = registry(work)
        t = deviations[deviations["work"] == work]
        seen = set()
        for cause in causes:  # rules that share their reason (several matchers) are one group
            if (cause.cause, cause.why) in seen:
                continue
            seen.add((cause.cause, cause.why))
            tried = tuple(dict.fromkeys(t for c in causes if (c.cause, c.why) == (cause.cause, cause.why)
                                        for t in c.tried))
            group = t[(t["cause"] == cause.cause) & (t["why"] == cause.why)]
            if len(group) >= min_rows:
                items = ", ".join(sorted(set(group["item"])))
                rows.append(dict(work=work, cause=cause.cause, why=cause.why, rows=len(group), items=items,
                                 tried=tried))
    columns = ["work", "cause", "why", "rows", "items", "tried"]
    out = pd.DataFrame(rows, columns=columns)
    if out.empty:
        return out
    order = {w: i for i, w in enumerate(works)}
    out = out.assign(_w=out["work"].map(order))
    out = out.sort_values(["_w", "rows"], ascending=[True, False], kind="stable")
    return out.drop(columns="_w").reset_index(drop=True)


def recovered_groups(table: pd.DataFrame) -> pd.DataFrame:
    """The recovered computations of the judged report ``table``: per work and variant (its ``recovered`` rows
    at paper or reduced scale), columns ``work``, ``variant``, ``items``, ``rows``, ``hits`` (rows whose
    value reproduces the printed one under the printed row's rule), ``rate`` and ``printed`` (the verdicts of
    the printed rows beside them, e.g. ``"deviates 9 · reproduced 4"``), in the table's order."""
    if not isinstance(table, pd.DataFrame) or not {"work", "item", "claim", "reference", "verdict",
                                                   "scale"} <= set(table.columns):
        raise ValueError("table must be a claims report (a DataFrame with the columns work, item, claim, "
                         f"reference, verdict, scale), got {type(table).__name__}")
    columns = ["work", "variant", "items", "rows", "hits", "rate", "printed"]
    rows = table[(table["reference"] == "recovered") & (table["scale"] != "smoke")]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    parts = [recovered_parts(c) for c in rows["claim"]]
    rows = rows.assign(_printed=[p for p, _ in parts], _variant=[v for _, v in parts])
    printed = table[table["reference"] == "printed"].drop_duplicates(["work", "item", "claim"])
    printed = printed.set_index(["work", "item", "claim"])["verdict"]
    out = []
    for (work, variant), group in rows.groupby(["work", "_variant"], sort=False):
        beside = [printed.get((work, item, claim), "not registered")
                  for item, claim in zip(group["item"], group["_printed"], strict=True)]
        hits = int((group["verdict"] == "reproduced").sum())
        out.append(dict(work=work, variant=variant, items=", ".join(dict.fromkeys(group["item"])),
                        rows=len(group), hits=hits, rate=hits / len(group),
                        printed=" · ".join(f"{v} {n}" for v, n in pd.Series(beside).value_counts().items())))
    return pd.DataFrame(out, columns=columns)


def validate_recovered(table: pd.DataFrame) -> list[str]:
    """Every recovered computation of the judged report whose rows reproduce fewer than
    :data:`RECOVERED_MIN_HITS` of their printed values (it is then not a recovery: leave it to the cause's
    ``tried``), as messages."""
    groups = recovered_groups(table)
    return [f"{g.work}: the recovered computation {g.variant!r} reproduces {g.hits} of its {g.rows} printed "
            f"rows ({g.rate:.0%} < {RECOVERED_MIN_HITS:.0%}): not registered as recovered; list it in the "
            "cause's tried entries instead (docs/claims.md §7)"
            for g in groups.itertuples() if g.rate < RECOVERED_MIN_HITS]


def _recovered_lines(table: pd.DataFrame, heading: str = "###") -> list[str]:
    """The recovered computations in words, one bullet each with its hit rate (none: no lines)."""
    groups = recovered_groups(table)
    if groups.empty:
        return []
    lines = [f"{heading} Recovered computations", "",
             "Variants that reproduce the printed values under the printed rows' own rules (reference "
             "`recovered`, counted apart from the printed rows, whose verdicts and causes stay as they are; "
             f"registered when at least {RECOVERED_MIN_HITS:.0%} of a variant's rows reproduce, "
             "[docs/claims.md §7](claims.md)):", ""]
    lines += [f"* **{g.work}** ({g.items}): {g.variant}: **{g.hits} of {g.rows}** printed values reproduced "
              f"({g.rate:.0%}); the printed rows beside them: {g.printed}" for g in groups.itertuples()]
    return lines + [""]


def _recovery_lines(groups: pd.DataFrame) -> list[str]:
    lines = [
        "## What was tried to recover the printed values",
        "",
        f"Every group of at least {RECOVERY_MIN_ROWS} printed deviations that one cause explains, with the",
        "computations tried to produce the printed numbers (what the text leaves open or gets wrong, varied",
        "one factor at a time and judged under the same digits rule). A variant that reproduces a group is",
        "registered as its own reference kind and named here with its hit rate.",
        "",
    ]
    if groups.empty:
        return lines + ["No such group.", ""]
    untried = int((groups["tried"].map(len) == 0).sum())
    lines += [f"{len(groups)} groups; {untried} with nothing recorded as tried yet.", ""]
    for work, part in groups.groupby("work", sort=False):
        lines += [f"### {work}", ""]
        for g in part.itertuples(index=False):
            lines.append(f"* **{g.rows} rows, `{g.cause}`** ({g.items}): {g.why}")
            if g.tried:
                lines += [f"  * tried: {t}" for t in g.tried]
            else:
                lines.append("  * tried: nothing recorded yet")
        lines.append("")
    return lines


# --------------------------------------------------------------------------------------------------
# verdicts under other rules: the report re-judged without rerunning anything

#: The printed verdicts a headline counts, in the order tables show them.
PRINTED_VERDICTS = ("reproduced", "deviates", "inconclusive")

#: The rule variants of the sensitivity table (docs/claims.md): each parameter at the protocol's value and
#: at one other, every combination.
SENSITIVITY_GRID = {
    "k": (V1_K, 3.0), "band_limit": (MAX_RELATIVE_BAND, 0.25), "digits_units": (DIGITS_UNITS, 1.0)
}


def v1_rows(figures=None, *, statements: bool | None = None) -> pd.DataFrame:
    """The rows as the notebooks registered them (protocol v1, before :func:`judge`), the input of the
    report: every fragment ``figures/<work>/claims/*.csv`` in work then file order (as
    :func:`safeguarded.claims.collect` reads them; the committed ones were validated by ``make claims``)
    and, with ``statements`` (default: when ``figures`` is the repository's), the statement ledgers'
    unchecked statements (always ``inconclusive``, without a value: no rule moves them)."""
    from pathlib import Path

    from safeguarded.paths import FIGURES, WORKS
    from safeguarded.statements import not_run_rows

    figures = Path(FIGURES if figures is None else figures)
    frames = [pd.read_csv(path, dtype=str, keep_default_na=False)
              for work in WORKS for path in sorted((figures / work / "claims").glob("*.csv"))]
    if not frames:
        raise FileNotFoundError(f"no claim fragments under {figures}/<work>/claims/: run the notebooks first")
    table = pd.concat(frames, ignore_index=True)
    columns = list(frames[0].columns)
    if statements is None:
        statements = figures.resolve() == FIGURES.resolve()
    if statements:
        ledgers = [not_run_rows(work, columns) for work in WORKS]
        table = pd.concat([table, *[f for f in ledgers if not f.empty]], ignore_index=True)
    return table[columns]


def printed_counts(table: pd.DataFrame, works=None) -> pd.DataFrame:
    """Per work (rows, in ``works`` order, default the works present): the counted printed numbers
    (non-smoke, not fitted) by verdict, columns :data:`PRINTED_VERDICTS`."""
    counted = _counted(table)
    works = list(dict.fromkeys(table["work"])) if works is None else list(works)
    counts = counted.groupby(["work", "verdict"]).size().unstack(fill_value=0)
    return counts.reindex(index=works, columns=list(PRINTED_VERDICTS), fill_value=0).fillna(0).astype(int)


def count_changes(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """How each work's counted printed verdicts move from ``before`` to ``after`` (the same rows judged
    under two sets of rules, in the same order): per work, each verdict's count ``before → after (±n)`` and
    the moves between verdicts (``reproduced → deviates 3``)."""
    if len(before) != len(after) or not (before["work"].to_numpy() == after["work"].to_numpy()).all():
        raise ValueError("before and after must be the same rows judged twice (same length and order)")
    works = list(dict.fromkeys(before["work"]))
    a, b = printed_counts(before, works), printed_counts(after, works)
    mask = _counted(before).index
    moved = pd.DataFrame({"work": before.loc[mask, "work"], "from": before.loc[mask, "verdict"],
                          "to": after.loc[mask, "verdict"]})
    moved = moved[moved["from"] != moved["to"]]
    rows = []
    for work in works:
        row = {"work": work}
        for verdict in PRINTED_VERDICTS:
            old, new = int(a.at[work, verdict]), int(b.at[work, verdict])
            row[verdict] = f"{old} → {new} ({new - old:+d})" if new != old else f"{old}"
        m = moved[moved["work"] == work].groupby(["from", "to"], sort=False).size()
        row["moves"] = " · ".join(f"{f} → {t} {n}" for (f, t), n in sorted(m.items())) or "–"
        rows.append(row)
    return pd.DataFrame(rows, columns=["work", *PRINTED_VERDICTS, "moves"])


def rule_variants(grid: dict | None = None) -> list[Rules]:
    """Every combination of the values in ``grid`` (default :data:`SENSITIVITY_GRID`), the protocol first."""
    from itertools import product

    grid = SENSITIVITY_GRID if grid is None else grid
    names = list(grid)
    return [Rules(**dict(zip(names, values, strict=True))) for values in product(*(grid[n] for n in names))]


def sensitivity_table(
    v1: pd.DataFrame, variants: list[Rules] | None = None, protocol: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The counted printed numbers by verdict, all works together, under each set of rules (default
    :func:`rule_variants`): one row per variant with its parameters, its counts and how many rows changed
    verdict from the protocol's. ``protocol``: ``v1`` already judged under :data:`PROTOCOL` (the report
    ``make claims`` writes), so it is not judged again."""
    variants = rule_variants() if variants is None else variants
    base = judge(v1, PROTOCOL) if protocol is None else protocol
    counted = _counted(base).index
    rows = []
    for rules in variants:
        t = base if rules == PROTOCOL else judge(v1, rules)
        totals = printed_counts(t).sum()
        rows.append({"k": rules.k, "band limit": rules.band_limit, "digits (units)": rules.digits_units,
                     **{v: int(totals[v]) for v in PRINTED_VERDICTS},
                     "changed": int((t.loc[counted, "verdict"] != base.loc[counted, "verdict"]).sum())})
    return pd.DataFrame(rows)


def sensitivity_markdown(table: pd.DataFrame) -> str:
    """The sensitivity table as docs/claims.md shows it (the protocol's row in bold)."""
    lines = ["| k | band limit | digits | reproduced | deviates | inconclusive | rows changed |",
             "|---:|---:|---|---:|---:|---:|---:|"]
    for r in table.itertuples(index=False):
        protocol = (r.k, r[1], r[2]) == (V1_K, MAX_RELATIVE_BAND, DIGITS_UNITS)
        digits = _units_words(r[2])
        cells = [f"{r.k:g}", f"{r[1]:.0%}", digits, f"{r.reproduced:,}", f"{r.deviates:,}",
                 f"{r.inconclusive:,}", f"{r.changed:,}"]
        if protocol:
            cells = [f"**{c}**" for c in cells[:-1]] + ["– (the protocol)"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: The causes as a headline over all works names them.
_SIDES_ALL = (
    ("work-error", "the works' own errors"),
    ("underspecified", "choices the works do not fix"),
    ("substitute-data", "substitute data"),
    ("scale", "our reduced runs"),
    ("solver", "solver accuracy"),
    ("unexplained", "unexplained"),
)


def headline_in_words(table: pd.DataFrame, works) -> str:
    """The report's verdict in two sentences, from the counted printed numbers of ``table`` (the judged
    report): how many reproduce, deviate (by cause) and are inconclusive, then each work's verdict in the
    words of its own report (:func:`verdict_in_words`)."""
    counted = _counted(table)
    n = {v: int((counted["verdict"] == v).sum()) for v in PRINTED_VERDICTS}
    dev = counted[counted["verdict"] == "deviates"]
    causes = [f"{int((dev['cause'] == c).sum()):,} {label}"
              for c, label in _SIDES_ALL if (dev["cause"] == c).any()]
    per_work = []
    for work in [w for w in works if w in set(table["work"])]:
        c = counted[counted["work"] == work]
        r, d, i = (int((c["verdict"] == v).sum()) for v in PRINTED_VERDICTS)
        per_work.append(f"{work} {_overall(r, d, i)}" + (f" ({r} of {r + d})" if r + d else ""))
    decided = n["reproduced"] + n["deviates"]
    share = f", {n['reproduced'] / decided:.0%} of those decided" if decided else ""
    return (
        f"Of the {sum(n.values()):,} printed numbers the report checks, **{n['reproduced']:,} reproduce** "
        f"within their band{share}; **{n['deviates']:,} deviate** ({', '.join(causes) or 'no cause'}); "
        f"**{n['inconclusive']:,} are inconclusive** (too few samples, a band too wide to tell, a comparison "
        "with a construction of ours, or no value computed here). Per work, reproduced of those decided: "
        + "; ".join(per_work) + "."
    )


def main(argv=None) -> int:
    """``python -m safeguarded.judging --k 3 --band-limit 0.25 --digits-units 1``: the committed report
    re-judged under other rules, nothing rerun; prints each work's counts under the protocol and under the
    rules given, and the moves between verdicts."""
    from pathlib import Path

    from safeguarded.paths import FIGURES

    parser = argparse.ArgumentParser(
        prog="python -m safeguarded.judging",
        description="Re-judge the claims report under other protocol parameters (nothing is rerun: the rows "
        "the notebooks registered, figures/<work>/claims/*.csv, are judged again) and print how each work's "
        "counted printed numbers move.",
        epilog="Defaults are the protocol's (docs/claims.md): --k 2 --band-limit 0.1 --digits-units 0.5 "
        "--min-samples 10. Under them the counts are the committed report's.",
    )
    parser.add_argument("--k", type=float, default=PROTOCOL.k,
                        help="standard errors in a Monte-Carlo band (default %(default)g)")
    parser.add_argument("--band-limit", type=float, default=PROTOCOL.band_limit,
                        help="largest band beyond the printed digits that can reproduce, as a fraction of "
                        "the work's value (default %(default)g)")
    parser.add_argument("--digits-units", type=float, default=PROTOCOL.digits_units,
                        help="band of a printed number in units of its last digit "
                        "(default %(default)g: half)")
    parser.add_argument("--min-samples", type=int, default=PROTOCOL.min_samples,
                        help="samples below which a Monte-Carlo band is rebuilt with t "
                        "(default %(default)d)")
    parser.add_argument("--figures", type=Path, default=FIGURES,
                        help="the report's folder (default figures/)")
    args = parser.parse_args(argv)
    try:
        rules = Rules(args.k, args.band_limit, args.digits_units, args.min_samples)
    except ValueError as error:
        parser.error(str(error))
    v1 = v1_rows(args.figures)
    protocol = judge(v1, PROTOCOL)
    committed_csv = Path(args.figures) / "claims.csv"
    if committed_csv.is_file():
        committed = pd.read_csv(committed_csv, dtype=str, keep_default_na=False)
        works = list(dict.fromkeys(committed["work"]))
        if not printed_counts(committed).equals(printed_counts(protocol, works)):
            print(f"note: {committed_csv} differs from the fragments judged under the protocol: "
                  "run make claims")
    after = protocol if rules == PROTOCOL else judge(v1, rules)
    print(f"protocol: {PROTOCOL.label()}\nrules:    {rules.label()}\n")
    changes = count_changes(protocol, after)
    before_totals, after_totals = printed_counts(protocol).sum(), printed_counts(after).sum()
    totals = {v: (int(before_totals[v]), int(after_totals[v])) for v in PRINTED_VERDICTS}
    total_row = {"work": "all", "moves": "",
                 **{v: f"{a} → {b} ({b - a:+d})" if a != b else f"{a}" for v, (a, b) in totals.items()}}
    print(pd.concat([changes, pd.DataFrame([total_row])], ignore_index=True).to_markdown(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
