"""A casino's hand log and bet log: reading them, and refusing a bad one with its file, line and reason.

Hands (CSV with a header, or Parquet with the same columns): ``shoe,coup,cards,first_class``.
Coup 0 of a shoe holds the burned cards, the first of them shown face up; coups 1, 2, ...
hold the cards as dealt, Player's first, Banker's first, Player's second, Banker's second,
then Player's third and Banker's third when drawn, space-separated, each a rank
(``A 2 3 4 5 6 7 8 9 T J Q K``, ``10`` also read) and a suit (``S H D C``): ``9S KH 4D 7C 2S``.
``first_class`` (optional, may be empty) is what the back of the coup's first card showed
before it was dealt: ``S`` (a sorted card) or ``U``.

Bets: ``shoe,coup,player,bet,amount``: a bet name (built-in, or of a ``--bets-file``)
placed before the coup's cards were dealt; a player may bet nothing on a coup.

A log is refused (:class:`LogError`, the command line's exit status 2) for a missing
column, an unknown card, more cards of a rank (or of a card) than the shoe's decks hold, a
coup that breaks the drawing table, a bet after its coup (one for a coup the hands do not
hold, or logged after a later coup's bet of the same player) and an unknown bet.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..cards import RANK_VALUE, RANKS, SUITS
from ..errors import BaccaraError
from ..rules import PUNTO_BANCO, Tableau

#: The columns of each log; ``first_class`` may be absent.
HAND_COLUMNS = ("shoe", "coup", "cards", "first_class")
BET_COLUMNS = ("shoe", "coup", "player", "bet", "amount")
#: A rank letter as logged -> rank index 0..12 (A..K).
_RANK_OF = {"A": 0, **{str(v): v - 1 for v in range(2, 10)}, "T": 9, "10": 9, "J": 10, "Q": 11, "K": 12}
#: Largest bet amount read (a typo guard: amounts are money, not exponents).
MAX_AMOUNT = 10**12


class LogError(BaccaraError):
    """A log that cannot be audited: the message names the file, the line and the reason."""


def card_code(token: str) -> int | None:
    """The code ``4 * rank + suit`` of a logged card such as ``9S``, ``TH`` or ``10D``, or None.

    Parameters
    ----------
    token : str
        The card as logged.

    Returns
    -------
    int or None
        The code, or None for a token that is no card.
    """
    t = token.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in _RANK_OF:
        return None
    return 4 * _RANK_OF[t[:-1]] + SUITS.index(t[-1])


def card_name(code: int) -> str:
    """A card code as the logs write it: ``9S``, ``TH``.

    Parameters
    ----------
    code : int
        ``4 * rank + suit``.

    Returns
    -------
    str
        The card.
    """
    rank = RANKS[code // 4]
    return ("T" if rank == "10" else rank) + SUITS[code % 4]


def coup_card_count(cards: Iterable[int], tableau: Tableau = PUNTO_BANCO) -> int:
    """How many cards the drawing table deals in a coup that starts with these four cards.

    Parameters
    ----------
    cards : iterable of int
        The coup's card codes in deal order (at least the first four; the fifth is read
        when Player draws, to decide Banker's draw).
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    int
        4, 5 or 6.
    """
    c = list(cards)
    v = [RANK_VALUE[x // 4] for x in c]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    if pt >= 8 or bt >= 8:
        return 4
    n = 4
    third = None
    if tableau.player_draws[pt]:
        if len(v) < 5:
            return 5  # Player draws; Banker's rule needs the card, which is missing
        third = v[4]
        n = 5
    return n + int(tableau.banker_draws_on(bt, third))


@dataclass(frozen=True)
class Coup:
    """One coup of the hand log.

    Attributes
    ----------
    number : int
        The coup's number in its shoe (1, 2, ...).
    cards : tuple of int
        Card codes in deal order.
    first_class : str or None
        ``"S"``, ``"U"`` or None (not logged).
    line : int
        Where the log gives it.
    """

    number: int
    cards: tuple[int, ...]
    first_class: str | None
    line: int


@dataclass(frozen=True)
class ShoeLog:
    """One shoe of the hand log: its burn and its coups, in order.

    Attributes
    ----------
    shoe : str
        The shoe's name in the log.
    burn : tuple of int
        Coup 0's cards (the first shown face up); empty when the log gives no coup 0.
    coups : tuple of Coup
        Coups 1, 2, ... in order.
    """

    shoe: str
    burn: tuple[int, ...]
    coups: tuple[Coup, ...]

    @property
    def shown_burn(self) -> int | None:
        """The burn's face-up card (None without a coup 0)."""
        return self.burn[0] if self.burn else None

    def sequence(self) -> list[int]:
        """Every card logged, in the order it left the shoe (the burn first).

        Returns
        -------
        list of int
            Card codes.
        """
        out = list(self.burn)
        for c in self.coups:
            out.extend(c.cards)
        return out


