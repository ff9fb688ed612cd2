"""How many examples a property test runs.

The fast suite (the default) runs a quarter of a test's full count (at least 10 unless the test says); with
``BACCARA_HYPOTHESIS_PROFILE=thorough`` (e.g. ``BACCARA_HYPOTHESIS_PROFILE=thorough bash scripts/test.sh``)
every property test runs its full count.
"""

import os

THOROUGH = os.environ.get("BACCARA_HYPOTHESIS_PROFILE", "") == "thorough"


def examples(full: int, least: int = 10) -> int:
    """The example count for a property test whose thorough count is ``full`` (in the fast suite a quarter,
    at least ``least``)."""
    return full if THOROUGH else max(least, full // 4)
