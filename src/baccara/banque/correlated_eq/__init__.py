"""Baccara banque's correlated equilibrium (Downton and Lockwood's solution concept) and its theta sweep."""
