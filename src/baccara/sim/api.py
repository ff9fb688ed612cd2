"""Simulate a game in one call: punto banco, chemin de fer and baccara banque on real shoes.

Each function builds the job from plain values (numbers, names of bets and
strategies, paths of TOML files), runs it and returns a result that follows
:class:`baccara.result.Result`: ``to_json()`` is exactly what
``baccara simulate ... --json`` prints, ``show()`` its tables, and in a
notebook it displays itself.  The command line builds its strategies with the
same functions (:func:`chemin_strategy`, :func:`banque_strategy`).

Examples
--------
>>> from baccara import sim
>>> r = sim.play_punto(200, seed=1, bets="banker,tie")          # doctest: +SKIP
>>> r.to_json()["bets"]["banker"]["ev_per_bet"]                 # doctest: +SKIP
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from .. import params
from ..errors import BaccaraError
from ..punto.bets import DEFAULT_COMMISSION, DEFAULT_SUPER6_PAYS, DEFAULT_TIE_PAYS, Bet, house_bets
from .banque import (
    BANQUE_CUT,
    BanqueJob,
    BanqueResult,
    BanqueStrategy,
    draw_to_5_banker,
    independent_players,
    simulate_banque,
)
from .banque import equilibrium_strategy as banque_equilibrium
from .chemin import (
    CheminJob,
    CheminResult,
    CheminStrategy,
    check_model_for_decks,
    equilibrium_strategy,
    load_strategy_toml,
    simulate_chemin,
    tableau_strategy,
)
from .counting import CountSystem, load_count_toml
from .punto import (
    DEFAULT_COUPS,
    DEFAULT_CUT,
    PuntoJob,
    PuntoResult,
    bets_from_names,
    count_bet_names,
    perfect_chunk_size,
    simulate_punto,
)

#: Words for Banker's strategies in chemin de fer.
EQUILIBRIUM_WORDS = ("equilibrium", "nash")
TABLEAU_WORDS = ("tableau", "punto", "punto-banco")


def _seed(seed: int | None) -> int:
    return secrets.randbits(63) if seed is None else seed


def chemin_strategy(banker: str | Path | CheminStrategy = "equilibrium", decks: int | None = 6,
                    commission: Any = DEFAULT_COMMISSION, model: str = "2",
                    draw_at_5: Any = None) -> CheminStrategy:
    """The strategy pair of a chemin de fer simulation, from words.

    Parameters
    ----------
    banker : str, Path or CheminStrategy
        ``"equilibrium"`` (the solver's Nash equilibrium), ``"tableau"`` (punto banco's),
        a TOML strategy file, or a strategy.
    decks : int or None
        Decks in the shoe (None: infinite), for the equilibrium.
    commission : Fraction, int, float or str
        Commission on Banker's wins, for the equilibrium.
    model : str
        The equilibrium's information model: ``B2`` / ``B1`` (a finite shoe), ``A2`` / ``A1``
        (the infinite shoe), or ``2`` / ``1`` (the letter follows ``decks``).
    draw_at_5 : Fraction, float, str or None
        Player's probability of drawing at 5 (None: the strategy's own).

    Returns
    -------
    CheminStrategy
        Player's probability of drawing at 5 and Banker's drawing probabilities.
    """
    if isinstance(banker, CheminStrategy):
        strategy = banker
    else:
        key = str(banker).strip().lower()
        if key in EQUILIBRIUM_WORDS:
            strategy = equilibrium_strategy(decks, params.commission(commission),
                                            check_model_for_decks(model, decks))
        elif key in TABLEAU_WORDS:
            strategy = tableau_strategy()
        else:
            strategy = load_strategy_toml(banker)
    if draw_at_5 is not None:
        strategy = strategy.with_draw_at_5(params.probability(draw_at_5, "draw_at_5"))
    return strategy


def banque_strategy(theta: Any = Fraction(1, 2), p1: Any = None, p2: Any = None,
                    banker: str = "equilibrium") -> BanqueStrategy:
    """The strategies of a banque simulation, from words.

    Parameters
    ----------
    theta : Fraction, float or str
        Stake on Player 1's hand, in (0, 1); Player 2 stakes 1 - theta.
    p1, p2 : Fraction, float, str or None
        Each Player's probability of drawing at 5, independently; both None: the Players
        play the correlated equilibrium of Ethier and Lee (2015).
    banker : str
        ``"equilibrium"`` (the correlated cooperative equilibrium) or ``"draw-to-5"``
        (draw on 0-5, stand on 6-7).

    Returns
    -------
    BanqueStrategy
        The Players' joint mixture at 5 and Banker's table, named for people.
    """
    eq = banque_equilibrium(params.theta(theta))
    if p1 is None and p2 is None:
        mix, pname = eq.players, "correlated equilibrium"
    else:
        if p1 is None or p2 is None:
            raise BaccaraError("independent Players need both p1 and p2 (each one's probability of drawing at 5)")
        a, b = params.probability(p1, "p1"), params.probability(p2, "p2")
        mix, pname = independent_players(a, b), f"independent, p1 = {a}, p2 = {b}"
    key = banker.strip().lower()
    if key == "equilibrium":
        table, bname = eq.banker, "correlated equilibrium"
    elif key in ("draw-to-5", "draw5"):
        table, bname = draw_to_5_banker(), "draws on 0-5"
    else:
        raise BaccaraError(f"banker must be equilibrium or draw-to-5, got {banker!r}")
    return BanqueStrategy(f"Players: {pname}; Banker: {bname}", tuple(mix), table)


def play_punto(shoes: int = 10_000, *, seed: int | None = None, decks: int | str | None = 8,
               bets: str | Iterable[str | Bet] | Mapping[str, Bet] = "banker,player,tie",
               count: CountSystem | str | Path | None = None, perfect: bool = False, perfect_every: int = 1,
               cut: int | None = None, deal: str = "cut", coups: int = DEFAULT_COUPS,
               commission: Any = DEFAULT_COMMISSION, tie_pays: Any = DEFAULT_TIE_PAYS,
               super6_pays: Any = DEFAULT_SUPER6_PAYS, backend: str = "threads",
               workers: int | None = None) -> PuntoResult:
    """Punto banco on real shoes: flat bets, a count system, or the perfect counter.

    Parameters
    ----------
    shoes : int
        Shoes to deal.
    seed : int, optional
        The seed (default: a random one, reported in the result).
    decks : int, str or None
        Decks in the shoe; ``"inf"`` or None deals with replacement.
    bets : str, iterable or mapping
        Bets to play: names of built-in bets (``"banker,tie,dragon7"``), or :class:`~baccara.Bet` objects.
    count : CountSystem, str or Path, optional
        A count system, or its TOML file; it decides, coup by coup, which of its bets to place.
    perfect : bool
        The perfect counter: bet exactly when the exact engine gives the unseen cards a positive edge.
    perfect_every : int
        The perfect counter re-evaluates every k-th coup.
    cut : int, optional
        Cards behind the cut card (default: the count file's, else 14; at least 11).
    deal : str
        ``"cut"`` (real shoes to the cut card), ``"csm"`` (every coup from the full shoe).
    coups : int
        Coups per shoe without a cut card.
    commission, tie_pays, super6_pays : Fraction, int, float or str
        The house's terms of the built-in bets.
    backend : str
        ``"threads"``, ``"processes"``, ``"dask"`` or ``"gpu"`` (a CUDA GPU, :mod:`baccara.sim.gpu`: the
        same shoes and results, not for the perfect counter).  The perfect counter on bets on card values
        is compiled and runs on threads; with a pair bet it runs in Python, so on ``"threads"`` it
        moves to worker processes where that is safe: not from a script's top level outside
        ``if __name__ == "__main__":``, where it stays in threads (:func:`baccara.processes.spawn_is_safe`).
    workers : int, optional
        Threads or processes (default: every core).

    Returns
    -------
    PuntoResult
        Outcomes and every bet's simulated EV, hit frequency and win per shoe with standard
        errors, beside the exact values for a coup from the full shoe.
    """
    system = load_count_toml(count) if isinstance(count, (str, Path)) else count
    available = house_bets(params.commission(commission), params.payout(tie_pays, "tie_pays", positive=True),
                           params.payout(super6_pays, "super6_pays", positive=True))
    if isinstance(bets, str):
        chosen: list[str | Bet] = [n for n in bets.replace(" ", "").split(",") if n]
    else:
        chosen = list(bets.values() if isinstance(bets, Mapping) else bets)
    for b in chosen:
        if isinstance(b, Bet):
            available[b.name] = b  # a bet given as such is played as given
    names = count_bet_names([b.name if isinstance(b, Bet) else b for b in chosen], available, system)
    default_cut = system.cut if system is not None and system.cut else DEFAULT_CUT
    played = bets_from_names(names, available)
    job = PuntoJob(seed=_seed(seed), shoes=shoes, decks=params.decks(decks), bets=played,
                   deal=deal, cut=default_cut if cut is None else cut, coups=coups, count=system, perfect=perfect,
                   perfect_every=perfect_every, chunk_size=perfect_chunk_size(played) if perfect else 4096)
    return simulate_punto(job, backend, workers)


def play_chemin(sessions: int = 10_000, *, seed: int | None = None, decks: int | str | None = 6,
                commission: Any = DEFAULT_COMMISSION, banker: str | Path | CheminStrategy = "equilibrium",
                model: str = "2", draw_at_5: Any = None, seats: int = 6, stake: float = 1.0,
                withdraw_after: int = 0, cut: int = DEFAULT_CUT, deal: str = "cut", coups: int = DEFAULT_COUPS,
                backend: str = "threads", workers: int | None = None) -> CheminResult:
    """Chemin de fer sessions: the rotating bank, the commission, bank runs and the house's take.

    Parameters
    ----------
    sessions : int
        Sessions to play, one shoe each.
    seed : int, optional
        The seed (default: a random one, reported in the result).
    decks : int, str or None
        Decks in the shoe; ``"inf"`` or None deals with replacement.
    commission : Fraction, int, float or str
        Commission on Banker's wins, in [0, 1).
    banker, model, draw_at_5
        The strategies, as :func:`chemin_strategy` takes them.
    seats : int
        Players at the table, 2 to 32.
    stake : float
        The opening bank, in units.
    withdraw_after : int
        Banker withdraws after this many wins in a row (0: never).
    cut, deal, coups
        The cut card's depth, ``"cut"`` or ``"csm"``, coups per shoe without a cut card.
    backend : str
        ``"threads"``, ``"processes"`` or ``"dask"``.
    workers : int, optional
        Threads or processes (default: every core).

    Returns
    -------
    CheminResult
        Banker's and Player's gains per coup beside the exact values, outcomes, banks, the
        house's take and every seat's net per session.
    """
    d = params.decks(decks)
    alpha = params.commission(commission)
    job = CheminJob(seed=_seed(seed), shoes=sessions, strategy=chemin_strategy(banker, d, alpha, model, draw_at_5),
                    decks=d, alpha=alpha, seats=seats, stake=stake, withdraw_after=withdraw_after, deal=deal,
                    cut=cut, coups=coups)
    return simulate_chemin(job, backend, workers)


def play_banque(sessions: int = 10_000, *, seed: int | None = None, decks: int | str | None = 3,
                theta: Any = Fraction(1, 2), p1: Any = None, p2: Any = None, banker: str = "equilibrium",
                cut: int = BANQUE_CUT, deal: str = "cut", coups: int = DEFAULT_COUPS,
                backend: str = "threads", workers: int | None = None) -> BanqueResult:
    """Baccara banque sessions: two tableaux against one Banker, stakes theta : 1 - theta.

    Parameters
    ----------
    sessions : int
        Sessions to play, one shoe each.
    seed : int, optional
        The seed (default: a random one, reported in the result).
    decks : int, str or None
        Decks in the shoe; ``"inf"`` or None deals with replacement.
    theta, p1, p2, banker
        The stakes and strategies, as :func:`banque_strategy` takes them.
    cut, deal, coups
        The cut card's depth, ``"cut"`` or ``"csm"``, coups per shoe without a cut card.
    backend : str
        ``"threads"``, ``"processes"`` or ``"dask"``.
    workers : int, optional
        Threads or processes (default: every core).

    Returns
    -------
    BanqueResult
        Banker's gain per coup beside the simplified model's exact value, and each Player's.
    """
    t = params.theta(theta)
    job = BanqueJob(seed=_seed(seed), shoes=sessions, strategy=banque_strategy(t, p1, p2, banker), theta=t,
                    decks=params.decks(decks), deal=deal, cut=cut, coups=coups)
    return simulate_banque(job, backend, workers)
