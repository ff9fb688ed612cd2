"""Published tables of seed 000 (Ethier & Lee, casino chemin de fer), as printed.

Extracted once from ../shared/seeds/000_de7314d0dcc5230f.txt; the formulas and
interval columns were lost in extraction, the strategy strings and approximate
alphas survive.  Strategy strings list the undetermined information sets in
blocks (3,9) (4,1) (5,4) (6,none) (6,6) (Tables 2, 3) or all compositions in
blocks (3,8) (4,1) (5,4) (6,none) (6,6) (Tables 6, 7); MODELS.md.
"""

#: Table 2 (d = 6): case -> Banker strategy, M at the mixing information set.
TABLE2 = {
    1: "MSSDD-SSS-DDD-SSSSSS-DDD",
    2: "MSSDD-SSS-DSD-SSSSSS-DDD",
    3: "MSSDD-SSS-SSD-SSSSSS-DDD",
    4: "MSSDD-SSS-SSS-SSSSSS-DDD",
    5: "DMDDD-SSS-DDD-SSSSSS-DDD",
    6: "DMDDD-SSS-DSD-SSSSSS-DDD",
    7: "DMDDD-SSS-SSD-SSSSSS-DDD",
    8: "DMDDD-SSS-SSS-SSSSSS-DDD",
    9: "DSMDD-SSS-DDD-SSSSSS-DDD",
    10: "DSMDD-SSS-DSD-SSSSSS-DDD",
    11: "DSMDD-SSS-SSD-SSSSSS-DDD",
    12: "DSMDD-SSS-SSS-SSSSSS-DDD",
    13: "SSSMD-SSS-DDD-SSSSSS-DDD",
    14: "SSSMD-SSS-DSD-SSSSSS-DDD",
    15: "SSSMD-SSS-SSD-SSSSSS-DDD",
    16: "SSSMD-SSS-SSS-SSSSSS-DDD",
    17: "SSSSM-SSS-DDD-SSSSSS-DDD",
    18: "SSSSM-SSS-DSD-SSSSSS-DDD",
    19: "SSSSM-SSS-SSD-SSSSSS-DDD",
    20: "SSSSM-SSS-SSS-SSSSSS-DDD",
    21: "DDDDD-MDD-DDD-DDDDDD-DDS",
    22: "DDDDD-SMD-DDD-DDDDDD-DDD",
    23: "DDDDD-SMD-DDD-DDDDDD-DDS",
    24: "DDDDD-SSM-DDD-DDDDDD-DDD",
    25: "DDDDD-SSM-DDD-DDDDDD-DDS",
    26: "SSSSS-SSS-MSD-SSSSSS-DDD",
    27: "SSSSD-SSS-MSD-SSSSSS-DDD",
    28: "SSSDD-SSS-MSD-SSSSSS-DDD",
    29: "DSSDD-SSS-MSD-SSSSSS-DDD",
    30: "DSDDD-SSS-MSD-SSSSSS-DDD",
    31: "DDDDD-SSS-MSD-SSSSSS-DDD",
    32: "SSSSS-SSS-DMD-SSSSSS-DDD",
    33: "SSSSD-SSS-DMD-SSSSSS-DDD",
    34: "SSSDD-SSS-DMD-SSSSSS-DDD",
    35: "DSSDD-SSS-DMD-SSSSSS-DDD",
    36: "DSDDD-SSS-DMD-SSSSSS-DDD",
    37: "DDDDD-SSS-DMD-SSSSSS-DDD",
    38: "SSSSS-SSS-SSM-SSSSSS-DDD",
    39: "SSSSD-SSS-SSM-SSSSSS-DDD",
    40: "SSSDD-SSS-SSM-SSSSSS-DDD",
    41: "DSSDD-SSS-SSM-SSSSSS-DDD",
    42: "DSDDD-SSS-SSM-SSSSSS-DDD",
    43: "DDDDD-SSS-SSM-SSSSSS-DDD",
    44: "DDDDD-SSS-DDD-MSSSSD-DDD",
    45: "DDDDD-SSS-DDD-MSSSSD-DDS",
    46: "DDDDD-SSS-DDD-DMSSDD-DDD",
    47: "DDDDD-SSS-DDD-DMSSDD-DDS",
    48: "DDDDD-SSS-DDD-DDMSDD-DDD",
    49: "DDDDD-SSS-DDD-DDMSDD-DDS",
    50: "DDDDD-SSS-DDD-DDDMDD-DDD",
    51: "DDDDD-SSS-DDD-DDDMDD-DDS",
    52: "DDDDD-SSS-DDD-DSSSMD-DDD",
    53: "DDDDD-SSS-DDD-DSSSMD-DDS",
    54: "DDDDD-SSS-DDD-SSSSSM-DDD",
    55: "DDDDD-SSS-DDD-SSSSSM-DDS",
    56: "DDDDD-SDD-DDD-DDDDDD-MSS",
    57: "DDDDD-SDD-DDD-DDDDDD-DMS",
    58: "DDDDD-SDD-DDD-DDDDDD-DDM",
    59: "DDDDD-SSD-DDD-DDDDDD-DDM",
    60: "DDDDD-SSS-DDD-DDDDDD-DDM",
    61: "DDDDD-SSS-DDD-DDDSDD-DDM",
    62: "DDDDD-SSS-DDD-DDSSDD-DDM",
    63: "DDDDD-SSS-DDD-DSSSDD-DDM",
    64: "DDDDD-SSS-DDD-DSSSSD-DDM",
    65: "DDDDD-SSS-DDD-SSSSSD-DDM",
    66: "DDDDD-SSS-DDD-SSSSSS-DDM",
}

