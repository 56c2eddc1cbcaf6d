"""Directed networks, OD pairs and the unit-flow polytope of the routing paper (Defs. 1, 10, 11).

A routing policy (Def. 11) is stored as a (K x m) array ``X``: row k is the unit flow ``x^{(o_k,d_k)}``
of the k-th ordered pair ``o != d`` (the paper's ``x`` in R^{n^2 m}, Remark 4, without the n pairs
``o = d`` for which constraint (5) is contradictory).  Zero-demand pairs are kept: request-level
adjacency (Def. 9) can add a request to any pair.

The polytope is 𝒳 = {X : A x^{(o,d)} = e_d - e_o, 0 <= x^{(o,d)} <= 1} with A the node-arc incidence
matrix (+1 at the head, -1 at the tail: net inflow, as in (5)).  The upper bound 1 is our addition
([DECIDE]): (5) alone admits unbounded circulations on two-way links, while the paper's proofs use
``||x^{(o,d)}||_inf <= 1`` (Sec. 3.4, step (a)).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, shortest_path

from safeguarded.validation import check_array, check_integer, check_type

__all__ = ["Network", "sioux_falls", "grid_network", "demand_vector", "demand_matrix"]


@dataclass(frozen=True)
class Network:
    """A directed graph with affine-latency data (0-based node indices).

    Parameters
    ----------
    n_nodes
        Number of nodes n.
    tails, heads
        Arc end nodes, arrays of length m.
    free_flow
        Free-flow travel times c_e (the TNTP ``free_flow_time``, read as minutes as in the paper).
    capacity
        Link capacities (veh/h for TNTP).
    coords
        Optional (n x 2) node coordinates for drawing.
    name
        For messages.
    """

    n_nodes: int
    tails: np.ndarray
    heads: np.ndarray
    free_flow: np.ndarray
    capacity: np.ndarray
    coords: np.ndarray | None = None
    name: str = "network"
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        m = len(self.tails)
        if self.n_nodes < 2:
            raise ValueError(f"n_nodes must be >= 2, got n_nodes={self.n_nodes}")
        for label, arr in (("heads", self.heads), ("free_flow", self.free_flow), ("capacity", self.capacity)):
            if len(arr) != m:
                raise ValueError(f"{label} must have one entry per arc ({m}), got {len(arr)}")
        ends = np.concatenate([self.tails, self.heads])
        if m == 0 or ends.min() < 0 or ends.max() >= self.n_nodes:
            raise ValueError(f"arc end nodes must be in 0..{self.n_nodes - 1}")
        if np.any(self.tails == self.heads):
            raise ValueError("self-loop arcs are not allowed")
        if np.any(np.asarray(self.capacity) <= 0):
            raise ValueError("capacity must be > 0 on every arc")
        if np.any(np.asarray(self.free_flow) < 0):
            raise ValueError("free_flow must be >= 0 on every arc")

    @property
    def n_arcs(self) -> int:
        return len(self.tails)

    @property
    def od_pairs(self) -> np.ndarray:
        """(K x 2) array of the ordered pairs (o, d), o != d, row-major: K = n(n-1)."""
        if "od" not in self._cache:
            o, d = np.nonzero(~np.eye(self.n_nodes, dtype=bool))
            self._cache["od"] = np.column_stack([o, d])
        return self._cache["od"]

    @property
    def n_od(self) -> int:
        return self.n_nodes * (self.n_nodes - 1)

    @property
    def incidence(self) -> np.ndarray:
        """Dense (n x m) node-arc incidence matrix A: +1 at the arc's head, -1 at its tail (net inflow)."""
        if "A" not in self._cache:
            a = np.zeros((self.n_nodes, self.n_arcs))
            idx = np.arange(self.n_arcs)
            a[self.heads, idx] = 1.0
            a[self.tails, idx] = -1.0
            self._cache["A"] = a
        return self._cache["A"]

    @property
    def unit_rhs(self) -> np.ndarray:
        """(K x n) right-hand sides of (5): row k is e_{d_k} - e_{o_k}."""
        if "B" not in self._cache:
            od = self.od_pairs
            b = np.zeros((self.n_od, self.n_nodes))
            b[np.arange(self.n_od), od[:, 1]] = 1.0
            b[np.arange(self.n_od), od[:, 0]] = -1.0
            self._cache["B"] = b
        return self._cache["B"]

    def adjacency(self, weights: np.ndarray | None = None) -> csr_matrix:
        """Sparse (n x n) adjacency with arc weights (default 1)."""
        w = np.ones(self.n_arcs) if weights is None else np.asarray(weights, dtype=float)
        return csr_matrix((w, (self.tails, self.heads)), shape=(self.n_nodes, self.n_nodes))

    def check_reachable(self, demand: np.ndarray) -> None:
        """Raise ValueError if a pair with positive demand has no directed path from o to d."""
        dist = shortest_path(self.adjacency(), directed=True, unweighted=True)
        od = self.od_pairs
        bad = np.isinf(dist[od[:, 0], od[:, 1]]) & (np.asarray(demand) > 0)
        if bad.any():
            o, d = od[np.argmax(bad)]
            raise ValueError(
                f"demand has a disconnected OD pair: no directed path from node {o} to node {d} in "
                f"{self.name} ({int(bad.sum())} such pairs)"
            )

    def is_strongly_connected(self) -> bool:
        n, _ = connected_components(self.adjacency(), directed=True, connection="strong")
        return n == 1

    def is_unit_network_flow(self, x: np.ndarray, atol: float = 1e-7) -> bool:
        """True if X satisfies (5) for every pair and 0 <= X <= 1 (within ``atol``)."""
        x = np.asarray(x)
        resid = x @ self.incidence.T - self.unit_rhs
        return bool(np.abs(resid).max() <= atol and x.min() >= -atol and x.max() <= 1 + atol)


