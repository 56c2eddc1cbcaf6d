"""The printed values of thesis Tables 37–41 (seed 001, L5300–5401), transcribed as printed strings.

Reference data only: they are compared with this package's results in the claims of the notebooks and
never used in a computation.  ``"-"`` is a blank cell; ``"NA"`` / ``"error"`` are as printed.  Each
row records its seed-text line.  Tables 38, 39 and 41 print five significant figures padded with zeros
(e.g. Table 39 P4 "175,710.00" for the authors' stored 175,705.59; App. 5.G note in the catalog), so
their tolerance is half a unit of the fifth significant figure (:func:`sig5_tolerance`).
"""

from __future__ import annotations

import math

from safeguarded.claims import parse_printed, printed_tolerance

__all__ = ["TABLE37", "TABLE38", "TABLE39", "TABLE40", "TABLE41", "AUTHORS_STORED", "AUTHORS_REPOSITORY",
           "sig5_tolerance", "is_number"]

_T37_COLS = ["knitro", "knitro_time", "ms", "ms_start", "ms_time", "baron", "baron_time", "upper", "lower",
             "time"]
_T37 = {
    "P1": (5302, "9.7890 0.05 - - - 9.7890 0.40 10.0186 9.7816 0.22"),
    "P2": (5303, "54.0329 0.18 55.8913 2 0.43 25.0731 1,800.00 56.0521 55.7287 0.22"),
    "P3": (5304, "241.1606 1.61 - - - NA 1,800.00 241.1606 241.1606 0.23"),
    "P4": (5305, "156.6875 0.40 179.1224 5 5.52 NA 1,800.00 179.1224 179.1224 0.24"),
    "P5": (5306, "324.8785 1.17 370.9066 3 6.55 NA 1,800.00 370.9066 370.9066 0.27"),
    "P6": (5307, "428.7200 2.37 472.0475 2 8.86 NA 1,800.00 472.0475 472.0475 0.25"),
    "P7": (5308, "551.3160 0.68 570.8467 20 18.45 NA 1,800.00 570.8467 570.8467 0.23"),
    "P8": (5309, "570.7248 3.51 601.6886 4 14.35 NA 1,800.00 601.6886 601.6886 0.25"),
    "P9": (5310, "error 0.62 - - - error 1,800.00 890.7722 890.7722 0.24"),
    "P10": (5311, "NA 1,800.00 - - - - - 456.6373 455.5054 0.29"),
    "P11": (5312, "156.4414 1311.00 - - - - - 178.4665 141.9482 0.59"),
    "P12": (5313, "238.4521 1,800.00 - - - - - 325.0580 311.7564 0.51"),
}
_T38_COLS = ["knitro", "knitro_time", "ms", "ms_start", "ms_time", "baron", "baron_time", "exact", "time"]
_T38 = {
    "P1": (5327, "9.10 0.03 15.00 2 0.04 15.00 0.06 15.00 0.28"),
    "P2": (5328, "46.34 0.04 54.50 3 0.11 23.50 1,800.00 54.50 0.39"),
    "P3": (5329, "NA 0.20 - - - NA 1,800.00 1,723.30 48.00"),
    "P4": (5330, "54.39 0.50 57.70 15 6.17 NA 1,800.00 57.70 149.80"),
    "P5": (5331, "35.76 0.50 39.62 30 33.91 NA 1,800.00 39.62 18.37"),
}
_T39_COLS = ["cplex", "cplex_time", "restricted", "upper", "ub_time", "lower", "lb_time"]
_T39 = {
    "P1": (5345, "394.75 0.08 394.75 702.05 0.43 394.75 0.16"),
    "P2": (5346, "884.75 0.10 884.75 1,192.10 0.43 884.75 0.15"),
    "P3": (5347, "4,674.70 0.15 4,674.70 4,753.10 0.01 4,674.70 0.17"),
    "P4": (5348, "175,710.00 0.81 175,710.00 177,640.00 0.29 175,710.00 0.02"),
    "P5": (5349, "692,610.00 16.50 692,610.00 707,520.00 2.30 692,610.00 1.40"),
    "P6": (5350, "6,020,800.00 466.00 6,020,800.00 6,100,200.00 25.00 6,020,800.00 3.40"),
    "P7": (5351, "7,303.00 3,600.00 7,303.00 1,961,700.00 31.21 1,855,700.00 4.18"),
}
_T40_COLS = ["knitro", "knitro_time", "ms", "ms_start", "ms_time", "baron", "baron_time", "upper", "ub_time",
             "lower", "lb_time"]
