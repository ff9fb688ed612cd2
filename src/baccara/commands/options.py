"""The parameters many commands share, declared once, and how their values become a shoe, rules and bets.

Each :class:`~baccara.commands.Param` here is an option of several commands (``--decks``, ``--commission``,
``--bets``...); the builders turn the values given into the objects the library takes, with errors that name
the option and what it allows.
"""

from __future__ import annotations

from .. import params
from ..cards import parse_ranks, rank_index
from ..errors import BaccaraError
from ..punto.bets import (
    DEFAULT_COMMISSION,
    DEFAULT_SUPER6_PAYS,
    DEFAULT_TIE_PAYS,
    Bet,
    as_payout,
    house_bets,
    load_bets_toml,
)
from ..punto.known import Known
from ..rules import PUNTO_BANCO, Tableau, load_tableau_toml
from ..shoe import Shoe
from . import Param

DECKS = Param("decks", "--decks", "Number of decks, a positive integer, or 'inf' (default 8).", short="-d")
INFINITE = Param("infinite", "--infinite", "Infinite shoe: cards dealt with replacement.", False, "bool")
COMPOSITION = Param("composition", "--composition", "Cards left: 'A=32,2=31,...' by rank, 13 counts A..K, or 10 "
                                                     "counts by value 0..9.")
REMOVE = Param("remove", "--remove", "Ranks to take out of the shoe, e.g. '6,6,7'.")
ADD = Param("add", "--add", "Ranks to put into the shoe, e.g. '8,9'.")
COMMISSION = Param("commission", "--commission", "Commission on Banker wins, a rational in [0, 1) (e.g. 1/20, "
                                                  "1/25, 0).", str(DEFAULT_COMMISSION))
TIE_PAYS = Param("tie_pays", "--tie-pays", "Tie pays T:1 (8 or 9 usual).", str(DEFAULT_TIE_PAYS.numerator))
SUPER6_PAYS = Param("super6_pays", "--super6-pays", "Super 6 side bet pays P:1 (12 or 15 usual).",
                    str(DEFAULT_SUPER6_PAYS.numerator))
BETS = Param("bets", "--bets", "TOML file of user-defined bets ([bets.NAME] tables); see 'baccara fields'.",
             file=True)
TABLEAU = Param("tableau", "--tableau", "TOML file of the drawing rules (default: the punto banco tableau); see "
                                       "examples/tableaux/.", file=True)
KNOWN = Param("known", "--known", "What is known of the coup's cards: POSITION=RANK or 'POSITION in RANK,RANK,...'; "
                                  "positions 1-4 are Player, Banker, Player, Banker, 5 and 6 the fifth and sixth "
                                  "cards out of the shoe; ranks A, 2-9, 10, J, Q, K, or 0 for any of 10, J, Q, K.  "
                                  "Repeat it, or separate conditions by ';'.", kind="list")
ALLOW_LONG = Param("allow_long", "--allow-long", "Run even when the estimated time exceeds an hour of one core "
                                                 "(refused otherwise).", False, "bool", web=False)
SCHEDULER = Param("scheduler", "--scheduler", "Run on a Dask distributed cluster: tcp://HOST:PORT (checked within "
                                              "5 s before the run).", web=False)
PROOF_BACKEND = Param("backend", "--backend", "Where the workers run: processes (here) or dask (a local cluster of "
                                              "--workers, unless --scheduler is given).", "processes", web=False)
#: The shoe's options, in the order commands list them.
SHOE = (DECKS, INFINITE, COMPOSITION, REMOVE, ADD)
#: The house's terms of the built-in bets.
HOUSE = (COMMISSION, TIE_PAYS, SUPER6_PAYS)


def parse_composition(text: str) -> Shoe:
    """A shoe from ``--composition``: ``A=32,10=31,...`` by rank, 13 counts A..K, or 10 counts by value 0..9.

    Parameters
    ----------
    text : str
        The value given.

    Returns
    -------
    Shoe
        The cards left.

    Raises
    ------
    BaccaraError
        Naming ``--composition`` and the forms it takes.
    """
    try:
        return _composition(text)
    except BaccaraError as e:
        message = str(e)
        raise BaccaraError(message if message.startswith("--composition") else f"--composition: {message}") from None


