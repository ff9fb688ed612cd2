"""Simulation at scale: real shoes for punto banco, chemin de fer and baccara banque.

Shoes are dealt as casinos deal them (Wikipedia 2019): shuffled from a seeded,
counter-based stream per shoe, the first card shown and that many burned,
a cut card ``cut`` cards from the end (14 by default, as casinos cut 8 decks),
and one more coup after the one in which the cut card appears (so ``cut`` is
at least 11; 17 in banque: :mod:`baccara.sim.shoe_deal`).  Every simulated frequency of a
quantity the exact engine knows is reported beside the exact value, with its
standard error and z-score.

Jobs are cut into fixed chunks of shoes whose results are exact integers, so
the same seed gives the same answer on one thread, on every core, in a
process pool or on a Dask cluster (:mod:`baccara.sim.distributed`).

In one call (plain values in, a :class:`~baccara.result.Result` out: ``to_json()``
is what ``baccara simulate ... --json`` prints, ``show()`` its tables)::

    from baccara import sim
    sim.play_punto(10_000, seed=1, bets="banker,tie,dragon7")   # punto banco: flat, --count, --perfect
    sim.play_chemin(10_000, seed=1, decks=6, commission="1/20")  # chemin de fer sessions
    sim.play_banque(10_000, seed=1, theta="1/2")                  # banque sessions

Jobs, for every option and backend::

    from baccara.sim import PuntoJob, simulate_punto          # punto banco, counting, perfect counter
    from baccara.sim import CountSystem, load_count_toml      # count systems as data
    from baccara.sim import analyse_count, design_count       # a count against the perfect counter; design one
    from baccara.sim import CheminJob, simulate_chemin        # chemin de fer sessions
    from baccara.sim import BanqueJob, simulate_banque        # banque sessions
    from baccara.sim import run                               # any job, any backend
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api import banque_strategy, chemin_strategy, play_banque, play_chemin, play_punto
    from .banque import (
        BanqueJob,
        BanqueResult,
        BanqueStrategy,
        exact_banque,
        simulate_banque,
    )
    from .banque import equilibrium_strategy as banque_equilibrium_strategy
    from .chemin import (
        CheminJob,
        CheminResult,
        CheminStrategy,
        equilibrium_strategy,
        exact_chemin,
        load_strategy_toml,
        simulate_chemin,
        tableau_strategy,
    )
    from .count_analysis import CountReport, analyse_count
    from .count_design import CountDesign, design_count
    from .counting import (
        BetRule,
        CountError,
        CountSystem,
        count_from_mapping,
        load_count_toml,
    )
    from .distributed import BACKENDS, run
    from .punto import PuntoJob, PuntoResult, bets_from_names, simulate_punto
    from .report import SimResult
    from .results import ChunkResult, Estimate, combine, write_parquet

__all__ = [
    "BACKENDS", "BanqueJob", "BanqueResult", "BanqueStrategy", "BetRule", "CheminJob", "CheminResult",
    "CheminStrategy", "ChunkResult", "CountDesign", "CountError", "CountReport", "CountSystem", "Estimate", "PuntoJob", "PuntoResult",
    "banque_equilibrium_strategy", "bets_from_names", "combine", "count_from_mapping", "design_count", "equilibrium_strategy",
    "exact_banque", "exact_chemin", "load_count_toml", "load_strategy_toml", "run", "simulate_banque",
    "SimResult", "analyse_count", "banque_strategy", "chemin_strategy", "play_banque", "play_chemin", "play_punto",
    "simulate_chemin", "simulate_punto", "tableau_strategy", "write_parquet",
]

#: Where each name is defined (module, name there): loaded on first use, so that ``baccara simulate punto``
#: does not import chemin de fer and banque (and their kernels).
_LAZY = {
    "banque_strategy": (".api", "banque_strategy"), "chemin_strategy": (".api", "chemin_strategy"),
    "play_banque": (".api", "play_banque"), "play_chemin": (".api", "play_chemin"),
    "play_punto": (".api", "play_punto"),
    "BanqueJob": (".banque", "BanqueJob"), "BanqueResult": (".banque", "BanqueResult"),
    "BanqueStrategy": (".banque", "BanqueStrategy"), "exact_banque": (".banque", "exact_banque"),
    "simulate_banque": (".banque", "simulate_banque"),
    "banque_equilibrium_strategy": (".banque", "equilibrium_strategy"),
    "CheminJob": (".chemin", "CheminJob"), "CheminResult": (".chemin", "CheminResult"),
    "CheminStrategy": (".chemin", "CheminStrategy"), "equilibrium_strategy": (".chemin", "equilibrium_strategy"),
    "exact_chemin": (".chemin", "exact_chemin"), "load_strategy_toml": (".chemin", "load_strategy_toml"),
    "simulate_chemin": (".chemin", "simulate_chemin"), "tableau_strategy": (".chemin", "tableau_strategy"),
    "CountReport": (".count_analysis", "CountReport"), "analyse_count": (".count_analysis", "analyse_count"),
    "CountDesign": (".count_design", "CountDesign"), "design_count": (".count_design", "design_count"),
    "BetRule": (".counting", "BetRule"), "CountError": (".counting", "CountError"),
    "CountSystem": (".counting", "CountSystem"), "count_from_mapping": (".counting", "count_from_mapping"),
    "load_count_toml": (".counting", "load_count_toml"),
    "BACKENDS": (".distributed", "BACKENDS"), "run": (".distributed", "run"),
    "PuntoJob": (".punto", "PuntoJob"), "PuntoResult": (".punto", "PuntoResult"),
    "bets_from_names": (".punto", "bets_from_names"), "simulate_punto": (".punto", "simulate_punto"),
    "SimResult": (".report", "SimResult"),
    "ChunkResult": (".results", "ChunkResult"), "Estimate": (".results", "Estimate"),
    "combine": (".results", "combine"), "write_parquet": (".results", "write_parquet"),
}


def __getattr__(name: str):
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0], __name__), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
