"""Outcomes by totals (``baccara totals``): the 10 x 10 table of final totals, its margins and the coups by cards.

Proved by: a brute-force oracle dealing every ordered six-card sequence of small shoes (its own drawing
rules, read from the tableau); the exact engine's card-level distribution (Banker / Player / tie and each
hand's total, by suit or rank, a kernel apart from the value-level one the table sums); naturals counted
independently from the first two or four cards; the infinite shoe's closed form; identities (the table sums
to 1, its margins are the hands' totals, the classes by cards split every coup); the command line's JSON.
"""

import json
from fractions import Fraction
from itertools import permutations, product
from math import perm
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara import Shoe, coup_distribution
from baccara.cli import app
from baccara.errors import BaccaraError
from baccara.punto.totals import CARD_CLASSES, card_class, totals_distribution, winner_of
from baccara.rules import PUNTO_BANCO, Tableau, load_tableau_toml

TABLEAUX = Path(__file__).resolve().parent.parent / "examples" / "tableaux"
BADOUREAU = load_tableau_toml(TABLEAUX / "badoureau_d1.toml")
CHEMIN_D0 = load_tableau_toml(TABLEAUX / "chemin_d0.toml")

SHOES = {
    "8 decks": Shoe.decks(8),
    "1 deck": Shoe.decks(1),
    "infinite": Shoe.infinite(),
    "depleted": Shoe.decks(1).remove("9").remove("9").remove("8").remove("K").remove("5").add("4"),
}


def frac(s: str) -> Fraction:
    num, den = s.split("/")
    return Fraction(int(num), int(den))


# ---------------------------------------------------------------- the oracle: every ordered deal of the cards
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 0, "J": 0, "Q": 0, "K": 0}


def brute_force(ranks: list[str], tableau) -> dict[tuple[int, int, int, int], int]:
    """Ordered deals of six of ``ranks`` (distinct cards) ending in each (Player total, cards, Banker total, cards).

    Dealt P, B, P, B; a natural ends the coup; Player draws on his two-card total when the tableau says so
    (never on 8 or 9), then Banker on his total and Player's third card (or 'stood').
    """
    out: dict[tuple[int, int, int, int], int] = {}
    values = [VALUE[r] for r in ranks]
    for deal in permutations(values, 6):
        p, b = (deal[0] + deal[2]) % 10, (deal[1] + deal[3]) % 10
        pc = bc = 2
        if p < 8 and b < 8:
            nxt = 4
            third = None
            if tableau.player_draws[p]:
                third = deal[nxt]
                p, pc, nxt = (p + third) % 10, 3, nxt + 1
            if tableau.banker_draws_on(b, third):
                b, bc = (b + deal[nxt]) % 10, 3
        out[p, pc, b, bc] = out.get((p, pc, b, bc), 0) + 1
    return out


TINY = [
    (["A", "2", "3", "5", "6", "8", "9", "K"], PUNTO_BANCO),
    (["4", "4", "7", "10", "J", "3", "5", "2"], PUNTO_BANCO),
    (["A", "2", "3", "4", "5", "6", "7", "Q"], BADOUREAU),
    (["9", "8", "6", "6", "2", "K", "3"], CHEMIN_D0),
]


@pytest.mark.parametrize("ranks,tableau", TINY)
def test_every_cell_equals_the_brute_force_count_of_ordered_deals(ranks, tableau):
    shoe = Shoe.from_ranks({r: ranks.count(r) for r in set(ranks)})
    got = totals_distribution(shoe, tableau)
    oracle = brute_force(ranks, tableau)
    assert got.deals == sum(oracle.values()) == shoe.deals()
    cells = {(p, pc + 2, b, bc + 2): int(n) for (p, pc, b, bc), n in
             ((i, got.counts[i]) for i in product(range(10), range(2), range(10), range(2))) if n}
    assert cells == oracle
    for p, b in product(range(10), repeat=2):
        want = sum(n for (pp, _, bb, _), n in oracle.items() if (pp, bb) == (p, b))
        assert got.table[p][b] == Fraction(want, got.deals)


@given(ranks=st.lists(st.sampled_from(list(VALUE)), min_size=6, max_size=7),
       player=st.lists(st.booleans(), min_size=8, max_size=8),
       banker=st.lists(st.lists(st.booleans(), min_size=11, max_size=11), min_size=8, max_size=8))
