"""Data files of the works: a checksummed registry, a local mirror, and per-source loaders.

Every file any work reads is listed in ``registry.csv`` (path inside the mirror, original source
URL, sha256; :func:`entries` reads it).  :func:`fetch` returns a local path to a verified copy:

1. if a mirror is configured (environment variable ``SAFEGUARDED_DATA_MIRROR``, or the ``mirror``
   argument; ``make ... DATA_MIRROR=../shared/data``), the file is read from there;
2. otherwise it is downloaded once from its original source into the cache folder
   (``SAFEGUARDED_DATA_CACHE``, default ``data/cache`` in the repository) with ``pooch``.

Either way the sha256 is checked; a missing or corrupt file raises :class:`DataFileError` naming the
file, the expected checksum and how to fix it.  Loaders for particular sources live in the
sub-modules (``uci``, ``tntp``, ``convex_max``).
"""

from safeguarded.data.registry import (
    DataFileError,
    RegistryEntry,
    entries,
    fetch,
    mirror_dir,
    sha256sum,
)

# ``registry`` stays the sub-module (``import safeguarded.data.registry as R; R.fetch(...)``); the
# registered files are ``entries()``.
__all__ = ["DataFileError", "RegistryEntry", "entries", "fetch", "mirror_dir", "sha256sum"]
