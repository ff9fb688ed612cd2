"""Logs of known behaviour: shoes dealt by the simulator's seeded stream, and seats that bet by a known rule.

Every shoe is dealt as :mod:`baccara.sim.shoe_deal` deals it (shoe i of seed s is the
same everywhere: shuffle, burn with the first card shown, the cut card and one more coup),
and every seat bets before each coup by its rule:

- ``blind``: on a random half of the coups, a random one of its bets (default Banker,
  Player, Tie) with a random amount of 1, 2, 5 or 10: no information;
- ``flat``: its bet (default Banker), one unit, every coup;
- ``count``: a count system's rules (:func:`baccara.sim.counting.load_count_toml`), one
  unit whenever its running or true count says so (the count sees the burn's face-up card
  and every card dealt, as the simulator's counter does);
- ``perfect``: its bet, one unit, whenever its exact EV given the cards left is positive;
- ``edge``: a sorted class of ranks: Player when the coup's first card is sorted, else
  Banker (``edge_only`` seats: nothing else).

When some seat sorts (or ``sorted_ranks`` is given), the shoe's cards are sorted and
each coup's ``first_class`` is logged.  A fault can be simulated: ``carry``, each shoe
after the first is the previous one's cards in their order, given one riffle shuffle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..errors import BaccaraError
from ..punto.bets import Bet, builtin_bets
from ..punto.exact import edges_for_shoes
from ..punto.known import parse_ranks
from ..rules import PUNTO_BANCO, Tableau
from ..sim.counting import CountSystem, load_count_toml
from ..sim.shoe_deal import CUT, DEFAULT_CUT, deck_template, max_coups_cut, record_shoe
from .logs import BetLog, BetRecord, Coup, HandLog, ShoeLog, write_bets, write_hands

#: The kinds of seat.
KINDS = ("blind", "flat", "count", "perfect", "edge", "edge_only")
_BLIND_AMOUNTS = (1, 2, 5, 10)


@dataclass(frozen=True)
class Seat:
    """A seat that bets by a known rule.

    Attributes
    ----------
    name : str
        The player's name in the bet log.
    kind : str
        One of :data:`KINDS`.
    bets : tuple of str
        ``blind``: the bets it picks from; ``flat`` and ``perfect``: its one bet.
    count : CountSystem or None
        ``count``: the system.
    sorted_ranks : frozenset of int or None
        ``edge``, ``edge_only``: the sorted class.
    """

    name: str
    kind: str
    bets: tuple[str, ...] = ("banker",)
    count: CountSystem | None = None
    sorted_ranks: frozenset[int] | None = None


def parse_seat(text: str, name: str) -> Seat:
    """A seat from ``blind``, ``blind:banker,player``, ``flat:banker``, ``count:FILE.toml``, ``perfect:dragon7``,
    ``edge:6,7,8,9`` or ``edge_only:6,7,8,9``.

    Parameters
    ----------
    text : str
        The seat.
    name : str
        The player's name.

    Returns
    -------
    Seat
        The seat.
    """
    kind, _, arg = text.strip().partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind not in KINDS:
        raise BaccaraError(f"--seat: unknown kind {kind!r} in {text!r}; seats are blind[:BETS], flat[:BET], "
                           "count:FILE.toml, perfect:BET, edge:RANKS, edge_only:RANKS")
    if kind == "blind":
        bets = tuple(b for b in arg.replace(" ", "").split(",") if b) or ("banker", "player", "tie")
        return Seat(name, kind, bets)
    if kind in ("flat", "perfect"):
        if kind == "perfect" and not arg:
            raise BaccaraError(f"--seat {text!r}: name the perfect counter's bet, e.g. perfect:dragon7")
        return Seat(name, kind, (arg.lower() or "banker",))
    if kind == "count":
        if not arg:
            raise BaccaraError(f"--seat {text!r}: give the count's TOML file, e.g. count:examples/counts/dragon7.toml")
        try:
            system = load_count_toml(arg)
        except BaccaraError as e:
            raise BaccaraError(f"--seat {text!r}: {e}") from None
        return Seat(name, kind, tuple(r.bet for r in system.rules), count=system)
    ranks = parse_ranks(arg, f"--seat {text!r}")
    return Seat(name, kind, ("player", "banker") if kind == "edge" else ("player",), sorted_ranks=ranks)


def _riffle(order: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One Gilbert-Shannon-Reeds riffle shuffle."""
    n = len(order)
    cut = rng.binomial(n, 0.5)
    left, right = list(order[:cut]), list(order[cut:])
    out = []
    while left or right:
        if rng.random() < len(left) / (len(left) + len(right)):
            out.append(left.pop(0))
        else:
            out.append(right.pop(0))
    return np.array(out, dtype=order.dtype)


