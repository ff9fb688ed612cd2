"""The events of the banque Nash proof that ship with the package, read back and checked.

Each event is an irreducible integer polynomial with a rational interval isolating its root (written
by :func:`~baccara.banque.nash_eq.proof.write_events`).  The sweep and the artefact read them without
loading the prover, and the prover imports from here, not the other way round.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources
from typing import cast

import flint

from ...solve.roots import Endpoint, arb_of, precision


def _q(t: Fraction):
    return flint.fmpq(t.numerator, t.denominator)


#: The stored events of (0, 5772/33847): :func:`events_json` of :func:`nash_proof` (re-derived by
#: the slow test).
EVENTS_FILE = "nash_events.json"


#: The stored events of (5772/33847, 1/2) (the same, re-derived by the slow test).
UPPER_EVENTS_FILE = "nash_events_upper.json"


def events_from_json(doc: dict) -> list[Endpoint]:
    """The events stored by :func:`events_json`, each checked to be the only real root of its
    polynomial in its interval (a sign change at the ends and one real root inside).

    Parameters
    ----------
    doc : dict
        As written by :func:`events_json`.

    Returns
    -------
    list of Endpoint
        The events, ascending.
    """
    out: list[Endpoint] = []
    for row in doc["events"]:
        f = flint.fmpz_poly([int(c) for c in row["polynomial"]])
        a, b = (Fraction(x) for x in row["interval"])
        fa, fb = f(_q(a)), f(_q(b))
        roots = cast("list[tuple[flint.acb, int]]", f.complex_roots())
        inside = [z for z, _ in roots if z.imag == 0 and z.real.overlaps(arb_of(a).union(arb_of(b)))]
        if not (a < b and fa * fb < 0 and len(inside) == 1):
            raise ArithmeticError(f"stored event near {row['float']}: not an isolating interval")
        ball = arb_of(a).union(arb_of(b))
        if out and (out[-1].ball.overlaps(ball) or float(out[-1]) > row["float"]):
            raise ArithmeticError("stored events not disjoint and ascending")
        out.append(Endpoint(ball, f))
    return out


def stored_events(name: str = EVENTS_FILE) -> list[Endpoint]:
    """The events shipped with the package, checked: of (0, 5772/33847) (:data:`EVENTS_FILE`,
    the default) or of (5772/33847, 1/2) (:data:`UPPER_EVENTS_FILE`).

    Parameters
    ----------
    name : str
        Which file.

    Returns
    -------
    list of Endpoint
        The events, ascending (empty if the file is absent).
    """
    path = resources.files(__package__).joinpath(name)
    if not path.is_file():
        return []
    with precision():
        return events_from_json(json.loads(path.read_text()))


#: Ethier and Lee (2015): p1 = p2 = 9/11 for theta above this, not below.
THETA_9_11 = Fraction(5772, 33847)
