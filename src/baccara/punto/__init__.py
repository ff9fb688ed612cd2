"""Punto banco: the exact engine, pay tables, known cards, edge sorting and the reports built on them."""