def test_any_small_shoe_and_any_drawing_table_equal_the_brute_force(ranks, player, banker):
    tableau = Tableau(tuple(player), tuple(tuple(row) for row in banker), "random")
    got = totals_distribution(Shoe.from_ranks({r: ranks.count(r) for r in set(ranks)}), tableau)
    oracle = brute_force(ranks, tableau)
    assert {(p, pc + 2, b, bc + 2): int(n) for (p, pc, b, bc), n in np.ndenumerate(got.counts) if n} == oracle


# ---------------------------------------------------------------- the exact engine's figures
@pytest.mark.parametrize("name", list(SHOES) + ["8 decks, Badoureau D1"])
def test_table_margins_and_winners_equal_the_exact_engine(name):
    shoe, tableau = (SHOES["8 decks"], BADOUREAU) if name == "8 decks, Badoureau D1" else (SHOES[name], PUNTO_BANCO)
    got = totals_distribution(shoe, tableau)
    dist = coup_distribution(shoe, tableau)  # the card-level kernel (by suit or rank), not the value-level one
    assert sum(sum(row) for row in got.table) == 1
    assert got.outcomes == dist.outcomes()
    assert sum(got.player_totals) == sum(got.banker_totals) == 1
    for t in range(10):
        assert got.player_totals[t] == sum(got.table[t]) == dist.probability(player_total=t)
        assert got.banker_totals[t] == sum(row[t] for row in got.table) == dist.probability(banker_total=t)
    classes = got.by_cards
    assert sum(c["probability"] for c in classes.values()) == 1
    for c in classes.values():
        assert c["banker"] + c["player"] + c["tie"] == c["probability"]
    for w in ("banker", "player", "tie"):
        assert sum(c[w] for c in classes.values()) == dist.probability(winner=w)
    of_cards = {(2, 2): ("naturals", "both_stand"), (3, 2): ("player_draws_banker_stands",),
                (2, 3): ("player_stands_banker_draws",), (3, 3): ("both_draw",)}
    for (pc, bc), names in of_cards.items():
        assert sum(classes[n]["probability"] for n in names) == dist.probability(player_cards=pc, banker_cards=bc)
    assert classes["naturals"]["probability"] == dist.probability(natural=True)
    assert got.naturals["player"] == dist.probability(player_natural=True)
    assert got.naturals["banker"] == dist.probability(banker_natural=True)


def naturals_by_counting(shoe: Shoe) -> tuple[Fraction, Fraction]:
    """P(Player's first two cards total 8 or 9) and P(either hand's do), from the counts by value alone."""
    n = list(shoe.value_counts())
    total = sum(n)

    def weight(values: tuple[int, ...]) -> int:
        left, w = list(n), 1
        for v in values:
            w *= left[v]
            if not shoe.replacement:
                left[v] -= 1
        return w

    def depth(k: int) -> int:
        return total**k if shoe.replacement else perm(total, k)

    player = sum(weight((a, b)) for a, b in product(range(10), repeat=2) if (a + b) % 10 >= 8)
    either = sum(weight(c) for c in product(range(10), repeat=4) if max((c[0] + c[2]) % 10, (c[1] + c[3]) % 10) >= 8)
    return Fraction(player, depth(2)), Fraction(either, depth(4))


@pytest.mark.parametrize("name", list(SHOES))
def test_naturals_equal_an_independent_count_of_the_first_cards(name):
    shoe = SHOES[name]
    got = totals_distribution(shoe).naturals
    player, either = naturals_by_counting(shoe)
    assert got["player"] == got["banker"] == player  # Banker's two cards are as likely as Player's
    assert got["player_8"] + got["player_9"] == player
    assert got["either"] == either


def test_infinite_shoe_naturals_have_their_closed_form():
    # With replacement a card is 0 with probability 4/13 and each of 1-9 with 1/13.  A two-card total t in 1-9
    # comes from (0, t), (t, 0) (2 x 4/169) and the 8 pairs of non-zero values a != t (8/169): 16/169; so a
    # natural (8 or 9) has probability 32/169, and a hand without one 137/169: either hand, 1 - (137/169)^2.
    got = totals_distribution(Shoe.infinite()).naturals
    assert got["player_8"] == got["player_9"] == Fraction(16, 169)
    assert got["player"] == got["banker"] == Fraction(32, 169)
    assert got["either"] == 1 - Fraction(137, 169) ** 2


