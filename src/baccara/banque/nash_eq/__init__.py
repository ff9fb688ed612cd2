"""Baccara banque's Nash equilibria: the exact solver, the proof over theta with its stored events, the sweep."""
