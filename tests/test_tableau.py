"""Drawing tables from TOML files: the standard file is the built-in tableau, any table deals as a brute force does,
and a bad file is a clear error."""

import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccara import PUNTO_BANCO, BaccaraError, Shoe, Tableau, evaluate
from baccara.chemin.bertrand1888 import badoureau_d1, banker_table
from baccara.punto.reference import reference_counts
from baccara.rules import load_tableau_toml, tableau_from_mapping

from .budget import examples
from .test_known import brute_force_cells as brute
from .test_known import by_totals, conditions, engine_cells, tiny_shoes

TABLEAUX = Path(__file__).resolve().parent.parent / "examples" / "tableaux"

#: The example of issue 13, as a user would write it.
GOLD = """
name = "Baccarat Gold"
player_draws = [0, 1, 2, 3, 4, 5]
banker_draws_when_player_stands = [0, 1, 2, 3, 4, 5]
[banker_draws_when_player_draws]   # Banker's two-card total -> Player third-card values on which he draws
0 = [0,1,2,3,4,5,6,7,8,9]
1 = [0,1,2,3,4,5,6,7,8,9]
2 = [0,1,2,3,4,5,6,7,8,9]
3 = [0,1,2,3,4,5,6,7,8,9]
4 = [3,4,5,6,7]
5 = [3,4,5,6,7]
6 = []
7 = []
"""


def test_the_standard_file_is_the_built_in_tableau():
    assert load_tableau_toml(TABLEAUX / "punto_banco.toml") == PUNTO_BANCO


@pytest.mark.parametrize("name,u,table", [
    ("chemin_d1.toml", 1, lambda: banker_table(1)),
    ("chemin_d0.toml", 0, lambda: banker_table(0)),
    ("badoureau_d1.toml", 1, badoureau_d1),
])
def test_the_chemin_de_fer_files_are_ethiers_tables(name, u, table):
    t = load_tableau_toml(TABLEAUX / name)
    assert t.player_draws == tuple(total <= 4 + u for total in range(8))
    assert tuple(tuple(int(x) for x in row) for row in t.banker_draws) == table()


def test_the_issue_example_reads(tmp_path):
    f = tmp_path / "gold.toml"
    f.write_text(GOLD)
    t = load_tableau_toml(f)
    assert t.name == "Baccarat Gold"
    assert t.banker_draws_on(3, 8) and not t.banker_draws_on(4, 2) and t.banker_draws_on(4, 3)
    assert not t.banker_draws_on(6, 6) and t.banker_draws_on(5, None) and not t.banker_draws_on(6, None)


@st.composite
def tableaux(draw):
    bits = st.lists(st.booleans(), min_size=8, max_size=8)
    player = tuple(draw(bits))
    banker = tuple(tuple(draw(st.lists(st.booleans(), min_size=11, max_size=11))) for _ in range(8))
    return Tableau(player, banker, "random")


@settings(max_examples=examples(40), deadline=None)
@given(tableaux())
def test_to_toml_reads_back(t):
    assert tableau_from_mapping(tomllib.loads(t.to_toml())) == t


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_tableau_deals_as_the_brute_force_does(data):
    t = data.draw(tableaux())
    shoe = data.draw(tiny_shoes())
    known = data.draw(st.one_of(st.none(), conditions(shoe.resolution)))
    ours, want = engine_cells(shoe, known, t), brute(shoe, known, t)
    if shoe.resolution == "value":
        ours, want = by_totals(ours), by_totals(want)
    assert ours == want


def test_any_tableau_agrees_with_the_reference_enumerator():
    f = TABLEAUX / "badoureau_d1.toml"
    t = load_tableau_toml(f)
    shoe = Shoe.decks(1).remove("5", n=3).remove("K")
    ref, _ = reference_counts(shoe, t)
    ours: dict = {}
    for (kp, kb, pt, pn, bt, bn), w in engine_cells(shoe, None, t).items():
        key = (kp >= 1, kb >= 1, pt, pn + 2, bt, bn + 2)
        ours[key] = ours.get(key, 0) + w
    assert ours == ref


def test_a_tableau_changes_the_edges():
    gold = tableau_from_mapping(tomllib.loads(GOLD))
    plain, other = evaluate(Shoe.decks(8)), evaluate(Shoe.decks(8), tableau=gold)
    assert plain["banker"].ev != other["banker"].ev


@pytest.mark.parametrize("text,needle", [
    (GOLD.replace("7 = []\n", ""), "Banker total 7 is missing"),
    (GOLD.replace("6 = []\n7 = []\n", ""), "Banker totals 6, 7 are missing"),
    (GOLD.replace("4 = [3,4,5,6,7]", "4 = [3,4,10]"), "values are whole numbers 0-9, got 10"),
    (GOLD.replace("4 = [3,4,5,6,7]", "4 = [3,-1]"), "0-9, got -1"),
    (GOLD.replace("4 = [3,4,5,6,7]", "4 = [3,3]"), "3 is given twice"),
    (GOLD.replace("4 = [3,4,5,6,7]", "4 = 'all'"), "must be a list"),
    (GOLD.replace("7 = []", "8 = []"), "'8' is not a Banker total"),
    (GOLD.replace("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 8]"), "0-7"),
    (GOLD.replace("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [true]"), "0-7"),
    (GOLD.replace("player_draws = [0, 1, 2, 3, 4, 5]\n", ""), "player_draws is missing"),
    (GOLD.replace("banker_draws_when_player_stands = [0, 1, 2, 3, 4, 5]",
                  "banker_draws_when_player_stands = [0, 9]"), "0-7, got 9"),
    ("extra = 1\n" + GOLD, "unknown key"),
    (GOLD.replace('name = "Baccarat Gold"', "name = 3"), "name must be"),
    ("player_draws = [", "not valid TOML"),
])
def test_bad_tableau_files_are_clear_errors(tmp_path, text, needle):
    f = tmp_path / "t.toml"
    f.write_text(text)
    with pytest.raises(BaccaraError, match="tableau file") as e:
        load_tableau_toml(f)
    assert needle in str(e.value)