def demand_vector(network: Network, matrix: np.ndarray) -> np.ndarray:
    """The (n x n) OD matrix as a length-K vector in ``network.od_pairs`` order (diagonal dropped).

    Raises ValueError for a wrong shape or a negative/non-finite demand.
    """
    check_network(network)
    matrix = check_array("matrix", matrix, finite=False)
    n = network.n_nodes
    if matrix.shape[-2:] != (n, n):
        raise ValueError(f"matrix must be a demand matrix of shape (..., {n}, {n}), got {matrix.shape}")
    check_demand(matrix, "matrix")
    od = network.od_pairs
    return matrix[..., od[:, 0], od[:, 1]]


def demand_matrix(network: Network, vector: np.ndarray) -> np.ndarray:
    """Inverse of :func:`demand_vector` (zeros on the diagonal)."""
    check_network(network)
    vector = check_demand(vector, "vector", network.n_od)
    out = np.zeros(vector.shape[:-1] + (network.n_nodes, network.n_nodes))
    od = network.od_pairs
    out[..., od[:, 0], od[:, 1]] = vector
    return out


def check_network(network, name: str = "network") -> Network:
    """``network`` if it is a :class:`Network` (ValueError naming ``name`` otherwise)."""
    return check_type(name, network, Network, "a routing Network")


def check_arc_vector(name: str, values, network: Network) -> np.ndarray:
    """A finite vector with one entry >= 0 per arc of ``network`` (slopes q, weights)."""
    arr = check_array(name, values)
    if arr.shape != (network.n_arcs,) or arr.min() < 0:
        raise ValueError(f"{name} must be a non-negative vector of length {network.n_arcs} (one per arc)")
    return arr


def check_demand(demand: np.ndarray, name: str = "demand", length: int | None = None) -> np.ndarray:
    """Validate a demand array: finite and >= 0, and with ``length`` entries in its last axis if given
    (raises ValueError naming ``name``)."""
    demand = check_array(name, demand, finite=False, nonempty=False)
    if length is not None and (demand.ndim < 1 or demand.shape[-1] != length):
        raise ValueError(f"{name} must have {length} entries (OD pairs) in its last axis, got {demand.shape}")
    if not np.all(np.isfinite(demand)):
        raise ValueError(f"{name} must be finite")
    if demand.size and demand.min() < 0:
        raise ValueError(f"{name} must be >= 0 for every OD pair, got min {name}={demand.min():.6g}")
    return demand


def sioux_falls() -> tuple[Network, np.ndarray]:
    """The Sioux Falls network and its (24 x 24) OD matrix in veh/h, from the TNTP files."""
    from safeguarded.data.tntp import load_sioux_falls

    sf = load_sioux_falls()
    links = sf.network.links
    nodes = sf.nodes.sort_values("node")
    net = Network(
        n_nodes=sf.network.n_nodes,
        tails=links["init_node"].to_numpy() - 1,
        heads=links["term_node"].to_numpy() - 1,
        free_flow=links["free_flow_time"].to_numpy(dtype=float),
        capacity=links["capacity"].to_numpy(dtype=float),
        coords=nodes[["x", "y"]].to_numpy(dtype=float),
        name="Sioux Falls",
    )
    return net, sf.trips


def grid_network(rows: int = 3, cols: int = 3, *, seed: int = 0) -> Network:
    """A small two-way grid (toy network for exact checks): free-flow times and capacities drawn from
    ``seed`` (times in 1..5, capacities in 50..150)."""
    rows = check_integer("rows", rows, minimum=1)
    cols = check_integer("cols", cols, minimum=1)
    check_integer("seed", seed, minimum=0)
    if rows * cols < 2:
        raise ValueError(f"rows and cols must be >= 1 with rows*cols >= 2, got rows={rows}, cols={cols}")
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    pairs = [(idx[r, c], idx[r, c + 1]) for r in range(rows) for c in range(cols - 1)]
    pairs += [(idx[r, c], idx[r + 1, c]) for r in range(rows - 1) for c in range(cols)]
    tails = np.array([a for a, b in pairs] + [b for a, b in pairs])
    heads = np.array([b for a, b in pairs] + [a for a, b in pairs])
    m = len(tails)
    yy, xx = np.divmod(np.arange(rows * cols), cols)
    return Network(
        n_nodes=rows * cols,
        tails=tails,
        heads=heads,
        free_flow=rng.integers(1, 6, m).astype(float),
        capacity=rng.uniform(50, 150, m),
        coords=np.column_stack([xx, -yy]).astype(float),
        name=f"{rows}x{cols} grid",
    )
