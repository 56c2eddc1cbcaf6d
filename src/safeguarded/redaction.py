"""What no text a reader sees may show: an absolute path of the machine that ran it.

It lives here, not in :mod:`safeguarded.paths`, because ``paths`` is imported by every sweep cell's code:
its source is part of every cached cell's key (:mod:`safeguarded.experiments`), so an edit there
recomputes every work's cache.
"""

from __future__ import annotations

import re

__all__ = ["MACHINE_PATH", "repository_relative", "scrub_output"]

#: An absolute path of a machine (POSIX home/work/tmp folders, a Windows drive): what no text a reader
#: sees (the site, the claims report, a ledger's reason) may show.
MACHINE_PATH = re.compile(
    r"(?<![\w.])/(?:work|root|home|Users|tmp|var/folders|mnt|opt)/[\w.-]*|\b[A-Z]:\\[\w.-]+\\"
)

#: An absolute path in front of a repository folder (``/home/x/repo/.venv/...``, ``/work/main/figures/``),
#: for a clone anywhere (the site shows notebooks executed on other machines).
_REPOSITORY_PREFIX = re.compile(
    r"(?:[A-Za-z]:)?(?:[/\\][\w.+~-]+)+?[/\\]"
    r"(?=(?:\.venv|src|figures|notebooks|results|build|tests|benchmarks)[/\\])"
)

#: The text kinds of a notebook output that a reader sees.
_TEXT_KINDS = ("text/plain", "text/html", "text/markdown")


def repository_relative(text, root=None):
    """``text`` (a string or a notebook's list of lines) with absolute repository paths made relative:
    the prefix ``root`` (the repository, when given) and any machine prefix in front of a repository
    folder (``/home/me/repo/.venv/...`` becomes ``.venv/...``).  Other values pass unchanged."""
    if isinstance(text, list):
        return [repository_relative(line, root) for line in text]
    if not isinstance(text, str):
        return text
    if root is not None:
        text = text.replace(str(root).rstrip("/\\") + "/", "")
    return _REPOSITORY_PREFIX.sub("", text)


def scrub_output(output: dict, root=None) -> dict:
    """Apply :func:`repository_relative` in place to a notebook output's stream text, text data and
    traceback (no output shows where it ran); returns ``output``."""
    if "text" in output:
        output["text"] = repository_relative(output["text"], root)
    data = output.get("data", {})
    for kind in _TEXT_KINDS:
        if kind in data:
            data[kind] = repository_relative(data[kind], root)
    if "traceback" in output:
        output["traceback"] = repository_relative(output["traceback"], root)
    return output
