"""Where long work runs (baccara.processes): processes here or a Dask cluster, the same answer either way,
and clear errors for a backend or scheduler that cannot be used."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from baccara import chemin
from baccara.cli import app
from baccara.errors import BaccaraError
from baccara.processes import HERE, Workers

runner = CliRunner()


def test_workers_say_when_the_work_leaves_this_process():
    assert not HERE.parallel and not Workers(1).parallel
    assert Workers(2).parallel and Workers(1, "dask").parallel and Workers(1, "processes", "tcp://h:1").parallel


@pytest.mark.parametrize("args,says", [
    (["chemin", "prove", "--decks", "1-2", "--backend", "threads"], "--backend must be one of processes, dask"),
    (["chemin", "prove", "--decks", "1-2", "--scheduler", "tcp://127.0.0.1:1"], "nothing listens at 127.0.0.1:1"),
    (["chemin", "prove", "--decks", "2", "--backend", "dask"], "share out several d"),
    (["check", "--backend", "nope", "FILE"], "--backend must be one of processes, dask"),
])
def test_a_backend_that_cannot_be_used_is_a_clear_error(args, says, tmp_path):
    args = [str(tmp_path / "x.json") if a == "FILE" else a for a in args]
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and says in r.output, r.output


def test_the_library_checks_the_backend_at_the_face():
    with pytest.raises(BaccaraError, match="--backend must be one of processes, dask"):
        chemin.prove_range("B3", [1, 2], backend="threads")


def test_a_check_with_no_step_to_share_out_says_so(tmp_path):
    art = tmp_path / "b3.json"
    r = runner.invoke(app, ["chemin", "prove", "--decks", "1", "--out", str(art)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["check", "--workers", "2", str(art)])
    assert r.exit_code == 0 and "share out the banque events' recomputation only" in r.output


@pytest.mark.slow  # two proofs on two processes, then again on a local Dask cluster (about 40 CPU-s)
def test_the_same_artefacts_on_processes_and_on_dask(tmp_path):
    def rows(backend):
        out = tmp_path / backend
        out.mkdir()
        res = chemin.prove_range("B3", [1, 2], workers=2, out_dir=out, backend=backend)
        docs = {p.name: json.loads(p.read_text()) for p in sorted(out.glob("*.json"))}
        for doc in docs.values():
            for key in [k for k in doc if k.endswith("seconds") or k.endswith("_s")]:
                del doc[key]
        return [(r["decks"], r["proved"], r["faces"]) for r in res.rows], docs

    assert rows("processes") == rows("dask")


# ---------------------------------------------------------------- banque prove
def test_an_endpoint_crosses_to_another_process_as_the_same_ball():
    import pickle
    from fractions import Fraction

    import flint

    from baccara.solve.roots import Endpoint, ball_data, ball_of, precision

    with precision():
        f = flint.fmpz_poly([-2, 0, 3, 0, 0, 7])
        root = Endpoint(next(z.real for z, _ in f.complex_roots() if z.imag == 0), f)
        third = Endpoint.of_rational(Fraction(1, 3))
    for e in (root, third):
        back = pickle.loads(pickle.dumps(e))
        # the very same ball, bit for bit (never narrower), at any working precision
        assert ball_data(back.ball) == ball_data(e.ball) and back.poly == e.poly and back.rational == e.rational
    assert pickle.loads(pickle.dumps(root)).minimal_polynomial == f
    # a radius whose mantissa fills FLINT's 30 bits (FLINT rounds such a one up when it is given it)
    for data in [(3, -2, 684195841, -541), (-5, 7, 2**30 - 1, 0), (1, 0, 2**29 + 1, -100)]:
        assert ball_data(ball_of(data)) == data
    m, e, r, x = ball_data(root.ball)
    with pytest.raises(ValueError, match="not a ball's data"):
        ball_of((m, e, 2**40 + 1, x))          # a radius FLINT would round up: refused, not widened silently
    with pytest.raises(ValueError, match="not a finite ball"):
        ball_data(flint.arb("inf"))


def test_a_banque_game_travels_without_its_cached_views():
    import pickle

    from baccara.banque.model import banque_game, local_game

    g = banque_game()
    assert g.polys is not None        # FLINT polynomials cached on it, which do not pickle
    copy = pickle.loads(pickle.dumps(g))
    assert (copy.shoe, copy.denominator, copy.base) == (g.shoe, g.denominator, g.base)
    first = local_game(copy)
    assert local_game(pickle.loads(pickle.dumps(g))) is first     # one copy per process, its views computed once


def _banque_analysis(pool, chunks: int) -> dict:
    """A slice of the banque event analysis over (1/10, 101/1000): 30 crossings (one with an event), the
    edge points of three curves and the along-curve forms they lead to, on ``pool`` (None: here)."""
    from fractions import Fraction

    from baccara.banque.model import banque_game
    from baccara.banque.nash_eq import proof
    from baccara.solve.roots import ball_data, precision

    an = proof._Analyser(banque_game(), Fraction(1, 10), Fraction(101, 1000))
    R = an.R
    with precision():
        pairs = [(i, j) for n, i in enumerate(R) for j in R[n + 1:]][150:180]
        proof._share(an, "crossing", pairs, pool, chunks, None, 0, 0)
        proof._share(an, "edge", [(z, w, e) for z in R[:3] for w in (1, 2) for e in (0, 1)], pool, chunks, None, 0, 0)
        proof._share(an, "along", sorted(an.along, key=lambda u: (u[0], sorted(u[1]))), pool, chunks, None, 0, 0)
    return {"forms": [(k, [(ball_data(e.ball), [int(c) for c in e.poly.coeffs()]) for e in v]) for k, v in an.forms.items()],
            "continua": an.continua, "coincident": an.coincident, "degenerate": sorted(an.degenerate),
            "along": sorted((z, sorted(D)) for z, D in an.along), "counts": an.counts}


class _Pickling:
    """An executor that runs each task here, its arguments and result through pickle as another process gets them."""

    def map(self, fn, items):
        import pickle

        return [pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(x))))) for x in items]


def test_the_banque_event_analysis_in_chunks_is_the_analysis_in_one_process():
    here = _banque_analysis(None, 1)
    assert any(v for _, v in here["forms"]) and here["degenerate"]    # events and degenerate points: not a vacuous slice
    assert _banque_analysis(_Pickling(), 4) == here
    assert _banque_analysis(_Pickling(), 1000) == here                # one candidate a chunk
    from baccara.processes import executor

    with executor(2) as pool:                                         # spawned processes (a few CPU-s to start)
        assert _banque_analysis(pool, 5) == here


def test_the_banque_proofs_check_their_workers_at_the_face():
    from baccara import banque

    with pytest.raises(BaccaraError, match="workers must be a whole number, at least 1"):
        banque.prove("49/100", "1/2", workers=0)
    with pytest.raises(BaccaraError, match="--backend must be one of processes, dask"):
        banque.prove_independent("1/4", backend="threads")


@pytest.mark.parametrize("args,says", [
    (["--workers", "0"], "--workers must be an integer from 1 to"),
    (["--workers", "many"], "--workers"),
    (["--workers", "100000"], "--workers must be an integer from 1 to"),
    (["--backend", "threads"], "--backend must be one of processes, dask"),
    (["--scheduler", "http://h:1"], "--scheduler"),
    (["--scheduler", "tcp://127.0.0.1:1"], "nothing listens at 127.0.0.1:1"),
    (["--concept", "independent", "--theta", "1/4", "--backend", "threads"], "--backend"),
])
def test_banque_prove_refuses_workers_it_cannot_use(args, says):
    r = runner.invoke(app, ["banque", "prove", *args])
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, r.output


def test_banque_prove_hands_its_workers_to_the_proof(monkeypatch):
    import baccara.banque.nash_eq.artefact as nash_artefact
    from baccara.banque.nash_eq.artefact import BanqueProofArtefact
    from baccara.processes import Workers

    asked = {}

    def prove(*args, **kwargs):
        asked.update(kwargs)
        return BanqueProofArtefact({"kind": "banque-nash"})

    monkeypatch.setattr(nash_artefact, "prove", prove)
    r = runner.invoke(app, ["banque", "prove", "--lo", "49/100", "--workers", "2", "--backend", "dask", "--json"])
    assert r.exit_code == 0, r.output
    assert asked["workers"] == Workers(2, "dask", None)
    assert "note:" not in r.output


def test_banque_prove_with_one_theta_says_it_has_nothing_to_share_out(monkeypatch):
    import baccara.banque.independent_eq.artefact as independent_artefact
    from baccara.banque.independent_eq.artefact import IndependentValueArtefact
    from baccara.processes import Workers

    asked = {}

    def prove(*args, **kwargs):
        asked.update(kwargs)
        return IndependentValueArtefact({"kind": "banque-independent"})

    monkeypatch.setattr(independent_artefact, "prove", prove)
    r = runner.invoke(app, ["banque", "prove", "--concept", "independent", "--theta", "1/4", "--workers", "2", "--json"])
    assert r.exit_code == 0, r.output
    assert "one theta is one process's work, so it runs here" in r.output
    assert asked["workers"] == Workers()
    r = runner.invoke(app, ["banque", "prove", "--concept", "independent", "--theta", "1/4,1/3", "--workers", "2",
                            "--json"])
    assert r.exit_code == 0 and "note:" not in r.output and asked["workers"] == Workers(2, "processes", None), r.output


def _without_timings(doc: dict) -> str:
    for run in doc.get("proof_runs", []) + doc.get("proofs", []):
        run.pop("seconds", None)
    return json.dumps(doc, indent=1)


@pytest.mark.slow  # the same proofs here, on two processes and on a local Dask cluster (about 120 CPU-s)
@pytest.mark.parametrize("args", [["--lo", "1/10", "--hi", "101/1000"],
                                  ["--concept", "independent", "--theta", "1/4,3/10"]])
def test_banque_prove_writes_the_same_artefact_wherever_it_runs(args, tmp_path):
    texts = []
    for n, where in enumerate([[], ["--workers", "2"], ["--workers", "2", "--backend", "dask"]]):
        out = tmp_path / f"{n}.json"
        r = runner.invoke(app, ["banque", "prove", *args, *where, "--out", str(out)])
        assert r.exit_code == 0, r.output
        texts.append(_without_timings(json.loads(out.read_text())))
    assert texts[0] == texts[1] == texts[2]
