"""Solvers that know nothing of cards: additive bimatrix games, Foster's algorithm, sweeps."""
