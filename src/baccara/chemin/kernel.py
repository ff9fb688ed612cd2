"""Numba kernel: chemin de fer payoff coefficients by Banker information set.

See :mod:`baccara.chemin.model` for the mathematics.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..solve.signs import sgn

#: Column of the "Player stood" information sets.
NONE = 10


def _compositions() -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Banker's 44 two-card compositions (j1 <= j2) with total 0-7, ordered by
    total then lexicographically; ``index[j1, j2]`` (both orders) or -1."""
    comps = sorted(((a, b) for a in range(10) for b in range(a, 10) if (a + b) % 10 <= 7),
                   key=lambda c: ((c[0] + c[1]) % 10, c))
    index = np.full((10, 10), -1, dtype=np.int64)
    for i, (a, b) in enumerate(comps):
        index[a, b] = index[b, a] = i
    return index, comps


COMP_INDEX, COMPOSITIONS = _compositions()


@njit(cache=True)
def chemin_coefficients(vc, n, replacement, pdraw, comp_index, g, h, base):
    """Ordered-deal sums of a chemin de fer coup, Banker standing by default.

    ``pdraw[a, b]``: Player, holding values a <= b (total 0-7), draws.
    Writes (all over the (N)_6 or N^6 ordered deals; arrays zeroed by caller):

    - ``g[c, k]``: sum over deals reaching Banker composition c with Player's
      third card k (or NONE) of sgn(z_draw) - sgn(z_stand), z = Banker's final
      total minus Player's;
    - ``h[c, k]``: the same sum of [z_draw > 0] - [z_stand > 0];
    - ``base``: sums over all deals, Banker standing everywhere, of
      sgn(z) (base[0]) and [z > 0] (base[1]).
    """
    n4 = n if replacement else n - 4
    n5 = n if replacement else n - 5
    rem = np.zeros(10, dtype=vc.dtype)
    for a in range(10):
        for b in range(a, 10):
            for c in range(10):
                for d in range(c, 10):
                    for v in range(10):
                        rem[v] = vc[v]
                    w = rem[a]
                    if not replacement:
                        rem[a] -= 1
                    w *= rem[b]
                    if not replacement:
                        rem[b] -= 1
                    w *= rem[c]
                    if not replacement:
                        rem[c] -= 1
                    w *= rem[d]
                    if not replacement:
                        rem[d] -= 1
                    if w <= 0:
                        continue
                    w *= (1 if a == b else 2) * (1 if c == d else 2)
                    pt = (a + b) % 10
                    bt = (c + d) % 10
                    if pt >= 8 or bt >= 8:
                        z = bt - pt
                        base[0] += sgn(z) * w * n4 * n5
                        base[1] += (1 if z > 0 else 0) * w * n4 * n5
                        continue
                    ci = comp_index[c, d]
                    if not pdraw[a, b]:
                        z = bt - pt
                        ws = w * n4 * n5
                        base[0] += sgn(z) * ws
                        base[1] += (1 if z > 0 else 0) * ws
                        for f in range(10):
                            wf = w * rem[f] * n5
                            if wf == 0:
                                continue
                            zf = (bt + f) % 10 - pt
                            g[ci, 10] += (sgn(zf) - sgn(z)) * wf
                            h[ci, 10] += ((1 if zf > 0 else 0) - (1 if z > 0 else 0)) * wf
                        continue
                    for e in range(10):
                        we = w * rem[e]
                        if we == 0:
                            continue
                        pf = (pt + e) % 10
                        z = bt - pf
                        ws = we * n5
                        base[0] += sgn(z) * ws
                        base[1] += (1 if z > 0 else 0) * ws
                        if not replacement:
                            rem[e] -= 1
                        for f in range(10):
                            wf = we * rem[f]
                            if wf == 0:
                                continue
                            zf = (bt + f) % 10 - pf
                            g[ci, e] += (sgn(zf) - sgn(z)) * wf
                            h[ci, e] += ((1 if zf > 0 else 0) - (1 if z > 0 else 0)) * wf
                        if not replacement:
                            rem[e] += 1
