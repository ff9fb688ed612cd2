"""``baccara simulate``: punto banco, chemin de fer and banque on real shoes.

Register with ``app.add_typer(simulate_app, name="simulate")``.  Like the rest
of the command line: a summary for people, ``--json`` for machines (the
field names are a contract), ``--out FILE.parquet`` for one row per shoe, and
bad input prints ``error: ...`` and exits with status 2.
"""

from __future__ import annotations

import json
import math
import secrets
import sys
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..bets import DEFAULT_COMMISSION, DEFAULT_SUPER6_PAYS, DEFAULT_TIE_PAYS, as_fraction, builtin_bets, load_bets_toml
from ..errors import BaccaraError
from .results import write_parquet
from ..cli_errors import err, handles_errors

simulate_app = typer.Typer(
    help="Simulate real shoes (shuffle, burn, cut card): punto banco bets and counting, chemin de fer, banque.",
    no_args_is_help=True,
)
out = Console(width=None if sys.stdout.isatty() else 132)  # tables stay whole in pipes and logs


# ---------------------------------------------------------------- parsing
def parse_count(text: str | None, option: str, default: int | None = None, minimum: int = 0) -> int | None:
    """A whole number: ``1000000``, ``1_000_000`` or ``1e6``."""
    if text is None:
        return default
    t = text.strip().replace("_", "")
    try:
        value = int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            raise BaccaraError(f"{option} must be a whole number, got {text!r}") from None
        if not math.isfinite(f) or f != int(f):
            raise BaccaraError(f"{option} must be a whole number, got {text!r}") from None
        value = int(f)
    if value < minimum:
        raise BaccaraError(f"{option} must be at least {minimum}, got {value}")
    return value


def parse_decks(text: str, option: str = "--decks") -> int | None:
    t = text.strip().lower()
    if t in ("inf", "infinite"):
        return None
    d = parse_count(t, option)
    if d is None or d < 1:
        raise BaccaraError(f"{option} must be a positive integer or 'inf', got {text!r}")
    return d


def parse_seed(text: str | None) -> int:
    if text is None:
        return secrets.randbits(63)
    return parse_count(text, "--seed")


def parse_prob(text: str, option: str) -> Fraction:
    t = text.strip().lower()
    if t in ("d", "draw"):
        return Fraction(1)
    if t in ("s", "stand"):
        return Fraction(0)
    p = as_fraction(text, option)
    if not 0 <= p <= 1:
        raise BaccaraError(f"{option} must be a probability in [0, 1] (or draw / stand), got {p}")
    return p


def check_out(path: str | None) -> None:
    if path is None:
        return
    p = Path(path)
    if p.suffix.lower() != ".parquet":
        raise BaccaraError(f"--out writes Parquet: give a file name ending in .parquet, got {path!r}")
    if not p.parent.exists():
        raise BaccaraError(f"--out: folder {str(p.parent)!r} does not exist")


# ---------------------------------------------------------------- running
def _progress_wanted(flag: Optional[bool], json_out: bool) -> bool:
    if flag is not None:
        return flag
    return not json_out and sys.stderr.isatty()


def _run(simulate, job, backend: str, workers: str | None, scheduler: str | None, show: bool):
    w = parse_count(workers, "--workers", minimum=1)
    if not show:
        return simulate(job, backend, w, scheduler)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("shoes", total=job.shoes, rate="")
        elapsed = [None]

        def update(done: int, total: int, hands: int) -> None:
            t = bar.tasks[0].elapsed or 0
            rate = f"{hands / t / 1e6:.2f} M hands/s" if t > 0 else ""
            bar.update(task, completed=done, rate=rate)
            elapsed[0] = t

        return simulate(job, backend, w, scheduler, update)


