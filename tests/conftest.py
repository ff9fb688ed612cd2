"""Collection order: the slowest modules first, so that with one worker per core
(pytest-xdist, ``--dist loadfile``) they start at once instead of ending the run."""

SLOWEST = ("test_banque_nash_sweep.py", "test_banque_independent_sweep.py", "test_banque.py", "test_chemin3.py")


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(SLOWEST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOWEST)))   # stable: files keep their order
