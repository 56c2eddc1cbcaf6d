"""TNTP (Transportation Networks for Research) files: network, trips, node coordinates, flows.

The format (``bstabler/TransportationNetworks``) has a metadata header of ``<KEY> value`` lines
closed by ``<END OF METADATA>``, then the body:

* ``*_net.tntp``: one link per line, ``init_node term_node capacity length free_flow_time b power
  speed toll link_type ;`` (a ``~`` line names the columns);
* ``*_trips.tntp``: ``Origin i`` blocks of ``j : value;`` entries, with ``<TOTAL OD FLOW>`` in the header;
* ``*_node.tntp``: ``Node X Y ;`` (longitude / latitude for Sioux Falls);
* ``*_flow.tntp``: ``From To Volume Cost`` (the data source's best-known user-equilibrium solution).

Every parser validates against the header (number of zones, nodes, links, total OD flow) and raises
:class:`TNTPFormatError` (a ``ValueError``) naming the file and the line for a malformed file.

Units of the Sioux Falls files (``UPSTREAM_README.md``): free-flow times are in 0.01 h "but often
viewed as if they were minutes" (the routing paper does so); OD flows are 0.1 of the original daily
flows, "approximate hourly flows" (veh/h); capacities are in the same flow unit (veh/h).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.data.registry import fetch

__all__ = [
    "TNTPFormatError",
    "TNTPNetwork",
    "SiouxFalls",
    "NET_COLUMNS",
    "parse_metadata",
    "parse_net",
    "parse_trips",
    "parse_nodes",
    "parse_flows",
    "load_sioux_falls",
    "SIOUX_FALLS_FILES",
]

NET_COLUMNS = (
    "init_node",
    "term_node",
    "capacity",
    "length",
    "free_flow_time",
    "b",
    "power",
    "speed",
    "toll",
    "link_type",
)

SIOUX_FALLS_FILES = {
    "net": "sioux-falls/SiouxFalls_net.tntp",
    "trips": "sioux-falls/SiouxFalls_trips.tntp",
    "nodes": "sioux-falls/SiouxFalls_node.tntp",
    "flows": "sioux-falls/SiouxFalls_flow.tntp",
}

#: The dimensions stated in the data source's README for Sioux Falls (zones, nodes, links, trips).
SIOUX_FALLS_DIMENSIONS = {"zones": 24, "nodes": 24, "links": 76, "trips": 360600.0}

_META = re.compile(r"^\s*<([^>]+)>\s*(.*)$")
_TRIP = re.compile(r"(\d+)\s*:\s*([-+0-9.eE]+)\s*;?")


class TNTPFormatError(ValueError):
    """A TNTP file that does not follow the format or contradicts its own metadata."""


@dataclass(frozen=True)
class TNTPNetwork:
    """A ``*_net.tntp`` file: its metadata and the links table (1-based node numbers, as in the file)."""

    n_zones: int
    n_nodes: int
    first_thru_node: int
    links: pd.DataFrame

    @property
    def n_links(self) -> int:
        return len(self.links)


@dataclass(frozen=True)
class SiouxFalls:
    """The four Sioux Falls files, parsed and cross-validated."""

    network: TNTPNetwork
    trips: np.ndarray  #: (zones x zones) OD flows in veh/h, ``trips[o-1, d-1]``
    nodes: pd.DataFrame  #: columns node, x, y
    flows: pd.DataFrame  #: columns init_node, term_node, volume, cost


def _fail(source: str, msg: str, line: int | None = None) -> TNTPFormatError:
    where = f"{source}, line {line}" if line is not None else source
    return TNTPFormatError(f"{where}: {msg}")


def parse_metadata(text: str, source: str = "<tntp>") -> tuple[dict[str, str], list[tuple[int, str]]]:
    """Split a TNTP file into its metadata dict and its numbered body lines.

    Returns ``(metadata, body)``: metadata keys upper-cased (``"NUMBER OF LINKS"``), body as a list of
    ``(line number, text)`` without blank lines.  Raises :class:`TNTPFormatError` if there is no
    ``<END OF METADATA>``.
    """
    meta: dict[str, str] = {}
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        m = _META.match(raw)
        if not m:
            if raw.strip():
                raise _fail(source, f"expected a <KEY> value metadata line, got {raw.strip()!r}", i + 1)
            continue
        key = m.group(1).strip().upper()
        if key == "END OF METADATA":
            body = [(j + 1, ln) for j, ln in enumerate(lines[i + 1 :], start=i + 1) if ln.strip()]
            return meta, body
        meta[key] = m.group(2).strip()
    raise _fail(source, "no <END OF METADATA> line; not a TNTP file")


def _meta_number(meta: dict[str, str], key: str, source: str, kind=int):
    if key not in meta:
        raise _fail(source, f"metadata <{key}> is missing")
    try:
        value = kind(float(meta[key].replace(",", "")))
    except ValueError as exc:
        raise _fail(source, f"metadata <{key}> is not a number: {meta[key]!r}") from exc
    return value


def parse_net(text: str, source: str = "<net.tntp>") -> TNTPNetwork:
    """Parse a ``*_net.tntp`` file; checks the link count, node range and positive capacities/times."""
    meta, body = parse_metadata(text, source)
    n_zones = _meta_number(meta, "NUMBER OF ZONES", source)
    n_nodes = _meta_number(meta, "NUMBER OF NODES", source)
    first_thru = _meta_number(meta, "FIRST THRU NODE", source)
    n_links = _meta_number(meta, "NUMBER OF LINKS", source)
    rows = []
    for lineno, raw in body:
        line = raw.strip()
        if line.startswith("~"):
            continue
        if not line.endswith(";"):
            raise _fail(source, f"link line does not end with ';': {line!r}", lineno)
        fields = line[:-1].split()
        if len(fields) != len(NET_COLUMNS):
            raise _fail(
                source, f"expected {len(NET_COLUMNS)} link fields, got {len(fields)}: {line!r}", lineno
            )
        try:
            rows.append([float(f) for f in fields])
        except ValueError as exc:
            raise _fail(source, f"non-numeric link field in {line!r}", lineno) from exc
    links = pd.DataFrame(rows, columns=list(NET_COLUMNS))
    for col in ("init_node", "term_node", "link_type"):
        links[col] = links[col].astype(int)
    if len(links) != n_links:
        raise _fail(source, f"metadata says <NUMBER OF LINKS> {n_links}, the file has {len(links)} links")
    ends = links[["init_node", "term_node"]].to_numpy()
    if ends.size and (ends.min() < 1 or ends.max() > n_nodes):
        raise _fail(
            source,
            f"link end nodes must be in 1..{n_nodes} (<NUMBER OF NODES>), got {ends.min()}..{ends.max()}",
        )
    if (links["capacity"] <= 0).any() or (links["free_flow_time"] < 0).any():
        raise _fail(source, "capacities must be > 0 and free-flow times >= 0")
    if links.duplicated(["init_node", "term_node"]).any():
        raise _fail(source, "duplicate (init_node, term_node) links")
    return TNTPNetwork(n_zones, n_nodes, first_thru, links)


def parse_trips(text: str, source: str = "<trips.tntp>") -> np.ndarray:
    """Parse a ``*_trips.tntp`` file into a (zones x zones) matrix; checks ``<TOTAL OD FLOW>``."""
    meta, body = parse_metadata(text, source)
    n_zones = _meta_number(meta, "NUMBER OF ZONES", source)
    total = _meta_number(meta, "TOTAL OD FLOW", source, kind=float)
    trips = np.zeros((n_zones, n_zones))
    origin = None
    for lineno, raw in body:
        line = raw.strip()
        if line.lower().startswith("origin"):
            parts = line.split()
            if len(parts) != 2 or not parts[1].isdigit():
                raise _fail(source, f"malformed origin line {line!r}", lineno)
            origin = int(parts[1])
            if not 1 <= origin <= n_zones:
                raise _fail(source, f"origin {origin} outside 1..{n_zones}", lineno)
            continue
        if origin is None:
            raise _fail(source, f"trip entries before the first 'Origin' line: {line!r}", lineno)
        entries = _TRIP.findall(line)
        if not entries or _TRIP.sub("", line).strip():
            raise _fail(source, f"malformed trip entries {line!r} (expected 'dest : value;')", lineno)
        for dest, value in entries:
            d, v = int(dest), float(value)
            if not 1 <= d <= n_zones:
                raise _fail(source, f"destination {d} outside 1..{n_zones}", lineno)
            if v < 0 or not np.isfinite(v):
                raise _fail(source, f"OD flow must be finite and >= 0, got {v} for ({origin}, {d})", lineno)
            trips[origin - 1, d - 1] = v
    if not np.isclose(trips.sum(), total, rtol=1e-9, atol=1e-6):
        raise _fail(source, f"OD flows sum to {trips.sum():.6g}, metadata <TOTAL OD FLOW> says {total:.6g}")
    return trips


def _table(text: str, source: str, names: list[str], header_word: str) -> pd.DataFrame:
    rows = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().rstrip(";").strip()
        if not line or line.lower().startswith(header_word):
            continue
        fields = line.split()
        if len(fields) != len(names):
            raise _fail(source, f"expected {len(names)} fields, got {len(fields)}: {raw.strip()!r}", lineno)
        try:
            rows.append([float(f) for f in fields])
        except ValueError as exc:
            raise _fail(source, f"non-numeric field in {raw.strip()!r}", lineno) from exc
    if not rows:
        raise _fail(source, "no data rows")
    return pd.DataFrame(rows, columns=names)


def parse_nodes(text: str, source: str = "<node.tntp>") -> pd.DataFrame:
    """Parse a ``*_node.tntp`` file (``Node X Y ;``) into columns node, x, y."""
    frame = _table(text, source, ["node", "x", "y"], "node")
    frame["node"] = frame["node"].astype(int)
    if frame["node"].duplicated().any():
        raise _fail(source, "duplicate node numbers")
    return frame


def parse_flows(text: str, source: str = "<flow.tntp>") -> pd.DataFrame:
    """Parse a ``*_flow.tntp`` file (``From To Volume Cost``) into init_node, term_node, volume, cost."""
    frame = _table(text, source, ["init_node", "term_node", "volume", "cost"], "from")
    frame[["init_node", "term_node"]] = frame[["init_node", "term_node"]].astype(int)
    return frame


def _read(name: str) -> tuple[str, str]:
    path = Path(fetch(name))
    return path.read_text(encoding="utf-8"), str(path)


def load_sioux_falls() -> SiouxFalls:
    """Load and cross-validate the four registered Sioux Falls files.

    Checks, beyond each parser's own checks: 24 zones / 24 nodes / 76 links / 360,600 trips (the data
    source's README), coordinates for every node, and flows for exactly the network's links.
    """
    net_text, net_src = _read(SIOUX_FALLS_FILES["net"])
    network = parse_net(net_text, net_src)
    trips_text, trips_src = _read(SIOUX_FALLS_FILES["trips"])
    trips = parse_trips(trips_text, trips_src)
    nodes_text, nodes_src = _read(SIOUX_FALLS_FILES["nodes"])
    nodes = parse_nodes(nodes_text, nodes_src)
    flows_text, flows_src = _read(SIOUX_FALLS_FILES["flows"])
    flows = parse_flows(flows_text, flows_src)
    dims = SIOUX_FALLS_DIMENSIONS
    found = {
        "zones": network.n_zones,
        "nodes": network.n_nodes,
        "links": network.n_links,
        "trips": trips.sum(),
    }
    for key, expected in dims.items():
        if not np.isclose(found[key], expected):
            raise TNTPFormatError(f"{net_src}: Sioux Falls must have {key}={expected}, got {found[key]}")
    if trips.shape[0] != network.n_zones:
        raise TNTPFormatError(f"{trips_src}: {trips.shape[0]} zones, the network file says {network.n_zones}")
    if sorted(nodes["node"]) != list(range(1, network.n_nodes + 1)):
        raise TNTPFormatError(f"{nodes_src}: coordinates must be given for nodes 1..{network.n_nodes}")
    link_keys = set(map(tuple, network.links[["init_node", "term_node"]].to_numpy()))
    flow_keys = set(map(tuple, flows[["init_node", "term_node"]].to_numpy()))
    if link_keys != flow_keys:
        raise TNTPFormatError(f"{flows_src}: the flow file's links differ from those of {net_src}")
    return SiouxFalls(network, trips, nodes, flows)