@dataclass(frozen=True)
class HandLog:
    """A hand log: its shoes in the order they appear, dealt from shoes of ``decks`` decks.

    Attributes
    ----------
    source : str
        The file it was read from.
    decks : int
        Decks per shoe.
    shoes : tuple of ShoeLog
        The shoes.
    has_classes : bool
        Whether any coup gives ``first_class``.
    """

    source: str
    decks: int
    shoes: tuple[ShoeLog, ...]
    has_classes: bool

    def coup(self, shoe: str, number: int) -> Coup | None:
        """The coup ``number`` of shoe ``shoe``, or None.

        Parameters
        ----------
        shoe : str
            The shoe's name.
        number : int
            The coup's number.

        Returns
        -------
        Coup or None
            The coup.
        """
        for s in self.shoes:
            if s.shoe == shoe:
                return s.coups[number - 1] if 1 <= number <= len(s.coups) else None
        return None


@dataclass(frozen=True)
class BetRecord:
    """One bet of the bet log.

    Attributes
    ----------
    shoe : str
        The shoe.
    coup : int
        The coup it was placed on (before its cards were dealt).
    player : str
        Who placed it.
    bet : str
        The bet's name.
    amount : Fraction
        The money staked.
    line : int
        Where the log gives it.
    """

    shoe: str
    coup: int
    player: str
    bet: str
    amount: Fraction
    line: int


@dataclass(frozen=True)
class BetLog:
    """A bet log.

    Attributes
    ----------
    source : str
        The file it was read from.
    bets : tuple of BetRecord
        The bets, in the log's order.
    """

    source: str
    bets: tuple[BetRecord, ...]

    @property
    def players(self) -> list[str]:
        """The players, in the order they first bet."""
        return list(dict.fromkeys(b.player for b in self.bets))


