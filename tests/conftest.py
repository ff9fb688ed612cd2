"""Hypothesis profiles, and the collection order.

Property tests without their own example count run 25 examples in the fast suite and 200 in the
slow job (``BACCARA_HYPOTHESIS_PROFILE``: ``fast`` or ``thorough``); those with their own count run a
quarter of it unless thorough (``tests/budget.py``).

Collection order: the slowest modules first, so that with one worker per core
(pytest-xdist, ``--dist loadfile``) they start at once instead of ending the run.

Which modules are slowest depends on the job: in the slow job (``-m slow``, or
everything) it is the theta and commission sweeps; in the fast suite
(``-m "not slow"``, the default of scripts/test.sh) it is the modules that are
left with the most work once their sweeps are deselected.

The web app's test client (``client``) is shared by its test modules."""

import os
import warnings

import pytest
from hypothesis import settings

# Property tests without their own example count run a modest number in the fast suite; the slow job
# (scripts/test.sh --slow, CI) runs them thoroughly.  BACCARA_HYPOTHESIS_PROFILE picks one by name.
settings.register_profile("fast", max_examples=25, deadline=None)
settings.register_profile("thorough", max_examples=200, deadline=None)
settings.load_profile(os.environ.get("BACCARA_HYPOTHESIS_PROFILE", "fast"))

#: When tests marked slow run (the slow job, or the whole suite).
SLOWEST = ("test_banque_nash_sweep.py", "test_banque_independent_sweep.py", "test_banque.py", "test_chemin3.py",
           "test_chemin.py")
#: The fast suite (no test marked slow selected).
SLOWEST_FAST = ("test_cli_fuzz.py", "test_sim.py", "test_banque_nash.py", "test_chemin3.py", "test_banque.py",
                "test_chemin.py")


@pytest.hookimpl(trylast=True)   # after -m / -k deselection: order what will run
def pytest_collection_modifyitems(items):
    order = SLOWEST if any(item.get_closest_marker("slow") for item in items) else SLOWEST_FAST
    rank = {name: k for k, name in enumerate(order)}
    items.sort(key=lambda item: rank.get(item.path.name, len(order)))   # stable: files keep their order


@pytest.fixture(scope="module")
def client():
    """The web app in-process (a test client), one per module; pages wait for their answers (600 s)."""
    pytest.importorskip("fastapi")
    with warnings.catch_warnings():  # starlette's test client warns about its httpx
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from baccara.web.app import create_app

        with TestClient(create_app(patience=600)) as c:
            yield c