_T40 = {
    "P1-size10": (5365, "16.8763 0.05 35.2008 3 0.10 35.2008 0.32 35.2008 0.05 35.2008 0.01"),
    "P1-size40": (5366, "248.7589 0.29 - - - 248.7589 0.36 248.7589 1.13 248.7589 0.01"),
    "P1-size60": (5367, "282.6632 0.48 386.0733 5 1.95 384.6207 114.38* 386.0733 2.95 386.0733 0.01"),
    "P1-size100": (5368, "667.0963 2.19 676.8081 20 37.77 547.8524 10.94* 676.8080 9.98 676.8080 0.01"),
    "P2": (5369, "64.5087 0.10 64.8926 10 0.43 64.6196 0.28* 65.2268 0.37 64.8926 0.30"),
    "P3": (5370, "102.5824 0.32 145.3380 50 11.24 144.1676 0.64* 145.3380 9.73 145.3380 0.01"),
    "P4": (5371, "166.8399 1.85 176.1074 50 77.05 166.8399 3.17* 176.1074 241.57 176.1074 0.01"),
    "P5": (5372, "34.8293 0.05 45.0356 3 0.10 45.0356 1,000.00 45.0356 0.18 45.0356 0.01"),
    "P6": (5373, "74.8013 0.17 76.0362 15 1.86 76.0362 0.72* 76.1283 14.71 76.0362 4.37"),
}
_T41_COLS = ["gurobi", "gurobi_time", "restricted", "upper", "ub_time", "lower", "lb_time"]
_T41 = {
    "P1": (5389, "23.29 0.01 23.29 23.29 0.01 23.29 0.07"),
    "P2": (5390, "233.94 0.10 233.94 233.94 0.01 233.94 0.08"),
    "P3": (5391, "1,081.60 7.18 1,055.20 1,169.40 0.20 1,053.10 0.62"),
    "P4": (5392, "4,105.10 1,000.00* 3,970.80 4,499.10 0.72 3,976.00 1.71"),
    "P5": (5393, "22,224.00 1,000.00* 21,129.90 27,939.00 16.69 21,751.00 4.46"),
    "P6": (5394, "54,213.00 1,000.00* 54,213.00 83,466.00 146.22 61,794.00 4.46"),
    "P7": (5395, "113.71 0.08 113.71 113.71 0.01 113.71 0.15"),
    "P8": (5396, "479.50 1,000.00* 479.50 3,052.90 1.37 3,052.90 0.27"),
    "P9": (5397, "1,877.30 1,000.00* 539.10 2,894.60 42.38 2,783.50 1.27"),
    "P10": (5398, "1,673.70 1,000.00* 1,673.70 3,323.50 356.23 2,997.40 0.57"),
    "P11": (5399, "3,002.40 93.85 2,401.10 3,032.00 0.47 3,002.40 0.55"),
    "P12": (5400, "3,114.20 1,000.00* 96.80 3,452.20 0.43 3,349.00 0.39"),
    "P13": (5401, "1,091.80 1,000.00* 489.60 17,568.00 10.06 17,062.00 1.13"),
}


def _table(rows: dict, cols: list[str]) -> dict[str, dict[str, str]]:
    out = {}
    for name, (line, text) in rows.items():
        cells = text.split()
        if len(cells) != len(cols):
            raise ValueError(f"row {name}: {len(cells)} cells for {len(cols)} columns")
        out[name] = {"line": line, **dict(zip(cols, cells, strict=True))}
    return out


TABLE37 = _table(_T37, _T37_COLS)
TABLE38 = _table(_T38, _T38_COLS)
TABLE39 = _table(_T39, _T39_COLS)
TABLE40 = _table(_T40, _T40_COLS)
TABLE41 = _table(_T41, _T41_COLS)


#: Where the authors store their solutions: the public repository of the journal version, whose §4.1–§4.5
#: are the thesis's §5.4.1–§5.4.5 (Tables 37–41).
AUTHORS_REPOSITORY = "selvi-aras/convex-max@fe713b7d01bd"