def _emit(doc: dict, json_out: bool, out_path: str | None, rows, meta: dict, summary: Callable[[], None]) -> None:
    if out_path is not None:
        if rows is None:
            raise BaccaraError("--out: no rows were kept")  # pragma: no cover
        write_parquet(rows, out_path, {"baccara": json.dumps(meta)})
        doc["out"] = out_path
    if json_out:
        print(json.dumps(doc, indent=2))
        return
    summary()
    if out_path is not None:
        out.print(f"one row per shoe written to {out_path}", highlight=False)


def _pm(value, se, digits: int = 6) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" + (f" ± {se:.{digits}f}" if se is not None else "")


def _z(z) -> str:
    return "-" if z is None else f"{z:+.2f}"


def _decks(d) -> str:
    return "infinite shoe" if d == "inf" else f"{d} deck{'s' if d != 1 else ''}"


def _rate(doc: dict) -> str:
    r = doc.get("run", {})
    text = f"{doc['hands']:,} hands in {r.get('seconds') or 0:.2f} s"
    if r.get("hands_per_second"):
        text += f" ({r['hands_per_second'] / 1e6:.2f} M hands/s, {r.get('backend')} x {r.get('workers')})"
    return text


# ---------------------------------------------------------------- shared options
SEED = typer.Option(None, "--seed", help="Random seed (default: a random one, printed in the result).")
SHOES = typer.Option("10000", "--shoes", "--sessions", help="Shoes to deal (one session = one shoe); 1e6 and 1_000_000 work.")
CUT = typer.Option(None, "--cut", help="Cards behind the cut card (default 7, seed 003; 14 is also common).")
DEAL = typer.Option("cut", "--deal", help="cut: real shoes to the cut card; csm: every coup from the full shoe "
                                          "(continuous shuffler); infinite: with replacement (same as --decks inf).")
COUPS = typer.Option("80", "--coups", help="Coups per shoe when there is no cut card (--deal csm, --decks inf).")
JSON = typer.Option(False, "--json", help="Print the result as JSON.")
OUT = typer.Option(None, "--out", help="Write one row per shoe (session) to this Parquet file.")
WORKERS = typer.Option(None, "--workers", "-j", help="Threads / processes / local Dask workers (default: all cores).")
BACKEND = typer.Option("threads", "--backend", help="threads (default), processes, or dask (a local cluster "
                                                    "unless --scheduler is given).")
SCHEDULER = typer.Option(None, "--scheduler", help="Run on a Dask distributed cluster: tcp://HOST:PORT.")
PROGRESS = typer.Option(None, "--progress/--no-progress", help="Progress bar (default: on a terminal, not with --json).")
COMMISSION = typer.Option(str(DEFAULT_COMMISSION), "--commission", help="Commission on Banker wins, a rational in [0, 1).")