def _composition(text: str) -> Shoe:
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if not parts:
        raise BaccaraError("--composition is empty: give RANK=COUNT pairs, 13 counts (A..K) or 10 counts (values 0..9)")
    if all("=" in p for p in parts):
        counts: dict[str | int, int] = {}
        seen: dict[int, str] = {}
        for p in parts:
            name, value = p.split("=", 1)
            try:
                r = rank_index(name)
            except BaccaraError as e:
                raise BaccaraError(f"--composition: {e}") from None
            if r in seen:
                raise BaccaraError(f"--composition gives rank {name} twice ({seen[r]}=... and {name}=...): "
                                   "give each rank once")
            seen[r] = name
            counts[name] = params.integer(value, f"--composition count of {name}", lo=0)
        return Shoe.from_ranks(counts)
    if any("=" in p for p in parts):
        raise BaccaraError("--composition mixes RANK=COUNT pairs with bare counts; use one form")
    numbers = [params.integer(p, "--composition count", lo=0) for p in parts]
    if len(numbers) == 13:
        return Shoe.from_ranks(numbers)
    if len(numbers) == 10:
        return Shoe.from_values(numbers)
    raise BaccaraError(
        f"--composition takes 13 counts (ranks A..K) or 10 counts (values 0..9), got {len(numbers)}"
    )


def _parse_ranks(text: str | None, option: str) -> list[str]:
    if not text:
        return []
    try:
        return parse_ranks(text)
    except BaccaraError as e:
        raise BaccaraError(f"{option}: {e}") from None


def build_shoe(decks: str | None, infinite: bool, composition: str | None, remove: str | None, add: str | None,
               default_decks: int = 8) -> Shoe:
    """The shoe chosen by the common options (default: 8 decks).

    Parameters
    ----------
    decks, infinite, composition, remove, add : str or None, bool, str or None, str or None, str or None
        ``--decks``, ``--infinite``, ``--composition`` (at most one of these three), ``--remove``, ``--add``.
    default_decks : int
        The decks when no shoe is chosen.

    Returns
    -------
    Shoe
        The shoe.

    Raises
    ------
    BaccaraError
        Naming the option at fault and what it allows.
    """
    chosen = [name for name, given in (("--decks", decks is not None), ("--infinite", infinite), ("--composition", composition is not None)) if given]
    if len(chosen) > 1:
        raise BaccaraError(f"choose one shoe: {' and '.join(chosen)} were both given")
    if composition is not None:
        shoe = parse_composition(composition)
    else:
        d = None if infinite else params.decks(default_decks if decks is None else decks, "--decks")
        shoe = Shoe.infinite() if d is None else Shoe.decks(d)
    for option, ranks, change in (("--remove", remove, Shoe.remove), ("--add", add, Shoe.add)):
        for r in _parse_ranks(ranks, option):
            try:
                shoe = change(shoe, r)
            except BaccaraError as e:
                raise BaccaraError(f"{option}: {e}") from None
    return shoe


def build_tableau(path: str | None) -> Tableau:
    """The drawing rules of ``--tableau FILE`` (default: the punto banco tableau).

    Parameters
    ----------
    path : str or None
        The TOML file.

    Returns
    -------
    Tableau
        The rules.
    """
    if path is None:
        return PUNTO_BANCO
    try:
        return load_tableau_toml(path)
    except BaccaraError as e:
        raise BaccaraError(f"--tableau: {e}") from None


def build_known(known: list[str] | None) -> Known | None:
    """What ``--known`` says of the coup's cards (repeatable; ``;`` separates conditions in one).

    Parameters
    ----------
    known : list of str or None
        The values given.

    Returns
    -------
    Known or None
        The conditions (None: nothing known).
    """
    if not known:
        return None
    return Known.coerce(Known.parse(known, "--known"))


def build_bets(commission: str, tie_pays: str, super6_pays: str, bets_file: str | None) -> tuple[dict[str, Bet], dict]:
    """Built-in bets with the house parameters, plus any user-defined bets.

    Parameters
    ----------
    commission, tie_pays, super6_pays : str
        The house's terms (``--commission``, ``--tie-pays``, ``--super6-pays``).
    bets_file : str or None
        A TOML file of user-defined bets (``--bets``).

    Returns
    -------
    (dict, dict)
        The bets by name, and the house's terms parsed.
    """
    house = {
        "commission": params.commission(commission, "--commission"),
        "tie_pays": as_payout(tie_pays, "--tie-pays: tie pays", positive=True),
        "super6_pays": as_payout(super6_pays, "--super6-pays: super6 pays", positive=True),
    }
    bets = house_bets(**house)
    if bets_file is not None:
        try:
            user = load_bets_toml(bets_file)
        except BaccaraError as e:
            raise BaccaraError(f"--bets: {e}") from None
        for name, bet in user.items():
            if name in bets:
                raise BaccaraError(f"--bets: bet {name!r} in {bets_file} has the name of a built-in bet; rename it")
            bets[name] = bet
    return bets, house
