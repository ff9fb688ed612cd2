"""``baccara audit``: from a casino's hand log and bet log, the evidence that a player counted or edge-sorted.

A thin command: it reads the two logs (:mod:`baccara.audit.logs`), runs
:func:`baccara.audit.audit` and prints the result, or writes the report
(:mod:`baccara.audit.html`); with ``--tables DIR``, a folder of many tables' logs audited
on all cores or a Dask cluster (:mod:`baccara.audit.many`).  NumPy and the engine are
imported inside the command.
"""

from __future__ import annotations

from typing import Any

import typer

from .. import params
from ..errors import BaccaraError
from ..result import Result
from .common import (
    COMMISSION,
    PROOF_BACKEND,
    SCHEDULER,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    app,
    build_bets,
    build_tableau,
    render,
    say,
)
from .errors import handles_errors

#: The defaults of :mod:`baccara.audit` (repeated so that ``--help`` loads no NumPy; tests/test_audit.py checks them).
PERMUTATIONS, ALPHA, CANDIDATES = 2999, "0.01", 8
SORTED = typer.Option(None, "--sorted", help="A sorting to test, the ranks of its sorted class (e.g. 6,7,8,9); "
                                             "repeatable.")


@app.command("audit")
@handles_errors
def audit(
    hands: str | None = typer.Option(None, "--hands", help="The hand log: CSV (or .parquet) with the columns "
                                                           "shoe,coup,cards,first_class (first_class optional)."),
    bets: str | None = typer.Option(None, "--bets", help="The bet log: CSV (or .parquet) with the columns "
                                                         "shoe,coup,player,bet,amount."),
    decks: str = typer.Option("8", "--decks", "-d", help="Decks per shoe, 1 to 100 (default 8)."),
    sorted_ranks: list[str] | None = SORTED,
    candidates: str | None = typer.Option(None, "--candidates", help=f"How many of the sortings the edge-sort engine "
                                                                     f"ranks best to test, 0 to 511 (default "
                                                                     f"{CANDIDATES}; 0 when the log records "
                                                                     "first_class, tested as logged)."),
    bets_file: str | None = typer.Option(None, "--bets-file", help="TOML file of user-defined bets ([bets.NAME] "
                                                                   "tables) that the bet log may name."),
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    tableau: str | None = TABLEAU,
    permutations: str = typer.Option(str(PERMUTATIONS), "--permutations", help=f"Random reassignments per test, 99 "
                                                                               f"to 10^6 (default {PERMUTATIONS})."),
    alpha: str = typer.Option(ALPHA, "--alpha", help=f"The false-alarm rate, in (0, 1) (default {ALPHA}: 1%)."),
    seed: str = typer.Option("0", "--seed", help="Seed of the permutations, 0 to 2^63 - 2 (default 0)."),
    out_path: str | None = typer.Option(None, "--out", "-o", help="Write the report to FILE.html (self-contained) "
                                                                  "or FILE.pdf (printed by Chromium)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON: players -> verdict, p-values, EV figures "
                                                        "(with --tables: tables -> each table's document)."),
    tables: str | None = typer.Option(None, "--tables", help="A folder of many tables' logs, instead of --hands and "
                                                             "--bets: NAME.hands.csv with NAME.bets.csv, or a "
                                                             "subfolder NAME with hands.csv and bets.csv (.parquet "
                                                             "too), one table each, audited in parallel."),
    workers: str | None = typer.Option(None, "--workers", "-j", help="With --tables: processes or local Dask "
                                                                     "workers, 1 to twice the cores (default: all "
                                                                     "cores); not with --scheduler."),
    backend: str = PROOF_BACKEND,
    scheduler: str | None = SCHEDULER,
) -> dict | None:
    """From a casino's hand log and bet log, the evidence that a player counted or edge-sorted: exact EVs, tests, verdicts.

    Every bet is priced exactly given the cards seen before it (and, when the log records
    it or for the sortings worth making, given the class of the coup's first card); each
    player's bets are tested against "no information" by reassigning them at random among
    the coups of each shoe, with Holm's correction; a verdict per player (none, counting,
    edge sorting) at the stated false-alarm rate; and the shoes' integrity from the hands.
    With --tables DIR, every table of a folder, on all cores or a Dask cluster: one verdict
    table across them.
    """
    if tables is not None:
        if hands or bets:
            raise BaccaraError("--tables audits a folder of tables; give it, or one table's --hands and --bets, "
                               "not both")
        if out_path is not None:
            raise BaccaraError("--out writes one table's report; with --tables, print the verdicts (or --json), "
                               "then write a report per table with --hands, --bets and --out")
    elif workers is not None or scheduler is not None or backend.strip().lower() != "processes":
        raise BaccaraError("--workers, --backend and --scheduler share out the tables of --tables; one table's "
                           "audit runs here: leave them out, or give --tables DIR")
    if not hands and tables is None:
        raise BaccaraError("--hands: give the hand log (CSV or Parquet: shoe,coup,cards,first_class)")
    if not bets and tables is None:
        raise BaccaraError("--bets: give the bet log (CSV or Parquet: shoe,coup,player,bet,amount)")
    if out_path is not None:
        low = out_path.strip().lower()
        if not (low.endswith(".html") or low.endswith(".htm") or low.endswith(".pdf")):
            raise BaccaraError(f"--out must name a .html or .pdf file, got {out_path!r}")
    d = params.integer(decks, "--decks", lo=1, hi=100)
    rules = build_tableau(tableau)
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets_file)
    n_perm = params.integer(permutations, "--permutations", lo=99, hi=10**6)
    a = float(params.rational(alpha, "--alpha", lo=0, hi=1, lo_open=True, hi_open=True))
    s = params.integer(seed, "--seed", lo=0, hi=2**63 - 2)
    n_cand = None if candidates is None else params.integer(candidates, "--candidates", lo=0, hi=511)
    options: dict[str, Any] = {"decks": d, "bet_defs": all_bets, "tableau": rules, "sorted_sets": sorted_ranks_option(sorted_ranks),
               "candidates": n_cand, "permutations": n_perm, "alpha": a, "seed": s}
    if tables is not None:
        return render(audit_folder(tables, workers, backend, scheduler, options), json_out)
    from ..audit.analysis import audit as run_audit  # lazy: NumPy and the engine, not needed for --help
    from ..audit.logs import read_bets, read_hands  # lazy: as above

    assert hands is not None and bets is not None
    hand_log = read_hands(hands, d, rules)
    bet_log = read_bets(bets, hand_log, all_bets)
    del options["decks"]
    try:
        result = run_audit(hand_log, bet_log, **options)
    except BaccaraError as e:
        raise _sorted_option(e) from None
    if out_path is not None:
        from ..audit.html import write_audit_report  # lazy: matplotlib

        written = write_audit_report(result, out_path)
        say(f"report written to {written}")
        if not json_out:
            return None
    return render(result, json_out)