#: Table 3 (d = 6): (approximate alpha, Banker strategy), by case.
TABLE3 = [
    ("0.0720302", "MSSDD-SSS-MSD-SSSSSS-DDD"),
    ("0.0589814", "MSSDD-SSS-DMD-SSSSSS-DDD"),
    ("0.0943555", "MSSDD-SSS-SSM-SSSSSS-DDD"),
    ("0.0746382", "DMDDD-SSS-MSD-SSSSSS-DDD"),
    ("0.0616535", "DMDDD-SSS-DMD-SSSSSS-DDD"),
    ("0.0970241", "DMDDD-SSS-SSM-SSSSSS-DDD"),
    ("0.0730711", "DSMDD-SSS-MSD-SSSSSS-DDD"),
    ("0.0601033", "DSMDD-SSS-DMD-SSSSSS-DDD"),
    ("0.0953236", "DSMDD-SSS-SSM-SSSSSS-DDD"),
    ("0.0705339", "SSSMD-SSS-MSD-SSSSSS-DDD"),
    ("0.0574359", "SSSMD-SSS-DMD-SSSSSS-DDD"),
    ("0.0928460", "SSSMD-SSS-SSM-SSSSSS-DDD"),
    ("0.0665524", "SSSSM-SSS-MSD-SSSSSS-DDD"),
    ("0.0533616", "SSSSM-SSS-DMD-SSSSSS-DDD"),
    ("0.0887637", "SSSSM-SSS-SSM-SSSSSS-DDD"),
    ("0.0169646", "DDDDD-SMD-DDD-DDDDDD-DDM"),
    ("0.0205398", "DDDDD-SSM-DDD-DDDDDD-DDM"),
    ("0.0620017", "DDDDD-SSS-DDD-MSSSSD-DDM"),
    ("0.0572395", "DDDDD-SSS-DDD-DMSSDD-DDM"),
    ("0.0541199", "DDDDD-SSS-DDD-DDMSDD-DDM"),
    ("0.0458777", "DDDDD-SSS-DDD-DDDMDD-DDM"),
    ("0.0583077", "DDDDD-SSS-DDD-DSSSMD-DDM"),
    ("0.0622043", "DDDDD-SSS-DDD-SSSSSM-DDM"),
]

#: Table 4: d -> (a), (b), (c), (d), (e); the unlabelled last row holds for every d >= 77.
TABLE4 = {
    1: (26, 13, 4, 52, 2),
    2: (23, 30, 3, 83, 1),
    3: (22, 9, 4, 40, 0),
    4: (21, 19, 4, 59, 1),
    5: (21, 24, 4, 69, 1),
    6: (20, 23, 3, 66, 1),
    7: (26, 24, 9, 74, 1),
    8: (28, 34, 10, 96, 2),
    9: (28, 39, 9, 106, 2),
    10: (28, 28, 8, 84, 2),
    11: (28, 31, 9, 90, 2),
    12: (28, 26, 9, 80, 0),
    13: (28, 28, 9, 84, 0),
    14: (28, 27, 9, 82, 0),
    15: (28, 30, 7, 88, 0),
    16: (28, 30, 7, 88, 0),
    17: (28, 35, 7, 98, 0),
    18: (28, 35, 6, 98, 0),
    19: (28, 36, 6, 100, 0),
    20: (28, 44, 6, 116, 0),
}
TABLE4.update({d: (28, 46, 6, 120, 0) for d in range(21, 38)})
TABLE4.update({d: (28, 41, 6, 110, 0) for d in range(38, 45)})
TABLE4[45] = (28, 38, 6, 104, 0)
TABLE4.update({d: (28, 36, 6, 100, 0) for d in range(46, 77)})
TABLE4_LAST_ROW = (28, 37, 6, 102, 0)  # every d >= 77

#: Table 6 (Model B2): Banker strategies on which he mixes, in printed order, with the
#: equation number of the mixing probability; rows for d = 1, 2, 3, 4-7, then later d-ranges.
TABLE6 = [
    ("SSDSS-SSSSDD-SSSSS-MSSSSD-DDDSDD", 27),
    ("SSDDS-SSSSDD-SSSSS-MSSSSD-DDDSDD", 28),
    ("SSDDD-SSSSDD-SSSSS-MSSSSD-DDDSDD", 29),
    ("SSSSS-SSSSDD-DSSSD-MSSSSD-DDDSDD", 30),
    ("SSSSS-SSSSDD-SSSSD-MSSSSD-DDDSDD", 31),
    ("SSSSS-SSSSSS-DSSDD-MSSSSD-DDDSDD", 33),
    ("SSSSS-SSSSSS-DSSDD-MSSSSD-DDDDDD", 32),
    ("SSSSS-SSSSSS-DSSDD-MSSSSD-DDDSDD", 33),
    ("SSSSS-SSSSSS-DDSDD-MSSSSD-DDDDDD", 34),
    ("SSSSS-SSSSSS-DSSDD-MSSSSD-DDDDDD", 32),
    ("SSSSS-SSSSSS-DSSDD-MSSSSD-DDDSDD", 33),
    ("SSSSS-SSSSSS-DDDDD-MSSSSD-DDDDDD", 35),
    ("SSSSS-SSSSSS-DDSDD-MSSSSD-DDDDDD", 34),
    ("SSSSS-SSSSSS-DDSDD-MSSSSD-DDDSDD", 36),
    ("SSSSS-SSSSSS-DDDDD-MSSSSD-DDDDDD", 35),
]
