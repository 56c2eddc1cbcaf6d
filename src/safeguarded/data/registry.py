"""The checksummed registry of data files and the mirror-or-download logic (see package docstring)."""

from __future__ import annotations

import csv
import functools
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from safeguarded.paths import REPO_ROOT

MIRROR_ENV = "SAFEGUARDED_DATA_MIRROR"
CACHE_ENV = "SAFEGUARDED_DATA_CACHE"


class DataFileError(FileNotFoundError):
    """A registered data file that is missing, unreachable or fails its checksum."""


@dataclass(frozen=True)
class RegistryEntry:
    path: str  #: path relative to the mirror root, e.g. ``sioux-falls/SiouxFalls_net.tntp``
    bytes: int
    sha256: str
    url: str  #: the original source
    note: str


@functools.cache
def entries() -> dict[str, RegistryEntry]:
    """All registered files, keyed by their path inside the mirror.

    (Named ``entries``, not ``registry``: a function named like its module would shadow the module
    ``safeguarded.data.registry`` as an attribute of the package.)"""
    text = resources.files("safeguarded.data").joinpath("registry.csv").read_text()
    rows = csv.DictReader(text.splitlines())
    return {
        r["path"]: RegistryEntry(r["path"], int(r["bytes"]), r["sha256"], r["url"], r["note"]) for r in rows
    }


def sha256sum(path: Path) -> str:
    """The sha256 of a file, hex (pooch's ``file_hash``, the same check its downloads get)."""
    import pooch

    return pooch.file_hash(str(path), alg="sha256")


def mirror_dir(mirror: str | os.PathLike | None = None) -> Path | None:
    """The configured local mirror: the argument, else ``$SAFEGUARDED_DATA_MIRROR``, else None."""
    value = mirror if mirror is not None else os.environ.get(MIRROR_ENV)
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = (Path.cwd() / path).resolve()
    if not path.is_dir():
        raise DataFileError(
            f"data mirror {str(path)!r} (from {'argument' if mirror else MIRROR_ENV}) is not a folder; "
            f"unset {MIRROR_ENV} to download from the original sources"
        )
    return path


def _cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV, REPO_ROOT / "data" / "cache"))


def _verify(entry: RegistryEntry, path: Path, origin: str) -> Path:
    if not path.is_file():
        raise DataFileError(
            f"data file {entry.path!r} not found in {origin} (looked at {path}); expected sha256 "
            f"{entry.sha256}. Fix: set {MIRROR_ENV} to a mirror that holds it, or unset it to "
            f"download from {entry.url}"
        )
    actual = sha256sum(path)
    if actual != entry.sha256:
        raise DataFileError(
            f"data file {entry.path!r} in {origin} is corrupt: sha256 {actual}, expected "
            f"{entry.sha256}. Fix: replace {path} with a fresh copy from {entry.url}"
            + (f" ({entry.note})" if entry.note else "")
        )
    return path


def fetch(name: str, *, mirror: str | os.PathLike | None = None) -> Path:
    """Local path of the verified data file ``name`` (a registry path).

    Reads from the mirror if one is configured, else downloads from the original source with
    checksum verification (``pooch``) into the cache.  Raises :class:`DataFileError` otherwise.
    """
    known = entries()
    if name not in known:
        raise DataFileError(
            f"data file {name!r} is not in the registry (src/safeguarded/data/registry.csv); "
            f"known files start with {sorted({k.split('/')[0] for k in known})}"
        )
    entry = known[name]
    root = mirror_dir(mirror)
    if root is not None:
        return _verify(entry, root / name, f"mirror {root}")
    target = _cache_dir() / name
    if target.is_file():
        return _verify(entry, target, f"cache {_cache_dir()}")
    import pooch  # imported lazily: only needed without a mirror

    try:
        downloaded = pooch.retrieve(
            url=entry.url,
            known_hash=f"sha256:{entry.sha256}",
            fname=Path(name).name,
            path=target.parent,
            progressbar=False,
        )
    except Exception as exc:  # network failure or checksum mismatch: one readable error, no traceback chain
        error = DataFileError(download_error_message(entry, exc))
        error.reason = exc  # the original exception, for debugging
        raise error from None
    return Path(downloaded)


def _short_reason(exc: BaseException, limit: int = 200) -> str:
    """``Type: first line of the message``, at most ``limit`` characters (urllib3 messages run long)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def download_error_message(entry: RegistryEntry, exc: BaseException) -> str:
    """The message of a failed download: the file, the URL tried, why, and the mirror option."""
    checksum = isinstance(exc, ValueError) and "hash" in str(exc).lower()
    why = ("the download's sha256 does not match the registry" if checksum
           else "no network or the source is unreachable")
    return (
        f"could not download data file {entry.path!r} from {entry.url} ({why}; {_short_reason(exc)}). "
        f"Fix: use a local copy of the data: `make ... DATA_MIRROR=../shared/data`, or "
        f"`export {MIRROR_ENV}=/path/to/mirror` (a folder holding {entry.path}; see data/README.md)"
    )
