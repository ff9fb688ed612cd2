"""Baccara banque's independent (maximin) value: the solver, its exact proofs over theta intervals, the sweep."""
