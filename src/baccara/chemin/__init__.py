"""Chemin de fer as a two-person game: build it on any shoe, solve it at a commission, sweep the commission.

The game and its models follow S. N. Ethier and C. Gamez, "A game-theoretic
analysis of baccara chemin de fer", *Games* 4(4), 711-737 (2013), and S. N.
Ethier and J. Lee, "A game-theoretic analysis of baccara chemin de fer, II",
*Games* 14(5), 63 (2023):

- Model A deals with replacement (the infinite shoe), Model B from a finite shoe;
- 1: each side sees only his total; 2: Banker sees his two-card composition;
  3: Player sees his composition too (he chooses at each composition of 5).

Player must draw on 0-4 and stand on 6-7 and chooses at 5; Banker is free at
every total 0-7, his information set being his total or composition and
Player's third card (or "none").  Banker pays a commission alpha on his wins.

The modules: the game (:mod:`.model`, its kernel :mod:`.kernel`), the solution and the commission
sweep of Models 1-2 (:mod:`.solution`) and of Model 3 (:mod:`.model3`), Model B3's proof over every
commission (:mod:`.proof`), the paper's tables (:mod:`.tables`), the reports (:mod:`.report`), and
Bertrand's 1888 problems (:mod:`.bertrand1888`).

Examples
--------
>>> from baccara import chemin, Shoe
>>> chemin.solve("B2", decks=8, commission="1/20")          # doctest: +ELLIPSIS
<CheminSolution: Chemin de fer, Model B2, 8 decks, commission 1/20: unique Nash equilibrium>
>>> poor = Shoe.decks(6).remove("8", n=6).remove("9", n=6)     # a shoe poor in 8s and 9s
>>> chemin.solve("B2", shoe=poor).to_json()["equilibria"][0]["player"]["draw_at_5"]
'1919432/2508333'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from .. import params
from ..errors import BaccaraError, ParameterError
from ..shoe import Shoe, shoe_label
from .bertrand1888 import BertrandReport, bertrand
from .model import FIVES, MODELS, CheminGame, CheminGame3, chemin_game
from .model3 import Chemin3Solution, Chemin3Sweep, solve_chemin3, sweep_chemin3
from .proof import Chemin3Proof, Chemin3ProofRange, ProofIncomplete, prove_chemin3, prove_chemin3_range
from .solution import CheminSolution, CheminSweep, solve_chemin, sweep_chemin
from .tables import MoveTable, Table4, Table7

__all__ = ["solve", "sweep", "prove", "prove_range", "game", "best_response", "table1", "table4", "table5", "table7",
           "bertrand", "CheminSolution", "Chemin3Solution", "CheminSweep", "Chemin3Sweep", "Chemin3Proof",
           "Chemin3ProofRange", "ProofIncomplete", "CheminGame", "CheminGame3", "MoveTable", "Table4", "Table7",
           "BertrandReport", "FIVES", "MODELS"]


def _shoe(decks: Any, shoe: Shoe | None, model: str = "B") -> int | None | Shoe:
    """The game's shoe: ``decks`` or ``shoe``; by default 6 decks, or the infinite shoe for Model A."""
    if decks is None and shoe is None and str(model).strip().upper().startswith("A"):
        return None
    return params.decks_or_shoe(decks, shoe, default=6)


def game(model: str = "B2", decks: int | str | None = None, *, shoe: Shoe | None = None) -> CheminGame | CheminGame3:
    """The chemin de fer game under ``model`` on a shoe.

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` for the infinite shoe (default 6, and the infinite shoe for
        Model A, which refuses finite decks); not with ``shoe``.
    shoe : Shoe, optional
        Any shoe: a depleted one, a composition by rank or by value.

    Returns
    -------
    CheminGame or CheminGame3
        The additive game of Models 1-2 (``.at(alpha)``, ``.linear()``) or the
        bilinear game of Model 3.
    """
    return chemin_game(model, _shoe(decks, shoe, model))


