"""``python -m baccara``: the command line."""

from .cli import main

main()
