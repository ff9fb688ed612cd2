"""``baccara audit``: from a casino's hand log and bet log, the evidence that a player counted or edge-sorted.

The declaration and its body: the body reads the two logs (:mod:`baccara.audit.logs`) and runs
:func:`baccara.audit.audit`, or with ``--tables DIR`` audits a folder of many tables' logs on all cores or a
Dask cluster (:mod:`baccara.audit.many`), and returns the result.  Writing the report (``--out``) is the
command line's (:mod:`baccara.cli.audit`): the web app has its own audit page, with uploads.  NumPy and the
engine are imported when the body runs.
"""

from __future__ import annotations

from typing import Any

from .. import params
from ..errors import BaccaraError
from ..result import Result
from . import Command, Param
from .options import (
    BETS,
    COMMISSION,
    PROOF_BACKEND,
    SCHEDULER,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    build_bets,
    build_tableau,
)

#: The defaults of :mod:`baccara.audit` (repeated so that ``--help`` loads no NumPy; tests/test_audit.py checks them).
PERMUTATIONS, ALPHA, CANDIDATES = 2999, "0.01", 8

#: ``--out``: the report the command line writes (the web app's audit page serves its own).
OUT = Param("out_path", "--out", "Write the report to FILE.html (self-contained) or FILE.pdf (printed by Chromium).",
            short="-o", web=False)

AUDIT = Command(
    ("audit",),
    "From a casino's hand log and bet log, the evidence that a player counted or edge-sorted: exact EVs, tests, "
    "verdicts.\n\n"
    "Every bet is priced exactly given the cards seen before it (and, when the log records\n"
    "it or for the sortings worth making, given the class of the coup's first card); each\n"
    "player's bets are tested against \"no information\" by reassigning them at random among\n"
    "the coups of each shoe, with Holm's correction; a verdict per player (none, counting,\n"
    "edge sorting) at the stated false-alarm rate; and the shoes' integrity from the hands.\n"
    "With --tables DIR, every table of a folder, on all cores or a Dask cluster: one verdict\n"
    "table across them.",
    (Param("hands", "--hands", "The hand log: CSV (or .parquet) with the columns shoe,coup,cards,first_class "
                               "(first_class optional).", web=False),
     Param("bets", "--bets", "The bet log: CSV (or .parquet) with the columns shoe,coup,player,bet,amount.",
           web=False),
     Param("decks", "--decks", "Decks per shoe, 1 to 100 (default 8).", "8", short="-d"),
     Param("sorted_ranks", "--sorted", "A sorting to test, the ranks of its sorted class (e.g. 6,7,8,9); repeatable.",
           kind="list"),
     Param("candidates", "--candidates", f"How many of the sortings the edge-sort engine ranks best to test, 0 to 511 "
                                         f"(default {CANDIDATES}; 0 when the log records first_class, tested as "
                                         "logged)."),
     BETS.but(name="bets_file", flag="--bets-file", help="TOML file of user-defined bets ([bets.NAME] tables) that "
                                                         "the bet log may name.", web_as="bets-toml"),
     COMMISSION, TIE_PAYS, SUPER6_PAYS, TABLEAU,
     Param("permutations", "--permutations", f"Random reassignments per test, 99 to 10^6 (default {PERMUTATIONS}).",
           str(PERMUTATIONS)),
     Param("alpha", "--alpha", f"The false-alarm rate, in (0, 1) (default {ALPHA}: 1%).", ALPHA),
     Param("seed", "--seed", "Seed of the permutations, 0 to 2^63 - 2 (default 0).", "0"),
     OUT,
     Param("tables", "--tables", "A folder of many tables' logs, instead of --hands and --bets: NAME.hands.csv with "
                                 "NAME.bets.csv, or a subfolder NAME with hands.csv and bets.csv (.parquet too), one "
                                 "table each, audited in parallel.", web=False),
     Param("workers", "--workers", "With --tables: processes or local Dask workers, 1 to twice the cores (default: "
                                   "all cores); not with --scheduler.", short="-j", web=False),
     PROOF_BACKEND, SCHEDULER),
    ".audit:audit")


def audit(*, hands: str | None, bets: str | None, decks: str, sorted_ranks: list[str] | None,
          candidates: str | None, bets_file: str | None, commission: str, tie_pays: str, super6_pays: str,
          tableau: str | None, permutations: str, alpha: str, seed: str, out_path: str | None, tables: str | None,
          workers: str | None, backend: str, scheduler: str | None) -> Result:
    """One table's audit, or with ``tables`` a folder's (:data:`AUDIT`).

    Parameters
    ----------
    hands, bets : str or None
        The hand log and the bet log (CSV or Parquet), for one table.
    decks : str
        Decks per shoe.
    sorted_ranks : list of str or None
        The sortings to test (``--sorted``).
    candidates : str or None
        How many of the engine's best sortings to test.
    bets_file : str or None
        A TOML file of user-defined bets the bet log may name.
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    tableau : str or None
        A TOML file of drawing rules.
    permutations, alpha, seed : str
        The permutation tests: reassignments per test, false-alarm rate, seed.
    out_path : str or None
        The report the command line writes afterwards (checked here, before any work; not with ``tables``).
    tables : str or None
        A folder of many tables' logs (:func:`baccara.audit.many.table_pairs`).
    workers, backend, scheduler : str or None
        Where the tables of ``tables`` are audited.

    Returns
    -------
    Result
        :class:`baccara.audit.analysis.AuditResult`, or with ``tables``
        :class:`baccara.audit.many.TablesResult`.
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
    options: dict[str, Any] = {"decks": d, "bet_defs": all_bets, "tableau": rules,
                               "sorted_sets": sorted_ranks_option(sorted_ranks), "candidates": n_cand,
                               "permutations": n_perm, "alpha": a, "seed": s}
    if tables is not None:
        return audit_folder(tables, workers, backend, scheduler, options)
    from ..audit.analysis import audit as run_audit  # lazy: NumPy and the engine, not needed for --help
    from ..audit.logs import read_bets, read_hands  # lazy: as above

    assert hands is not None and bets is not None
    hand_log = read_hands(hands, d, rules)
    bet_log = read_bets(bets, hand_log, all_bets)
    del options["decks"]
    try:
        return run_audit(hand_log, bet_log, **options)
    except BaccaraError as e:
        raise _sorted_option(e) from None


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