def solve(model: str = "B2", decks: int | str | None = None, commission: Any = Fraction(1, 20), *,
          shoe: Shoe | None = None, all_equilibria: bool = True) -> CheminSolution | Chemin3Solution:
    """Every Nash equilibrium at one commission, each with an exact certificate.

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6; Model A: the infinite shoe only); not with ``shoe``.
    commission : Fraction, int, float or str
        Alpha, in [0, 1): ``"1/20"``, ``0.05``, ``"5%"``.
    shoe : Shoe, optional
        Any shoe instead of fresh decks.
    all_equilibria : bool
        Model 3: enumerate every extreme equilibrium (settles uniqueness); False
        finds one by Ethier and Lee's route.  Models 1-2 always enumerate them
        (Foster's algorithm).

    Returns
    -------
    CheminSolution or Chemin3Solution
        The equilibria and certificates (``to_json()``, ``show()``).
    """
    alpha = params.commission(commission, "commission")
    g = game(model, decks, shoe=shoe)
    if isinstance(g, CheminGame3):
        return solve_chemin3(g, alpha, all_equilibria=all_equilibria)
    return solve_chemin(g, alpha)


def sweep(model: str = "B2", decks: int | str | None = None, lo: Any = 0, hi: Any = Fraction(1, 10), *,
          shoe: Shoe | None = None) -> CheminSweep | Chemin3Sweep:
    """The exact structure of the equilibria over the commission alpha in [lo, hi].

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3 (Model A3's equilibria are Model A1's: its sweep says so).
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6; Model A: the infinite shoe only); not with ``shoe``.
    lo, hi : Fraction, int, float or str
        The commission range, 0 <= lo < hi < 1.
    shoe : Shoe, optional
        Any shoe instead of fresh decks.

    Returns
    -------
    CheminSweep or Chemin3Sweep
        Best-response-discontinuity curves, their intersections, the equilibrium on
        every alpha-interval and the exceptional alphas.
    """
    a, b = params.commission(lo, "lo"), params.commission(hi, "hi")
    if a >= b:
        raise BaccaraError(f"lo must be below hi, got {a} and {b}")
    g = game(model, decks, shoe=shoe)
    if g.model == "B3":
        return sweep_chemin3(g, a, b)
    return sweep_chemin(g, a, b)  # Model A3 is swept as A1 (and says so)


def prove(model: str = "B3", decks: int | str | None = 6, lo: Any = 0, hi: Any = Fraction(1, 10)) -> Chemin3Proof:
    """A proof, for every commission alpha in [lo, hi] at once, of where Model B3's Nash equilibria lie.

    Ethier and Lee (2023) solved Model B3 at chosen (d, alpha); this proves, for a whole commission
    range, that the equilibrium is unique except at finitely many exact critical alphas, where every
    equilibrium is listed.  ``to_json()`` is the proof artefact, which
    :func:`baccara.check.check` (``baccara check FILE``) re-checks without the solvers.

    Parameters
    ----------
    model : str
        B3 (the only model proved over a range so far).
    decks : int or str
        Fresh decks in the shoe, 1 to 1000, or ``"inf"`` (dealing with replacement).
    lo, hi : Fraction, int, float or str
        The commission range, 0 <= lo < hi < 1 (default [0, 1/10]).

    Returns
    -------
    Chemin3Proof
        The case tree, the faces' exact sweeps, every critical alpha with its equilibria, and the
        statement proved.

    Raises
    ------
    ProofIncomplete
        When the case tree cannot close (the statement is then not proved).
    """
    if str(model).upper() != "B3":
        raise ParameterError(f"--model must be B3 for a proof over the commission, got {model!r}")
    a, b = params.commission(lo, "lo"), params.commission(hi, "hi")
    if a >= b:
        raise BaccaraError(f"lo must be below hi, got {a} and {b}")
    return prove_chemin3(params.decks(decks, "decks", hi=1000), a, b)


