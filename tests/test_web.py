

def test_countable_reads_the_effects_of_removal():
    from baccara.web.side_bet import countable

    eor = {"edge": "1/100", "effects": {"A": {"effect_percent": 0.1, "cards_left": 32},
                                        "6": {"effect_percent": -0.05, "cards_left": 32}}}
    got = countable(eor)
    assert got["best_rank"] == "6" and got["cards_to_turn"] == pytest.approx(20) and not got["positive_already"]
    eor["effects"]["6"]["cards_left"] = 10  # fewer sixes left than it takes: not by one rank
    assert countable(eor)["cards_to_turn"] is None
