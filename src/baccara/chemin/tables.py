"""Ethier and Lee's (2023) tables of chemin de fer as result objects.

Each table is computed by the functions of :mod:`baccara.chemin.solution`
(Tables 1, 4, 5 and the best-response table) and
:mod:`baccara.chemin.model3` (Table 7); this module wraps their rows in
the :class:`~baccara.result.Result` protocol, so that the command line, a
notebook and a pipeline read the same object:

- :class:`MoveTable`: Banker's moves by total (rows 0-7) and Player's third
  card (columns 0-9, then none), Tables 1 and 5 and the best-response table;
- :class:`Table4`: the counts of Table 4 for each d (Model B2; d = inf is Model A2);
- :class:`Table7`: Banker's strategies by alpha-interval under Model B3, consecutive d grouped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.table import Table

from ..result import Result

#: Column labels of a move table: Player's third card, then "-" (Player stood).
COLUMNS = tuple(str(k) for k in range(10)) + ("-",)


@dataclass(repr=False)
class MoveTable(Result):
    """Banker's moves in the layout of Ethier and Lee (2023), Table 1.

    Attributes
    ----------
    title : str
        What the table shows (model, shoe, commission).
    kind : str
        ``"table1"``, ``"table5"`` or ``"best_response"``.
    rows : list of list of str
        Row t (Banker's total 0-7), column k (Player's third card 0-9, then
        none): ``"D"`` draw, ``"S"`` stand, ``"M"`` indifferent, ``"*"``
        compositions differ (see ``notes``), ``"-"`` no such set, ``""`` not
        determined (Tables 1 and 5: depends on Player's strategy, alpha or d).
    notes : list of str
        The cells marked ``*``, composition by composition.
    legend : str
        What the letters mean.
    """

    title: str
    kind: str
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    legend: str = "D draw, S stand"

    def to_json(self) -> dict:
        """The table as a document.

        Returns
        -------
        dict
            ``table`` (the kind), ``title``, ``legend``, ``columns`` (third card 0-9, ``"none"``),
            ``rows`` (one per Banker total 0-7; ``null`` where the move is not determined) and ``notes``.
        """
        return {"table": self.kind, "title": self.title, "legend": self.legend,
                "columns": [*COLUMNS[:10], "none"],
                "rows": [[c or None for c in row] for row in self.rows], "notes": list(self.notes)}

    def summary(self) -> str:
        """The title.

        Returns
        -------
        str
            The line.
        """
        return self.title

    def text(self) -> str:
        """The table as plain text (``.`` where the move is not determined).

        Returns
        -------
        str
            Title, header, eight rows and the notes.
        """
        head = "total | " + " ".join(f"{c:>2}" for c in COLUMNS) + "   (- = Player stood)"
        lines = [f"{self.title} ({self.legend})", head]
        lines += [f"{t:>5} | " + " ".join(f"{c or '.':>2}" for c in row) for t, row in enumerate(self.rows)]
        return "\n".join(lines + self.notes)

    def renderables(self) -> list:
        """The plain-text table.

        Returns
        -------
        list
            One string.
        """
        return [self.text()]


@dataclass(repr=False)
class Table4(Result):
    """Ethier and Lee (2023), Table 4: for each d, Model B2's alpha sweep counted.

    Attributes
    ----------
    rows : list of tuple
        ``(d, a, b, c, d_, e)``: d (None for the infinite shoe, Model A2), the
        best-response-discontinuity curves (a), their intersections in the
        strip (b), the partial curves (c), the cases (d) and the exceptional
        alphas (e).
    """

    rows: list[tuple]

    def to_json(self) -> list:
        """One dict per d: ``decks`` (an integer or ``"inf"``) and the counts ``a``-``e``.

        Returns
        -------
        list of dict
            The rows.
        """
        return [{"decks": "inf" if r[0] is None else r[0], "a": r[1], "b": r[2], "c": r[3], "d": r[4], "e": r[5]}
                for r in self.rows]

    def summary(self) -> str:
        """How many d.

        Returns
        -------
        str
            The line.
        """
        return f"Ethier and Lee (2023), Table 4 for {len(self.rows)} values of d (Model B2; inf = Model A2)"

    def renderables(self) -> list:
        """The table.

        Returns
        -------
        list
            One Rich table.
        """
        t = Table(title="Ethier and Lee (2023), Table 4 (Model B2; inf = Model A2)")
        for col in ("d", "(a) curves", "(b) intersections", "(c) partial", "(d) cases", "(e) exceptional"):
            t.add_column(col, justify="right")
        for r in self.rows:
            t.add_row("inf" if r[0] is None else str(r[0]), *(str(x) for x in r[1:]))
        return [t]


@dataclass(repr=False)
class Table7(Result):
    """Ethier and Lee (2023), Table 7 and Theorem 2: Model B3's Banker strategies by alpha-interval.

    Attributes
    ----------
    rows : list of dict
        Consecutive d with the same strategies grouped: ``decks`` (the list of
        d), ``strategies`` (alpha increasing, blocks (3,8) (4,1) (5,4) (6,none)
        (6,6)), ``exceptional_alphas`` (how many alphas have several
        equilibria) and ``confirmed`` (every interval confirmed in the full
        game; False where one is refuted; None where confirmation was not asked).
    """

    rows: list[dict]

    def to_json(self) -> list:
        """The rows.

        Returns
        -------
        list of dict
            As in :attr:`rows`.
        """
        return [dict(r) for r in self.rows]

    def summary(self) -> str:
        """How many d and whether all were confirmed.

        Returns
        -------
        str
            The line.
        """
        n = sum(len(r["decks"]) for r in self.rows)
        states = {r["confirmed"] for r in self.rows}
        said = ("an interval is NOT confirmed" if False in states
                else "not confirmed in the full game (not asked)" if None in states else "every interval confirmed")
        return f"Model B3, Banker's strategies by alpha-interval for {n} values of d in {len(self.rows)} groups; {said}"

    def renderables(self) -> list:
        """The table.

        Returns
        -------
        list
            One Rich table.
        """
        t = Table(title="Model B3: Banker's strategies by alpha-interval, blocks (3,8) (4,1) (5,4) (6,none) (6,6)")
        for col in ("d", "strategies (alpha increasing)", "several-NE alphas", "confirmed"):
            t.add_column(col)
        for r in self.rows:
            ds = r["decks"]
            label = str(ds[0]) if len(ds) == 1 else f"{ds[0]}-{ds[-1]}"
            t.add_row(label, "\n".join(r["strategies"]), str(r["exceptional_alphas"]), {True: "yes", False: "NO", None: "not asked"}[r["confirmed"]])
        return [t]