#: The bounds the authors store beside each instance (reference data, like the printed tables): the
#: scalars ``upper_bound`` of "Section 4.k - …/Pj/UB solution.mat" and ``lower_bound`` of ".../LB
#: solution.mat" (Table 38: ``global_optimum`` of ".../Solution.mat"), read with ``scipy.io.loadmat`` at
#: :data:`AUTHORS_REPOSITORY` and written here with every digit the file holds (the Table 40/41 lower
#: bounds are stored already rounded to four decimals).  Only the instance files are in the data mirror,
#: so these values are transcribed, not fetched.  (upper, lower) per problem; Table 38: (exact,).
AUTHORS_STORED: dict[str, dict[str, tuple[float, ...]]] = {
    "table37": {
        "P1": (10.018550588797128, 9.781568443302634),
        "P2": (56.05209290553475, 55.72871890933205),
        "P3": (241.16061651777764, 241.16058769654924),
        "P4": (179.122442797192, 179.12244246358955),
        "P5": (370.90656267849425, 370.906558960033),
        "P6": (472.0474970525254, 472.0475006198411),
        "P7": (570.846830071794, 570.8467136621833),
        "P8": (601.6899810161727, 601.6883800005179),
        "P9": (890.7721979884602, 890.7721282871399),
        "P10": (456.63726152722217, 455.5053895574797),
        "P11": (178.4664753526062, 141.94794076430938),
        "P12": (325.0580274912191, 311.75642911563034),
    },
    "table38": {
        "P1": (15.000000066598368,),
        "P2": (54.49858525480681,),
        "P3": (1723.2741240185053,),
        "P4": (57.69534810746944,),
        "P5": (39.61737336108805,),
    },
    "table39": {
        "P1": (1324.1064121727054, 709.5012248322745),
        "P2": (1884.106196296343, 1269.5012248322746),
        "P3": (4753.103694460883, 4674.677146763291),
        "P4": (177638.29197937323, 175705.59003249186),
        "P5": (707519.8497203658, 692613.0502486023),
        "P6": (6100159.451482981, 6020787.417166352),
        "P7": (1961722.9806963555, 1855739.9832154359),
    },
    "table40": {
        "P1-size10": (35.20078522862606, 35.2008),
        "P1-size40": (248.7588547460001, 248.7589),
        "P1-size60": (386.0733215798702, 386.0733),
        "P1-size100": (676.8077364375241, 676.8081),
        "P2": (65.22679772248192, 64.8926),
        "P3": (145.33869647319761, 145.3378),
        "P4": (176.10618122060077, 176.1074),
        "P5": (45.03563623207646, 45.0356),
        "P6": (76.13021645218183, 76.0362),
    },
    "table41": {
        "P1": (23.28854359480976, 23.2885),
        "P2": (233.9416769511347, 233.9417),
        "P3": (1169.3951558138779, 1053.1196),
        "P4": (4499.071769321316, 3975.9968),
        "P5": (27939.35465244776, 21751.0461),
        "P6": (83466.05315980864, 61794.1533),
        "P7": (113.70682583687058, 113.7068),
        "P8": (3052.9202853588104, 3052.9203),
        "P9": (2894.632977798154, 2783.4612),
        "P10": (3323.4827043365535, 2997.408),
        "P11": (3031.950351478723, 3002.4341),
        "P12": (3452.221862727839, 3348.9937),
        "P13": (17567.96736721505, 17062.4943),
    },
}


def is_number(printed: str) -> bool:
    """True for a printed number (not "-", "NA", "error"); a trailing "*" (no proof) is dropped."""
    if not isinstance(printed, str):
        raise ValueError(f"printed must be the printed cell as a string, got printed={printed!r}")
    try:
        parse_printed(printed.rstrip("*"))
    except Exception:
        return False
    return True


def sig5_tolerance(printed: str) -> float:
    """Half a unit of the fifth significant figure, or of the last printed digit if coarser."""
    if not is_number(printed):
        raise ValueError(f"printed must be a printed number such as '1,081.60', got printed={printed!r}")
    value = abs(parse_printed(printed))
    sig = 0.5 * 10.0 ** (math.floor(math.log10(value)) - 4) if value > 0 else 0.0
    return max(sig, printed_tolerance(printed))