# ---------------------------------------------------------------- punto banco
@simulate_app.command("punto")
@handles_errors
def punto(
    decks: str = typer.Option("8", "--decks", "-d", help="Decks in the shoe, or 'inf'."),
    shoes: str = SHOES,
    bets: str = typer.Option("banker,player,tie", "--bets", help="Bets to play, comma-separated (see 'baccara bets')."),
    bets_file: Optional[str] = typer.Option(None, "--bets-file", help="TOML file of user-defined bets (tables bets.NAME, as for 'baccara edge --bets')."),
    count: Optional[str] = typer.Option(None, "--count", help="TOML file of a count system (examples/counts/)."),
    perfect: bool = typer.Option(False, "--perfect", help="The perfect counter: bet exactly when the exact engine "
                                                          "says the unseen cards favour the bet (slow: ~0.3 ms a coup)."),
    perfect_every: str = typer.Option("1", "--perfect-every", help="The perfect counter re-evaluates every k-th coup."),
    seed: Optional[str] = SEED,
    cut: Optional[str] = CUT,
    deal: str = DEAL,
    coups: str = COUPS,
    commission: str = COMMISSION,
    tie_pays: str = typer.Option(str(DEFAULT_TIE_PAYS.numerator), "--tie-pays", help="Tie pays T:1."),
    super6_pays: str = typer.Option(str(DEFAULT_SUPER6_PAYS.numerator), "--super6-pays", help="Super 6 pays P:1."),
    json_out: bool = JSON,
    out_path: Optional[str] = OUT,
    workers: Optional[str] = WORKERS,
    backend: str = BACKEND,
    scheduler: Optional[str] = SCHEDULER,
    progress: Optional[bool] = PROGRESS,
) -> None:
    """Punto banco: every built-in or user bet, flat, by a count system, or by the perfect counter."""
    from .counting import load_count_toml
    from .punto import PuntoJob, bets_from_names, simulate_punto

    check_out(out_path)
    available = builtin_bets(commission=as_fraction(commission, "--commission"),
                             tie_pays=as_fraction(tie_pays, "--tie-pays"),
                             super6_pays=as_fraction(super6_pays, "--super6-pays"))
    if bets_file:
        for name, bet in load_bets_toml(bets_file).items():
            if name in available:
                raise BaccaraError(f"--bets-file: bet {name!r} has the name of a built-in bet; rename it")
            available[name] = bet
    names = [n for n in bets.replace(" ", "").split(",") if n]
    system = load_count_toml(count) if count else None
    if system is not None:
        names += [r.bet for r in system.rules if r.bet not in names]
    cut_n = parse_count(cut, "--cut", default=(system.cut if system and system.cut else 7))
    job = PuntoJob(seed=parse_seed(seed), shoes=parse_count(shoes, "--shoes", minimum=1),
                   decks=parse_decks(decks), bets=bets_from_names(names, available), deal=deal.strip().lower(),
                   cut=cut_n, coups=parse_count(coups, "--coups", minimum=1), count=system, perfect=perfect,
                   perfect_every=parse_count(perfect_every, "--perfect-every", minimum=1),
                   chunk_size=8 if perfect else 4096, keep_rows=out_path is not None)
    res = _run(simulate_punto, job, backend, workers, scheduler, _progress_wanted(progress, json_out))
    doc = res.to_json()
    _emit(doc, json_out, out_path, res.rows, {k: doc[k] for k in ("game", "seed", "shoes", "shoe", "strategy")},
          lambda: _punto_summary(doc))


def _punto_summary(doc: dict) -> None:
    sh = doc["shoe"]
    where = _decks(sh["decks"]) + (f", cut card {sh['cut']} from the end" if sh["cut"] else f", {sh['deal']}")
    kind = doc["strategy"]["kind"]
    who = {"flat": "flat bets", "perfect": "perfect counter",
           "count": f"count {doc['strategy'].get('count', {}).get('name', '')}"}[kind]
    out.print(f"Punto banco, {where}, {who}: {doc['shoes']:,} shoes, seed {doc['seed']}", highlight=False)
    out.print(_rate(doc), highlight=False)
    ex = doc.get("exact") or {}
    z = doc.get("z", {}).get("outcomes", {})
    zb = doc.get("z", {}).get("bets", {})
    t = Table(title="Outcomes")
    for c in ("outcome", "coups", "frequency", "exact", "z"):
        t.add_column(c, justify="right")
    for k in ("banker", "player", "tie"):
        f = doc["frequencies"][k]
        t.add_row(k, f"{doc['outcomes'][k]:,}", _pm(f["value"], f["stderr"]),
                  f"{ex['outcomes'][k]:.6f}" if ex else "-", _z(z.get(k)))
    out.print(t)
    t = Table(title="Bets (one unit each time placed)")
    for c in ("bet", "placed", "a shoe", "EV per bet ± se", "exact, flat", "z", "hit freq", "win a shoe ± se"):
        t.add_column(c, justify="right")
    for name, b in doc["bets"].items():
        e = ex.get("bets", {}).get(name)
        t.add_row(name, f"{b['placed']:,}", f"{b['bets_per_shoe']:.2f}", _pm(b["ev_per_bet"], b["stderr"], 5),
                  f"{e['ev']:+.5f}" if e else "-", _z(zb.get(name)),
                  "-" if b["hit_frequency"] is None else f"{b['hit_frequency']:.5f}",
                  _pm(b["win_per_shoe"], b["win_per_shoe_stderr"], 3))
    out.print(t)
    if "perfect" in doc:
        p = doc["perfect"]
        out.print(f"perfect counter: {p['evaluations']:,} exact evaluations"
                  + (f", {p['evaluations_per_second']:.0f} a second" if p["evaluations_per_second"] else ""),
                  highlight=False)
    out.print("z = (simulated - exact) / stderr; exact values are for a coup from the full shoe", highlight=False)