def prove_range(model: str = "B3", decks: Iterable[Any] = range(1, 101), lo: Any = 0, hi: Any = Fraction(1, 10),
                workers: int = 1, out_dir: str | Path | None = None,
                progress: Callable[[int | None], None] | None = None, backend: str = "processes",
                scheduler: str | None = None) -> Chemin3ProofRange:
    """:func:`prove` for many d at once, on several processes, each d's artefact written to a folder.

    Parameters
    ----------
    model : str
        B3.
    decks : iterable of int or str
        Values of d, 1 to 1000, or ``"inf"``.
    lo, hi : Fraction, int, float or str
        The commission range, 0 <= lo < hi < 1 (default [0, 1/10]).
    workers : int
        Processes (1: this one).
    out_dir : str or Path, optional
        An existing folder for the artefacts, ``b3-d8.json`` and so on.
    progress : callable, optional
        Called with each d as it is done.
    backend : str
        ``processes`` (default: ``workers`` processes here) or ``dask`` (a local Dask cluster of
        ``workers``, or the cluster at ``scheduler``); the artefacts are the same.
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT`` (implies ``dask``).

    Returns
    -------
    Chemin3ProofRange
        One row per d: proved or not, the faces, the exceptional alphas, the sizes and CPU times, and a
        statement grouping consecutive d with the same outcome.
    """
    if str(model).upper() != "B3":
        raise ParameterError(f"--model must be B3 for a proof over the commission, got {model!r}")
    a, b = params.commission(lo, "lo"), params.commission(hi, "hi")
    if a >= b:
        raise BaccaraError(f"lo must be below hi, got {a} and {b}")
    ds = [params.decks(d, "decks", hi=1000) if d is not None else None for d in decks]
    if not ds:
        raise ParameterError("decks is empty: give at least one d")
    if workers < 1:
        raise ParameterError(f"workers must be at least 1, got {workers}")
    if out_dir is not None and not Path(out_dir).is_dir():
        raise ParameterError(f"out_dir must be an existing folder, got {str(out_dir)!r}")
    backend, scheduler = params.backend(backend, scheduler)
    return prove_chemin3_range(ds, a, b, workers, out_dir, progress, backend, scheduler)


# ---------------------------------------------------------------- the papers' tables
def _game12(model: str, decks: Any, shoe: Shoe | None, what: str) -> CheminGame:
    g = game(model, decks, shoe=shoe)
    if isinstance(g, CheminGame3):
        raise BaccaraError(f"model must be A1, A2, B1 or B2 for {what} (Model 3 is solved by solve and sweep), "
                           f"got {g.model!r}")
    return g


def _deck_list(decks: Iterable[Any], infinite: bool = True) -> list[int | None]:
    ds = [params.decks(d, "decks", infinite=infinite) for d in decks]
    if not ds:
        raise BaccaraError("decks must name at least one number of decks")
    return ds


def best_response(model: str = "B2", decks: int | str | None = None, commission: Any = Fraction(1, 20),
                  p: Any = 0, *, shoe: Shoe | None = None) -> MoveTable:
    """Banker's best response to Player drawing at 5 with probability p (Ethier and Lee (2023), Table 1 layout).

    Parameters
    ----------
    model : str
        A1, A2, B1 or B2.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6; Model A: the infinite shoe only); not with ``shoe``.
    commission : Fraction, int, float or str
        Alpha, in [0, 1).
    p : Fraction, int, float or str
        Player's probability of drawing at 5, in [0, 1].
    shoe : Shoe, optional
        Any shoe instead of fresh decks.

    Returns
    -------
    MoveTable
        D, S or M (indifferent) by Banker total and Player's third card; ``*`` where compositions differ.
    """
    from .solution import best_response_table

    alpha = params.commission(commission, "commission")
    pp = params.probability(p, "p")
    g = _game12(model, decks, shoe, "a best-response table")
    rows, notes = best_response_table(g, pp, alpha)
    return MoveTable(f"Banker's best response, Model {g.model}, {shoe_label(g.decks)}, alpha = {alpha}, p = {pp}",
                     "best_response", rows, notes, "D draw, S stand, M indifferent")


