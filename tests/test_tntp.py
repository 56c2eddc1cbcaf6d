"""The TNTP reader: Sioux Falls against its metadata, and clear errors for malformed files."""

import numpy as np
import pytest

from safeguarded.data import tntp

NET = """<NUMBER OF ZONES> 2
<NUMBER OF NODES> 3
<FIRST THRU NODE> 1
<NUMBER OF LINKS> 2
<END OF METADATA>

~ init_node term_node capacity length free_flow_time b power speed toll link_type ;
\t1\t2\t100\t1\t2\t0.15\t4\t0\t0\t1\t;
\t2\t3\t50\t1\t3\t0.15\t4\t0\t0\t1\t;
"""

TRIPS = """<NUMBER OF ZONES> 2
<TOTAL OD FLOW> 30.0
<END OF METADATA>

Origin 1
    1 :      0.0;     2 :     10.0;
Origin 2
    1 :     20.0;     2 :      0.0;
"""


def test_parse_small_files():
    net = tntp.parse_net(NET, "tiny_net.tntp")
    assert (net.n_zones, net.n_nodes, net.n_links) == (2, 3, 2)
    assert net.links["free_flow_time"].tolist() == [2.0, 3.0]
    trips = tntp.parse_trips(TRIPS, "tiny_trips.tntp")
    np.testing.assert_array_equal(trips, [[0, 10], [20, 0]])


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            NET.replace("<NUMBER OF LINKS> 2", "<NUMBER OF LINKS> 3"),
            r"tiny_net.tntp: metadata says <NUMBER OF LINKS> 3",
        ),
        (NET.replace("1\t;\n\t2\t3", "1\t\n\t2\t3"), r"tiny_net.tntp, line 8: link line does not end"),
        (NET.replace("\t50\t", "\tfifty\t"), r"tiny_net.tntp, line 9: non-numeric"),
        (NET.replace("\t2\t3\t50", "\t2\t9\t50"), r"tiny_net.tntp: link end nodes must be in 1..3"),
        (NET.replace("<END OF METADATA>\n", ""), r"tiny_net.tntp.*(END OF METADATA|metadata line)"),
        (NET.replace("<NUMBER OF NODES> 3\n", ""), r"tiny_net.tntp: metadata <NUMBER OF NODES> is missing"),
        (NET.replace("\t100\t", "\t-100\t"), r"tiny_net.tntp: capacities must be > 0"),
    ],
)
def test_malformed_net_names_file(text, match):
    with pytest.raises(tntp.TNTPFormatError, match=match):
        tntp.parse_net(text, "tiny_net.tntp")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            TRIPS.replace("30.0", "31.0"),
            r"tiny_trips.tntp: OD flows sum to 30, metadata <TOTAL OD FLOW> says 31",
        ),
        (TRIPS.replace("2 :     10.0;", "2 ;     10.0;"), r"tiny_trips.tntp, line 6: malformed trip entries"),
        (TRIPS.replace("Origin 1\n", ""), r"tiny_trips.tntp, line 5: trip entries before the first 'Origin'"),
        (
            TRIPS.replace("20.0", "-20.0").replace("30.0", "-10.0"),
            r"tiny_trips.tntp, line 8: OD flow must be",
        ),
        (TRIPS.replace("Origin 2", "Origin 7"), r"tiny_trips.tntp, line 7: origin 7 outside 1..2"),
    ],
)
def test_malformed_trips_names_file(text, match):
    with pytest.raises(tntp.TNTPFormatError, match=match):
        tntp.parse_trips(text, "tiny_trips.tntp")


def test_malformed_nodes_and_flows():
    with pytest.raises(tntp.TNTPFormatError, match=r"n.tntp, line 2: expected 3 fields"):
        tntp.parse_nodes("Node X Y ;\n1 0.5 ;\n", "n.tntp")
    with pytest.raises(tntp.TNTPFormatError, match=r"f.tntp, line 2: non-numeric"):
        tntp.parse_flows("From To Volume Cost\n1 2 abc 3\n", "f.tntp")
    assert isinstance(tntp.TNTPFormatError("x"), ValueError)


def test_sioux_falls_matches_metadata(data_mirror):
    sf = tntp.load_sioux_falls()
    assert (sf.network.n_nodes, sf.network.n_links, sf.trips.shape) == (24, 76, (24, 24))
    assert sf.trips.sum() == pytest.approx(360600.0)
    assert (sf.trips > 0).sum() == 528  # "528 OD pairs" (paper, Sec. 5.1)
    assert sf.trips[sf.trips > 0].mean() == pytest.approx(682.9545, abs=1e-4)  # "mean OD demand is 682"
    assert np.all(np.diag(sf.trips) == 0)
    times = sf.network.links["free_flow_time"]
    assert (times.min(), times.max()) == (2.0, 10.0)  # "travel time on edges ranges from 2 to 10"
    assert len(sf.nodes) == 24 and sf.nodes["x"].between(-97, -96).all()


def test_reference_flows_are_consistent_with_bpr_costs(data_mirror):
    """Independent check of the reader: the flow file's link costs equal the net file's BPR function
    t = t0 (1 + b (v/cap)^power) at the flow file's volumes, and the volumes conserve the OD flow."""
    sf = tntp.load_sioux_falls()
    f = sf.flows.merge(sf.network.links, on=["init_node", "term_node"], validate="one_to_one")
    bpr = f["free_flow_time"] * (1 + f["b"] * (f["volume"] / f["capacity"]) ** f["power"])
    np.testing.assert_allclose(bpr, f["cost"], rtol=1e-10)
    net_in = np.zeros(24)
    np.add.at(net_in, f["term_node"] - 1, f["volume"])
    np.add.at(net_in, f["init_node"] - 1, -f["volume"])
    np.testing.assert_allclose(net_in, sf.trips.sum(axis=0) - sf.trips.sum(axis=1), atol=1e-6)