# ---------------------------------------------------------------- reading rows
def _rows(path: str | Path, columns: tuple[str, ...], optional: tuple[str, ...], what: str
          ) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    """(the file's name, [(where, row)]) of a CSV or Parquet log; refuses a missing column."""
    p = Path(path)
    name = str(path)
    if not p.is_file():
        raise LogError(f"{what} log {name}: no such file")
    if p.suffix.lower() in (".parquet", ".pq"):
        try:
            import pyarrow.parquet as pq

            table = pq.read_table(p)
        except Exception as e:  # a file pyarrow cannot read: say so, with its reason
            raise LogError(f"{what} log {name}: cannot read it as Parquet: {e}") from None
        header = [c.strip().lower() for c in table.column_names]
        _need(header, columns, optional, name, what, "its columns")
        data = table.to_pydict()
        keys = {c.strip().lower(): c for c in table.column_names}
        out = []
        for i in range(table.num_rows):
            row = {c: "" if data[keys[c]][i] is None else str(data[keys[c]][i]) for c in header}
            out.append((f"{name} row {i + 1}", row))
        return name, out
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise LogError(f"{what} log {name}: cannot read it as UTF-8 text: {e}") from None
    reader = csv.reader(text.splitlines())
    lines = list(reader)
    if not lines:
        raise LogError(f"{what} log {name} line 1: empty file; the header {','.join(columns)} is missing")
    header = [c.strip().lower() for c in lines[0]]
    _need(header, columns, optional, name, what, "line 1 (the header)")
    out = []
    for i, cells in enumerate(lines[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            raise LogError(f"{name} line {i}: {len(cells)} fields where the header has {len(header)}")
        row = {h: (cells[j].strip() if j < len(cells) else "") for j, h in enumerate(header)}
        out.append((f"{name} line {i}", row))
    return name, out


def _need(header: list[str], columns: tuple[str, ...], optional: tuple[str, ...], name: str, what: str,
          where: str) -> None:
    missing = [c for c in columns if c not in header and c not in optional]
    if missing:
        raise LogError(f"{name} {where}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                       f"a {what} log has the columns {','.join(columns)}")


def _int(text: str, where: str, field: str, lo: int) -> int:
    try:
        v = int(text.strip())
    except ValueError:
        raise LogError(f"{where}: {field} must be a whole number, got {text!r}") from None
    if v < lo:
        raise LogError(f"{where}: {field} must be {lo} or more, got {v}")
    return v


# ---------------------------------------------------------------- hands
def read_hands(path: str | Path, decks: int = 8, tableau: Tableau = PUNTO_BANCO) -> HandLog:
    """Read and check a hand log (CSV, or Parquet by the suffix ``.parquet``).

    Parameters
    ----------
    path : str or Path
        The file.
    decks : int
        Decks per shoe: no shoe may hold more of a card (rank and suit) than ``decks``,
        nor more of a rank than ``4 * decks``.
    tableau : Tableau
        The drawing rules every coup must follow.

    Returns
    -------
    HandLog
        The shoes and their coups.

    Raises
    ------
    LogError
        A missing column, an unknown card, more cards than the shoe holds, a coup that
        breaks the drawing table, a coup given twice or a gap in a shoe's coups.
    """
    name, rows = _rows(path, HAND_COLUMNS, ("first_class",), "hand")
    if not rows:
        raise LogError(f"{name}: no coup logged")
    shoes: dict[str, dict[int, tuple[tuple[int, ...], str | None, str]]] = {}
    has_classes = False
    for where, row in rows:
        shoe = row["shoe"].strip()
        if not shoe:
            raise LogError(f"{where}: the shoe is empty")
        number = _int(row["coup"], where, "coup", 0)
        tokens = row["cards"].split()
        cards = []
        for t in tokens:
            code = card_code(t)
            if code is None:
                raise LogError(f"{where}: unknown card {t!r}: a card is a rank (A 2 3 4 5 6 7 8 9 T J Q K) and a "
                               "suit (S H D C), e.g. 9S or KH")
            cards.append(code)
        cls_text = row.get("first_class", "").strip().upper()
        cls: str | None = None
        if cls_text:
            if cls_text not in ("S", "U"):
                raise LogError(f"{where}: first_class must be S (a sorted card), U or empty, got {cls_text!r}")
            cls = cls_text
            has_classes = True
        if number == 0:
            if not cards:
                raise LogError(f"{where}: coup 0 (the burn) holds no card; give the burned cards, the shown one first")
        else:
            if len(cards) < 4:
                raise LogError(f"{where}: a coup deals at least 4 cards, got {len(cards)}")
            need = coup_card_count(cards, tableau)
            if len(cards) != need:
                raise LogError(f"{where}: the coup breaks the drawing table ({tableau.name}): "
                               f"{_why_draw(cards, tableau)}, so it deals {need} cards, not {len(cards)}")
        coups = shoes.setdefault(shoe, {})
        if number in coups:
            raise LogError(f"{where}: shoe {shoe} coup {number} is given twice (first at {coups[number][2]})")
        coups[number] = (tuple(cards), cls, where)
    out = []
    limit_card, limit_rank = decks, 4 * decks
    for shoe, coups in shoes.items():
        numbers = sorted(n for n in coups if n > 0)
        if numbers != list(range(1, len(numbers) + 1)):
            gap = next(i for i, n in enumerate(numbers, start=1) if n != i)
            raise LogError(f"{coups[numbers[gap - 1]][2]}: shoe {shoe} has no coup {gap} before coup "
                           f"{numbers[gap - 1]}: coups are numbered 1, 2, ... without a gap")
        seen_card = [0] * 52
        seen_rank = [0] * 13
        for n in sorted(coups):
            dealt, _, where = coups[n]
            for c in dealt:
                seen_card[c] += 1
                seen_rank[c // 4] += 1
                if seen_rank[c // 4] > limit_rank:
                    raise LogError(f"{where}: more cards of rank {RANKS[c // 4]} in shoe {shoe} than {decks} "
                                   f"deck{'s' if decks > 1 else ''} hold ({seen_rank[c // 4]} > {limit_rank})")
                if seen_card[c] > limit_card:
                    raise LogError(f"{where}: more {card_name(c)} in shoe {shoe} than {decks} "
                                   f"deck{'s' if decks > 1 else ''} hold ({seen_card[c]} > {limit_card})")
        burn = coups[0][0] if 0 in coups else ()
        out.append(ShoeLog(shoe, burn, tuple(Coup(n, coups[n][0], coups[n][1], _line(coups[n][2]))
                                              for n in numbers)))
    return HandLog(name, decks, tuple(out), has_classes)


def _line(where: str) -> int:
    return int(where.rsplit(" ", 1)[1])


def _why_draw(cards: list[int], tableau: Tableau) -> str:
    v = [RANK_VALUE[x // 4] for x in cards]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    if pt >= 8 or bt >= 8:
        return f"a natural (Player {pt}, Banker {bt}) ends the coup"
    parts = [f"Player {'draws' if tableau.player_draws[pt] else 'stands'} on {pt}"]
    if tableau.player_draws[pt] and len(v) >= 5:
        parts.append(f"Banker {'draws' if tableau.banker_draws_on(bt, v[4]) else 'stands'} on {bt} against a "
                     f"third card {v[4]}")
    elif not tableau.player_draws[pt]:
        parts.append(f"Banker {'draws' if tableau.banker_draws_on(bt, None) else 'stands'} on {bt}")
    return ", ".join(parts)


# ---------------------------------------------------------------- bets
def read_bets(path: str | Path, hands: HandLog, bet_names: Iterable[str]) -> BetLog:
    """Read and check a bet log against its hand log.

    Parameters
    ----------
    path : str or Path
        The file (CSV, or Parquet by the suffix ``.parquet``).
    hands : HandLog
        The hands the bets were placed on.
    bet_names : iterable of str
        The bets the house offers (built-in and user-defined).

    Returns
    -------
    BetLog
        The bets.

    Raises
    ------
    LogError
        A missing column, an unknown bet, an amount that is not a positive number, a bet
        for a coup the hands do not hold (after the shoe ended, or on the burn), a bet
        logged after a later coup's bet of the same player in the shoe, or one given twice.
    """
    names = list(bet_names)
    known = set(names)
    name, rows = _rows(path, BET_COLUMNS, (), "bet")
    coups = {s.shoe: len(s.coups) for s in hands.shoes}
    latest: dict[tuple[str, str], tuple[int, str]] = {}
    seen: dict[tuple[str, int, str, str], str] = {}
    out = []
    for where, row in rows:
        shoe = row["shoe"].strip()
        number = _int(row["coup"], where, "coup", 0)
        player = row["player"].strip()
        bet = row["bet"].strip().lower()
        if not player:
            raise LogError(f"{where}: the player is empty")
        if bet not in known:
            raise LogError(f"{where}: unknown bet {row['bet']!r}; bets are {', '.join(names)}")
        if shoe not in coups:
            raise LogError(f"{where}: shoe {shoe!r} is not in the hand log {hands.source}")
        if number == 0:
            raise LogError(f"{where}: a bet on coup 0, the burn; bets go on coups 1 to {coups[shoe]}")
        if number > coups[shoe]:
            raise LogError(f"{where}: a bet after its coup: shoe {shoe} ends at coup {coups[shoe]} in "
                           f"{hands.source}, and this bet is on coup {number}")
        key = (shoe, player)
        if key in latest and latest[key][0] > number:
            raise LogError(f"{where}: a bet after its coup: {player} bet on coup {latest[key][0]} of shoe {shoe} "
                           f"({latest[key][1]}), before this bet on coup {number}")
        latest[key] = (number, where)
        dup = (shoe, number, player, bet)
        if dup in seen:
            raise LogError(f"{where}: {player}'s {bet} bet on shoe {shoe} coup {number} is given twice (first at "
                           f"{seen[dup]}); give one line with the whole amount")
        seen[dup] = where
        try:
            amount = Fraction(row["amount"].strip())
        except (ValueError, ZeroDivisionError):
            raise LogError(f"{where}: amount must be a positive number, got {row['amount']!r}") from None
        if not 0 < amount <= MAX_AMOUNT:
            raise LogError(f"{where}: amount must be a positive number up to {MAX_AMOUNT:,}, got {row['amount']!r}")
        out.append(BetRecord(shoe, number, player, bet, amount, _line(where)))
    if not out:
        raise LogError(f"{name}: no bet logged")
    return BetLog(name, tuple(out))


# ---------------------------------------------------------------- writing
def write_hands(log: HandLog, path: str | Path) -> Path:
    """Write a hand log as CSV, or Parquet by the suffix ``.parquet``.

    Parameters
    ----------
    log : HandLog
        The hands.
    path : str or Path
        The file.

    Returns
    -------
    Path
        The file written.
    """
    rows = []
    for s in log.shoes:
        if s.burn:
            rows.append({"shoe": s.shoe, "coup": 0, "cards": " ".join(map(card_name, s.burn)), "first_class": ""})
        for c in s.coups:
            rows.append({"shoe": s.shoe, "coup": c.number, "cards": " ".join(map(card_name, c.cards)),
                         "first_class": c.first_class or ""})
    return _write(rows, HAND_COLUMNS, path)


def write_bets(log: BetLog, path: str | Path) -> Path:
    """Write a bet log as CSV, or Parquet by the suffix ``.parquet``.

    Parameters
    ----------
    log : BetLog
        The bets.
    path : str or Path
        The file.

    Returns
    -------
    Path
        The file written.
    """
    rows = [{"shoe": b.shoe, "coup": b.coup, "player": b.player, "bet": b.bet,
             "amount": str(b.amount) if b.amount.denominator != 1 else str(b.amount.numerator)} for b in log.bets]
    return _write(rows, BET_COLUMNS, path)


def _write(rows: Sequence[Mapping[str, object]], columns: tuple[str, ...], path: str | Path) -> Path:
    p = Path(path)
    try:
        if p.suffix.lower() in (".parquet", ".pq"):
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.table({c: [str(r[c]) for r in rows] for c in columns}), p)
        else:
            with p.open("w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
                w.writeheader()
                w.writerows(rows)
    except OSError as e:
        raise LogError(f"cannot write {p}: {e.strerror or e}") from None
    return p