def simulate_logs(seats: Sequence[Seat], shoes: int, *, decks: int = 8, seed: int = 0, cut: int = DEFAULT_CUT,
                  sorted_ranks: Iterable[str] | str | frozenset[int] | None = None, fault: str | None = None,
                  bet_defs: Mapping[str, Bet] | None = None, tableau: Tableau = PUNTO_BANCO,
                  table: str = "") -> tuple[HandLog, BetLog]:
    """Deal ``shoes`` shoes and log the hands and every seat's bets.

    Parameters
    ----------
    seats : sequence of Seat
        Who bets, and how.
    shoes : int
        Shoes dealt: shoe i is the simulator's shoe i of ``seed``.
    decks : int
        Decks per shoe.
    seed : int
        The simulator's seed.
    cut : int
        Cards behind the cut card.
    sorted_ranks : str, iterable or frozenset, optional
        The sorted class whose ``first_class`` is logged (default: the first edge seat's).
    fault : str, optional
        ``"carry"``: each shoe after the first is the previous one's order riffled once.
    bet_defs : mapping of str to Bet, optional
        The bets (default: the built-in bets).
    tableau : Tableau
        The drawing rules.
    table : str
        A prefix for the shoes' names (several tables in one log).

    Returns
    -------
    tuple
        (HandLog, BetLog).
    """
    defs = dict(bet_defs) if bet_defs is not None else builtin_bets()
    for s in seats:
        for b in s.bets:
            if b not in defs:
                raise BaccaraError(f"seat {s.name}: unknown bet {b!r}; bets are {', '.join(defs)}")
        if s.kind == "perfect" and defs[s.bets[0]].resolution != "value":
            raise BaccaraError(f"seat {s.name}: the perfect counter prices bets on values only, not {s.bets[0]!r}")
    if fault not in (None, "carry"):
        raise BaccaraError(f"fault must be 'carry' or none, got {fault!r}")
    if sorted_ranks is None:
        sorted_set = next((s.sorted_ranks for s in seats if s.sorted_ranks is not None), None)
    else:
        sorted_set = sorted_ranks if isinstance(sorted_ranks, frozenset) else parse_ranks(sorted_ranks, "sorted")
    template = deck_template(decks)
    n = template.size
    room = max_coups_cut(n, cut) + 2
    pdraw, bdraw = tableau.player_array, tableau.banker_array
    rng = np.random.default_rng([seed, 0x51A7])
    hand_shoes, records = [], []
    previous: np.ndarray | None = None
    for i in range(shoes):
        starts = np.zeros(room, dtype=np.int64)
        cells = np.zeros(room, dtype=np.int64)
        winners = np.zeros(room, dtype=np.int64)
        if fault == "carry" and previous is not None:
            stacked = _riffle(previous, rng)
            j, burned, end, deck = record_shoe(seed, i, stacked, cut, CUT, False, 0, pdraw, bdraw, starts, cells,
                                               winners)
        else:
            j, burned, end, deck = record_shoe(seed, i, template, cut, CUT, True, 0, pdraw, bdraw, starts, cells,
                                               winners)
        deck = np.asarray(deck[:n]).astype(np.int64)
        previous = deck.astype(np.uint8)
        name = f"{table}{i + 1}"
        coups = []
        for k in range(j):
            stop = starts[k + 1] if k + 1 < j else end
            cards = tuple(int(x) for x in deck[starts[k]:stop])
            cls = None if sorted_set is None else ("S" if cards[0] // 4 in sorted_set else "U")
            coups.append(Coup(k + 1, cards, cls, 0))
        hand_shoes.append(ShoeLog(name, tuple(int(x) for x in deck[:burned]), tuple(coups)))
        records += _bets(seats, name, deck, burned, starts[:j], n, decks, defs, tableau, coups, rng)
    hands = HandLog("(simulated)", decks, tuple(hand_shoes), sorted_set is not None)
    return hands, BetLog("(simulated)", tuple(records))


def _bets(seats: Sequence[Seat], shoe: str, deck: np.ndarray, burned: int, starts: np.ndarray, n: int, decks: int,
          defs: Mapping[str, Bet], tableau: Tableau, coups: list[Coup], rng: np.random.Generator) -> list[BetRecord]:
    out: list[BetRecord] = []
    m = len(starts)
    seen = np.zeros((m, 52), dtype=np.int64)  # cards seen before each coup: the shown burn card and earlier coups
    acc = np.zeros(52, dtype=np.int64)
    acc[deck[0]] += 1
    for k in range(m):
        seen[k] = acc
        acc = acc + np.bincount(np.array(coups[k].cards), minlength=52)
    left = decks - seen
    perfect_ev: dict[str, np.ndarray] = {}
    for s in seats:
        if s.kind == "perfect" and s.bets[0] not in perfect_ev:
            e = edges_for_shoes(left, [defs[s.bets[0]]], tableau)
            perfect_ev[s.bets[0]] = np.asarray(e.positive)[:, 0]
    for s in seats:
        rc = 0.0
        if s.kind == "count":
            assert s.count is not None
            tags = s.count.tag_array()
            rc = s.count.start(decks) + tags[deck[0] // 4]
        for k in range(m):
            placed: list[tuple[str, Fraction]] = []
            if s.kind == "blind":
                if rng.random() < 0.5:
                    placed.append((s.bets[int(rng.integers(len(s.bets)))],
                                   Fraction(_BLIND_AMOUNTS[int(rng.integers(len(_BLIND_AMOUNTS)))])))
            elif s.kind == "flat":
                placed.append((s.bets[0], Fraction(1)))
            elif s.kind == "perfect":
                if perfect_ev[s.bets[0]][k]:
                    placed.append((s.bets[0], Fraction(1)))
            elif s.kind in ("edge", "edge_only"):
                assert s.sorted_ranks is not None
                if coups[k].cards[0] // 4 in s.sorted_ranks:
                    placed.append(("player", Fraction(1)))
                elif s.kind == "edge":
                    placed.append(("banker", Fraction(1)))
            elif s.kind == "count":
                assert s.count is not None
                unseen = n - int(starts[k]) + burned - 1
                tc = rc * 52.0 / unseen
                for rule in s.count.rules:
                    x = rc if rule.count == "running" else tc
                    if rule.at_least <= x <= rule.at_most:
                        placed.append((rule.bet, Fraction(1)))
                rc += float(sum(tags[c // 4] for c in coups[k].cards))
            for bet, amount in placed:
                out.append(BetRecord(shoe, k + 1, s.name, bet, amount, 0))
    return out


def write_logs(hands: HandLog, bets: BetLog, directory: str | Path, fmt: str = "csv") -> tuple[Path, Path]:
    """Write ``hands.csv`` and ``bets.csv`` (or ``.parquet``) into ``directory``.

    Parameters
    ----------
    hands : HandLog
        The hands.
    bets : BetLog
        The bets.
    directory : str or Path
        Where (made if missing).
    fmt : str
        ``"csv"`` or ``"parquet"``.

    Returns
    -------
    tuple of Path
        The two files.
    """
    if fmt not in ("csv", "parquet"):
        raise BaccaraError(f"log format must be csv or parquet, got {fmt!r}")
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BaccaraError(f"--log: cannot make the folder {d}: {e.strerror or e}") from None
    return write_hands(hands, d / f"hands.{fmt}"), write_bets(bets, d / f"bets.{fmt}")


#: Most shoes a simulated log may hold (a log is for reading, not for statistics).
MAX_LOG_SHOES = 100_000


def log_run(directory: str, seats: Sequence[str], shoes: int, *, decks: int = 8, seed: int = 0,
            cut: int = DEFAULT_CUT, fmt: str = "csv", sorted_ranks: str | None = None,
            bet_defs: Mapping[str, Bet] | None = None, tableau: Tableau = PUNTO_BANCO) -> tuple[Path, Path]:
    """What ``baccara simulate punto --log DIR --seat ...`` does: deal, log and write the two files.

    Parameters
    ----------
    directory : str
        The folder for ``hands.csv`` and ``bets.csv`` (or ``.parquet``).
    seats : sequence of str
        ``NAME=KIND[:ARG]`` or ``KIND[:ARG]`` (named seat1, seat2, ...), as :func:`parse_seat` reads them.
    shoes : int
        Shoes dealt.
    decks, seed, cut : int
        The shoe, the simulator's seed and the cut card.
    fmt : str
        ``csv`` or ``parquet``.
    sorted_ranks : str, optional
        The sorted class whose ``first_class`` is logged (default: the first edge seat's).
    bet_defs : mapping of str to Bet, optional
        The bets (default: the built-in bets).
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    tuple of Path
        The two files written.
    """
    if not seats:
        raise BaccaraError("--log needs at least one --seat: blind[:BETS], flat[:BET], count:FILE.toml, perfect:BET, "
                           "edge:RANKS or edge_only:RANKS (NAME=... to name the player)")
    if shoes > MAX_LOG_SHOES:
        raise BaccaraError(f"--log: at most {MAX_LOG_SHOES:,} shoes in a log, got {shoes:,}")
    parsed = []
    for i, text in enumerate(seats, start=1):
        name, eq, spec = text.partition("=")
        if not eq:
            name, spec = f"seat{i}", text
        if not name.strip():
            raise BaccaraError(f"--seat {text!r}: the player's name before '=' is empty")
        parsed.append(parse_seat(spec, name.strip()))
    hands, bets = simulate_logs(parsed, shoes, decks=decks, seed=seed, cut=cut, sorted_ranks=sorted_ranks,
                                bet_defs=bet_defs, tableau=tableau)
    return write_logs(hands, bets, directory, fmt)
