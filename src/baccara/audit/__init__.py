"""Game protection: from a casino's hand log and bet log, the evidence that a player counted or edge-sorted.

The face of the audit (names loaded on first use):

- :func:`read_hands`, :func:`read_bets`, :func:`write_hands`, :func:`write_bets` and :class:`LogError`:
  the two logs, CSV or Parquet, refused with file, line and reason when bad (:mod:`.logs`);
- :func:`coup_table`: every coup's exact prices given the cards seen and given its first card (:mod:`.evs`);
- :func:`audit` and :class:`AuditResult`: each player's bets tested against "no information" by permutation
  within shoes, with Holm's correction, and a verdict (:mod:`.analysis`, :mod:`.stats`);
- :func:`shoe_integrity`: the shoes' cards, the drawing table and the shuffle (:mod:`.integrity`);
- :func:`simulate_logs`, :func:`parse_seat`, :func:`write_logs`: logs of known behaviour (:mod:`.simlog`);
- :func:`write_audit_report`: the report as HTML or PDF (:mod:`.html`);
- :func:`audit_tables`, :func:`table_pairs`, :class:`TablesResult`: many tables' logs on all cores or a Dask
  cluster (:mod:`.many`); :func:`flag_rates`:
  the verdicts' false-alarm rate and power, measured on simulated players (:mod:`.power`).
"""

import importlib

__all__ = ["AuditResult", "BetLog", "audit_tables", "flag_rates", "TablesResult", "table_pairs", "HandLog", "LogError", "Seat", "audit", "coup_table", "parse_seat", "read_bets",
           "read_hands", "shoe_integrity", "simulate_logs", "write_audit_report", "write_bets", "write_hands",
           "write_logs"]

_LAZY = {
    **dict.fromkeys(["BetLog", "HandLog", "LogError", "read_bets", "read_hands", "write_bets", "write_hands"], ".logs"),
    "coup_table": ".evs",
    **dict.fromkeys(["AuditResult", "audit"], ".analysis"),
    "shoe_integrity": ".integrity",
    **dict.fromkeys(["Seat", "parse_seat", "simulate_logs", "write_logs"], ".simlog"),
    "write_audit_report": ".html",
    **dict.fromkeys(["audit_tables", "table_pairs", "TablesResult"], ".many"),
    "flag_rates": ".power",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
