"""What no text a reader sees may show: an absolute path of the machine that ran it.

It lives here, not in :mod:`safeguarded.paths`, because ``paths`` is imported by every sweep cell's code:
its source is part of every cached cell's key (:mod:`safeguarded.experiments`), so an edit there
recomputes every work's cache.
"""

from __future__ import annotations

import re

__all__ = ["MACHINE_PATH"]

#: An absolute path of a machine (POSIX home/work/tmp folders, a Windows drive): what no text a reader
#: sees (the site, the claims report, a ledger's reason) may show.
MACHINE_PATH = re.compile(
    r"(?<![\w.])/(?:work|root|home|Users|tmp|var/folders|mnt|opt)/[\w.-]*|\b[A-Z]:\\[\w.-]+\\"
)