def table1(model: str = "B2", decks: int | str | None = None, *, shoe: Shoe | None = None) -> MoveTable:
    """Ethier and Lee (2023), Table 1: Banker's moves fixed whatever Player does and whatever alpha in [0, 1/10].

    Parameters
    ----------
    model : str
        A1, A2, B1 or B2.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6; Model A: the infinite shoe only); not with ``shoe``.
    shoe : Shoe, optional
        Any shoe instead of fresh decks.

    Returns
    -------
    MoveTable
        D or S where the move is fixed; blank (None in JSON) where it depends on Player's strategy or alpha.
    """
    from .solution import table1 as rows1

    g = _game12(model, decks, shoe, "Table 1")
    return MoveTable(f"Banker's moves, Model {g.model}, {shoe_label(g.decks)}, alpha in [0, 1/10]", "table1",
                     rows1(g), [], "D draw, S stand, . depends on Player's strategy or alpha")


def table4(decks: Iterable[Any] = (*range(1, 101), None),
           progress: Callable[[int | None], None] | None = None) -> Table4:
    """Ethier and Lee (2023), Table 4: Model B2's alpha sweep counted for each d (``None``/``"inf"``: Model A2).

    Parameters
    ----------
    decks : iterable of int, str or None
        The numbers of decks (default 1-100 and the infinite shoe); about 0.1 s each.
    progress : callable, optional
        Called with each d when it is done.

    Returns
    -------
    Table4
        Curves, intersections, partial curves, cases and exceptional alphas, for each d.
    """
    from .solution import table4 as rows4

    return Table4(rows4(_deck_list(decks), progress))


def table5(decks: Iterable[Any] = range(1, 101), progress: Callable[[int], None] | None = None) -> MoveTable:
    """Ethier and Lee (2023), Table 5: Banker's Model B2 equilibrium moves common to every d given and every alpha.

    Parameters
    ----------
    decks : iterable of int or str
        Finite numbers of decks (default 1-100); about 0.1 s each.
    progress : callable, optional
        Called with each d when it is done.

    Returns
    -------
    MoveTable
        D or S where the move is the same for every d, composition and alpha in [0, 1/10]; blank where it varies.
    """
    from .solution import table5 as rows5

    ds = cast(list[int], _deck_list(decks, infinite=False))  # 'inf' was refused
    label = f"d = {ds[0]}" if len(ds) == 1 else f"d in {ds[0]}..{ds[-1]} ({len(ds)} values)"
    return MoveTable(f"Banker's equilibrium moves common to {label} and alpha in [0, 1/10]", "table5",
                     rows5(ds, progress), [], "D draw, S stand, . varies")


def table7(decks: Iterable[Any] = range(1, 21), confirm: bool = True,
           progress: Callable[[int], None] | None = None) -> Table7:
    """Ethier and Lee (2023), Table 7 and Theorem 2: Model B3's Banker strategies by alpha-interval.

    Parameters
    ----------
    decks : iterable of int or str
        Finite numbers of decks (default 1-20); about 8 s each with ``confirm``.
    confirm : bool
        Confirm each interval in the full Model B3 game (else only the restricted game, about 0.1 s each).
    progress : callable, optional
        Called with each d when it is done.

    Returns
    -------
    Table7
        Consecutive d with the same strategies grouped, exceptional alphas and confirmation.
    """
    from .model3 import table7 as rows7

    ds = cast(list[int], _deck_list(decks, infinite=False))  # 'inf' was refused
    return Table7(rows7(ds, confirm, progress))