def test_winner_and_card_classes():
    assert [winner_of(5, 3), winner_of(3, 5), winner_of(4, 4)] == ["player", "banker", "tie"]
    assert card_class(9, 2, 3, 2) == card_class(2, 2, 8, 2) == "naturals"
    assert card_class(6, 2, 7, 2) == "both_stand"
    assert card_class(4, 3, 6, 2) == "player_draws_banker_stands"
    assert card_class(6, 2, 4, 3) == "player_stands_banker_draws"
    assert card_class(1, 3, 1, 3) == "both_draw"


def test_bad_arguments_are_named():
    with pytest.raises(BaccaraError, match="shoe must be a baccara.Shoe"):
        totals_distribution(8)  # type: ignore[arg-type]
    with pytest.raises(BaccaraError, match="tableau must be"):
        totals_distribution(Shoe.decks(1), "punto banco")  # type: ignore[arg-type]


# ---------------------------------------------------------------- the document and the command line
runner = CliRunner()


def test_json_document_is_exact_and_consistent():
    got = totals_distribution(Shoe.decks(6), BADOUREAU)
    doc = got.to_json()
    assert doc["tableau"] == "Badoureau D1" and doc["shoe"]["decks"] == 6 and int(doc["deals"]) == got.deals
    assert len(doc["totals"]) == 100
    for row in doc["totals"]:
        p, b = row["player_total"], row["banker_total"]
        assert frac(row["probability"]["exact"]) == got.table[p][b] == frac(doc["matrix"][str(p)][str(b)])
        assert row["probability"]["float"] == float(got.table[p][b]) and row["winner"] == winner_of(p, b)
    assert {w: frac(v["exact"]) for w, v in doc["outcomes"].items()} == got.outcomes
    assert [frac(doc["player_totals"][str(t)]["exact"]) for t in range(10)] == list(got.player_totals)
    assert [frac(doc["banker_totals"][str(t)]["exact"]) for t in range(10)] == list(got.banker_totals)
    assert list(doc["by_cards"]) == [n for n, _, _ in CARD_CLASSES]
    assert doc["by_cards"]["both_draw"]["player_cards"] == doc["by_cards"]["both_draw"]["banker_cards"] == 3
    assert frac(doc["naturals"]["either"]["exact"]) == got.naturals["either"]
    assert json.loads(json.dumps(doc)) == doc


def test_cli_json_is_the_library_document():
    r = runner.invoke(app, ["totals", "--decks", "2", "--remove", "6,6", "--tableau",
                            str(TABLEAUX / "chemin_d1.toml"), "--json"])
    assert r.exit_code == 0, r.output
    want = totals_distribution(Shoe.decks(2).remove("6").remove("6"), load_tableau_toml(TABLEAUX / "chemin_d1.toml"))
    assert json.loads(r.stdout) == want.to_json()


def test_cli_for_people_reads_percentages_and_exact_on_request():
    r = runner.invoke(app, ["totals", "--infinite", "--exact"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    got = totals_distribution(Shoe.infinite())
    assert f"Banker {100 * float(got.outcomes['banker']):.4f}%" in r.stdout
    assert f"{100 * float(got.naturals['player']):.4f}%" in r.stdout
    assert "P(natural: player) = 32/169" in r.stdout
    assert "P(Player 0, Banker 0) = " + str(got.table[0][0].numerator) in r.stdout
    plain = runner.invoke(app, ["totals", "--infinite"], env={"COLUMNS": "100"})
    assert plain.exit_code == 0 and "32/169" not in plain.stdout


@pytest.mark.parametrize("args,names", [
    (["--decks", "0"], "--decks"),
    (["--decks", "2", "--infinite"], "--decks and --infinite"),
    (["--composition", "A=3"], "at least 6 cards"),
    (["--decks", "1", "--remove", "A,A,A,A,A"], "--remove"),
    (["--tableau", "no-such-file.toml"], "--tableau"),
])
def test_cli_bad_input_exits_2_naming_the_option(args, names):
    r = runner.invoke(app, ["totals", *args])
    assert r.exit_code == 2, r.output
    assert names in r.output and "Traceback" not in r.output