def sorted_ranks_option(values: list[str] | None) -> list[str]:
    """The ``--sorted`` sortings, as given (each checked by the audit).

    Parameters
    ----------
    values : list of str or None
        The option's values.

    Returns
    -------
    list of str
        The sortings.
    """
    return [v for v in values or [] if v.strip()]


def _sorted_option(e: BaccaraError) -> BaccaraError:
    text = str(e)
    return BaccaraError("--" + text if text.startswith("sorted") else text)


def audit_folder(tables: str, workers: str | None, backend: str, scheduler: str | None, options: dict) -> Result:
    """``--tables DIR``: every table of the folder, with the simulator's checks of the workers and backend.

    Parameters
    ----------
    tables : str
        The folder (:func:`baccara.audit.table_pairs`).
    workers, backend, scheduler : str or None
        ``--workers``, ``--backend`` (processes or dask) and ``--scheduler``, as given.
    options : dict
        Keyword arguments of :func:`baccara.audit.audit`.

    Returns
    -------
    TablesResult
        The verdicts across tables.
    """
    from ..audit.many import TablesResult, audit_tables, table_pairs  # lazy: processes, NumPy, the engine
    from ..sim.distributed import check_backend  # lazy: as above

    name, address = params.backend(backend, scheduler)
    w = None if workers is None else params.integer(workers, "--workers")  # its range: check_backend
    name, n = check_backend(name, w, address)
    pairs = table_pairs(tables)
    try:
        docs = audit_tables([(h, b) for _, h, b in pairs], workers=n, backend=name, scheduler=address, **options)
    except BaccaraError as e:
        raise _sorted_option(e) from None
    return TablesResult([t for t, _, _ in pairs], docs, n, name)