# ---------------------------------------------------------------- chemin de fer
@simulate_app.command("chemin")
@handles_errors
def chemin(
    decks: str = typer.Option("6", "--decks", "-d", help="Decks in the shoe (6 in seed 003), or 'inf'."),
    shoes: str = SHOES,
    banker: str = typer.Option("equilibrium", "--banker", help="Banker's strategy: equilibrium (the solver's Nash "
                               "equilibrium), tableau (punto banco), or a TOML strategy file."),
    draw_at_5: Optional[str] = typer.Option(None, "--draw-at-5", help="Player's probability of drawing at 5 "
                                            "(draw, stand or p); default: the equilibrium's, 1 with the tableau."),
    model: str = typer.Option("B2", "--model", "-m", help="Information model of the equilibrium: B2 (Banker sees "
                                                          "his composition) or B1 (totals)."),
    commission: str = COMMISSION,
    seats: str = typer.Option("6", "--seats", help="Players at the table (the bank rotates among them)."),
    stake: str = typer.Option("1", "--stake", help="The opening bank, in units."),
    withdraw_after: str = typer.Option("0", "--withdraw-after", help="Banker withdraws after this many wins in a "
                                                                     "row (0: never; the bank passes only on a loss)."),
    seed: Optional[str] = SEED,
    cut: Optional[str] = CUT,
    deal: str = DEAL,
    coups: str = COUPS,
    json_out: bool = JSON,
    out_path: Optional[str] = OUT,
    workers: Optional[str] = WORKERS,
    backend: str = BACKEND,
    scheduler: Optional[str] = SCHEDULER,
    progress: Optional[bool] = PROGRESS,
) -> None:
    """Chemin de fer sessions: the rotating bank, the commission, bank runs, house take."""
    from .chemin import CheminJob, equilibrium_strategy, load_strategy_toml, simulate_chemin, tableau_strategy

    check_out(out_path)
    d = parse_decks(decks)
    alpha = as_fraction(commission, "--commission")
    if not 0 <= alpha < 1:
        raise BaccaraError(f"--commission must be in [0, 1), got {alpha}")
    key = banker.strip().lower()
    if key in ("equilibrium", "nash"):
        if model.strip().upper()[-1:] not in ("1", "2"):
            raise BaccaraError(f"--model must be B1 or B2 (A1 / A2 with --decks inf), got {model!r}")
        strategy = equilibrium_strategy(d, alpha, model.strip().upper())
    elif key in ("tableau", "punto", "punto-banco"):
        strategy = tableau_strategy()
    elif Path(banker).suffix.lower() == ".toml" or Path(banker).exists():
        strategy = load_strategy_toml(banker)
    else:
        raise BaccaraError(f"--banker must be equilibrium, tableau or a .toml strategy file, got {banker!r}")
    if draw_at_5 is not None:
        strategy = strategy.with_draw_at_5(parse_prob(draw_at_5, "--draw-at-5"))
    try:
        stake_v = float(stake)
    except ValueError:
        raise BaccaraError(f"--stake must be a positive number, got {stake!r}") from None
    job = CheminJob(seed=parse_seed(seed), shoes=parse_count(shoes, "--shoes", minimum=1), strategy=strategy,
                    decks=d, alpha=alpha, seats=parse_count(seats, "--seats"), stake=stake_v,
                    withdraw_after=parse_count(withdraw_after, "--withdraw-after"), deal=deal.strip().lower(),
                    cut=parse_count(cut, "--cut", default=7), coups=parse_count(coups, "--coups", minimum=1),
                    keep_rows=out_path is not None)
    res = _run(simulate_chemin, job, backend, workers, scheduler, _progress_wanted(progress, json_out))
    doc = res.to_json()
    _emit(doc, json_out, out_path, res.total.rows, {k: doc[k] for k in ("game", "seed", "shoes", "shoe", "table")},
          lambda: _chemin_summary(doc))


