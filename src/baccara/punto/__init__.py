"""Punto banco, exactly: the coup's distribution for any shoe, every bet's odds, known cards, edge sorting.

The face of the game (``baccara`` hands the same names on at its top level):

- :class:`Bet` and :class:`Rule` (payouts as data), :func:`builtin_bets`, :func:`load_bets_toml`
  (:mod:`.bets`; the event fields a bet tests: :mod:`.events`);
- :func:`coup_distribution`, :func:`evaluate`, :func:`edge`, :func:`effects_of_removal`
  (:mod:`.exact`, counting ordered deals as integers with the loops of :mod:`.kernel`);
- :class:`Known`: a coup conditioned on what is known of its cards (:mod:`.known`);
- :func:`edge_report` and :func:`removal_report`, the same as result objects (:mod:`.report`);
- :func:`totals_distribution`: the exact probability of every final (Player total, Banker total), each
  hand's final total and the coups by cards drawn, as one result (:mod:`.totals`);
- :func:`edge_sort` and :func:`best_sorting`: the advantage of reading the cards' backs (:mod:`.edgesort`,
  loaded on first use: ``import baccara`` need not load rich's tables);
- :func:`math_report`: one bet's math report, every figure above and the count's, as one result
  (:mod:`.mathreport`; its HTML page and PDF: :mod:`.report_html`).

:mod:`.reference` is the textbook enumerator that the engine is tested and timed against.
"""

import importlib

__all__ = ["Bet", "BetResult", "CoupDistribution", "EdgeReport", "EdgeSortAnalysis", "Known", "MathReport",
           "RemovalReport", "Rule", "TotalsReport", "best_sorting", "builtin_bets", "coup_distribution", "edge",
           "edge_report", "edge_sort", "effects_of_removal", "evaluate", "load_bets_toml", "math_report",
           "removal_report", "totals_distribution"]

#: Every name is loaded on first use, from its module: importing one module of the package (the
#: command line's ``--version`` and ``--help`` import :mod:`.bets`) must not load NumPy or the kernels.
_LAZY = {
    **dict.fromkeys(["Bet", "Rule", "builtin_bets", "load_bets_toml"], ".bets"),
    **dict.fromkeys(["BetResult", "CoupDistribution", "coup_distribution", "edge", "effects_of_removal", "evaluate"],
                    ".exact"),
    "Known": ".known",
    **dict.fromkeys(["EdgeReport", "RemovalReport", "edge_report", "removal_report"], ".report"),
    **dict.fromkeys(["EdgeSortAnalysis", "best_sorting", "edge_sort"], ".edgesort"),
    **dict.fromkeys(["MathReport", "math_report"], ".mathreport"),
    **dict.fromkeys(["TotalsReport", "totals_distribution"], ".totals"),
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