def _chemin_summary(doc: dict) -> None:
    sh, tb = doc["shoe"], doc["table"]
    out.print(f"Chemin de fer, {_decks(sh['decks'])}, commission {tb['commission']}, {tb['seats']} seats, "
              f"strategy: {doc['strategy']['name']} (Player draws at 5 with p = {doc['strategy']['player_draw_at_5']})",
              highlight=False)
    out.print(f"{doc['shoes']:,} sessions, seed {doc['seed']}; " + _rate(doc), highlight=False)
    ex, z = doc.get("exact") or {}, doc.get("z", {})
    t = Table(title="Per coup, one unit staked")
    for c in ("", "simulated ± se", "exact", "z"):
        t.add_column(c, justify="right")
    for k, label in (("banker", "Banker's gain"), ("player", "Player's gain")):
        b = doc["bets"][k]
        t.add_row(label, _pm(b["ev_per_bet"], b["stderr"]), f"{ex[k]:+.6f}" if ex else "-", _z(z.get(k)))
    n = doc["hands"]
    for k in ("banker", "player", "tie"):
        t.add_row(f"P({k} wins)" if k != "tie" else "P(tie)", f"{doc['outcomes'][k] / n:.6f}",
                  f"{ex['outcomes'][k]:.6f}" if ex else "-", _z(z.get('p_' + k)))
    out.print(t)
    bk, h = doc["banks"], doc["house"]
    out.print(f"banks: {bk['count']:,} ({bk['per_session']:.2f} a session), mean {bk['mean_coups']:.2f} coups and "
              f"{bk['mean_wins']:.2f} wins each, longest run {bk['longest_run']} wins, largest bank "
              f"{bk['largest_bank']:,.2f}", highlight=False)
    out.print(f"house take: {h['take']:,.2f} in all, {h['take_per_session']:.3f} a session, "
              f"{h['take_per_coup']:.4f} a coup (per unit staked: {h['per_coup_per_unit']:.6f})", highlight=False)
    t = Table(title="Seats: net per session (seat 0 opens the bank)")
    for c in ("seat", "mean ± se", "sd"):
        t.add_column(c, justify="right")
    for s in doc["seats"]:
        t.add_row(str(s["seat"]), _pm(s["mean_net_per_session"], s["stderr"]), f"{s['sd_per_session']:.2f}")
    out.print(t)


# ---------------------------------------------------------------- banque
@simulate_app.command("banque")
@handles_errors
def banque(
    decks: str = typer.Option("3", "--decks", "-d", help="Decks in the shoe (3 in seed 003), or 'inf'."),
    shoes: str = SHOES,
    theta: str = typer.Option("1/2", "--theta", help="Stake on Player 1's hand, theta in (0, 1); Player 2: 1 - theta."),
    players: str = typer.Option("equilibrium", "--players", help="equilibrium (the correlated mixture of seed 004) "
                                                                 "or independent (with --p1, --p2)."),
    p1: Optional[str] = typer.Option(None, "--p1", help="Player 1 draws at 5 with this probability (independent)."),
    p2: Optional[str] = typer.Option(None, "--p2", help="Player 2 draws at 5 with this probability (independent)."),
    banker: str = typer.Option("equilibrium", "--banker", help="equilibrium (correlated cooperative, seed 004) or "
                                                               "draw-to-5 (draw on 0-5, stand on 6-7)."),
    seed: Optional[str] = SEED,
    cut: Optional[str] = typer.Option(None, "--cut", help="Cards behind the cut card (default 10: a banque coup "
                                                          "takes up to nine cards)."),
    deal: str = DEAL,
    coups: str = COUPS,
    json_out: bool = JSON,
    out_path: Optional[str] = OUT,
    workers: Optional[str] = WORKERS,
    backend: str = BACKEND,
    scheduler: Optional[str] = SCHEDULER,
    progress: Optional[bool] = PROGRESS,
) -> None:
    """Baccara banque sessions: two tableaux against one Banker, stakes theta : 1 - theta."""
    from .banque import BANQUE_CUT, BanqueJob, BanqueStrategy, draw_to_5_banker, equilibrium_strategy, independent_players, simulate_banque

    check_out(out_path)
    t = as_fraction(theta, "--theta")
    if not 0 < t < 1:
        raise BaccaraError(f"--theta must be in (0, 1), got {t}")
    eq = equilibrium_strategy(t)
    pk = players.strip().lower()
    if pk == "equilibrium":
        if p1 is not None or p2 is not None:
            raise BaccaraError("--p1 / --p2 go with --players independent")
        mix, pname = eq.players, "correlated equilibrium"
    elif pk == "independent":
        a = parse_prob(p1 if p1 is not None else "1/2", "--p1")
        b = parse_prob(p2 if p2 is not None else "1/2", "--p2")
        mix, pname = independent_players(a, b), f"independent, p1 = {a}, p2 = {b}"
    else:
        raise BaccaraError(f"--players must be equilibrium or independent, got {players!r}")
    bk = banker.strip().lower()
    if bk == "equilibrium":
        table, bname = eq.banker, "correlated equilibrium"
    elif bk in ("draw-to-5", "draw5"):
        table, bname = draw_to_5_banker(), "draws on 0-5"
    else:
        raise BaccaraError(f"--banker must be equilibrium or draw-to-5, got {banker!r}")
    strategy = BanqueStrategy(f"Players: {pname}; Banker: {bname}", tuple(mix), table)
    job = BanqueJob(seed=parse_seed(seed), shoes=parse_count(shoes, "--shoes", minimum=1), strategy=strategy,
                    theta=t, decks=parse_decks(decks), deal=deal.strip().lower(),
                    cut=parse_count(cut, "--cut", default=BANQUE_CUT), coups=parse_count(coups, "--coups", minimum=1),
                    keep_rows=out_path is not None)
    res = _run(simulate_banque, job, backend, workers, scheduler, _progress_wanted(progress, json_out))
    doc = res.to_json()
    _emit(doc, json_out, out_path, res.total.rows, {k: doc[k] for k in ("game", "seed", "shoes", "shoe", "theta")},
          lambda: _banque_summary(doc))


def _banque_summary(doc: dict) -> None:
    sh = doc["shoe"]
    out.print(f"Baccara banque, {_decks(sh['decks'])}, theta {doc['theta']}; {doc['strategy']['name']}", highlight=False)
    out.print(f"{doc['shoes']:,} sessions, seed {doc['seed']}; " + _rate(doc), highlight=False)
    mv, ex, z = doc["model_value"], doc.get("exact"), doc.get("z", {})
    t = Table(title="Per coup, units of the total stake")
    for c in ("", "simulated ± se", "simplified model (exact)", "z"):
        t.add_column(c, justify="right")
    b = doc["bets"]["banker"]
    t.add_row("Banker's gain", _pm(b["ev_per_bet"], b["stderr"]), f"{mv['banker']:+.6f}", _z(z.get("banker")))
    for k in ("player1", "player2"):
        b = doc["bets"][k]
        t.add_row(f"{k} per unit on his hand", _pm(b["ev_per_bet"], b["stderr"]), "-", "-")
    out.print(t)
    if ex is None:
        out.print("the simplified model deals with replacement: compare with --decks inf for an exact check",
                  highlight=False)
