"""Macao and Victoria, the precursors of baccarat, as two-person zero-sum games solved exactly.

- :mod:`.rules`: the variants as data;
- :mod:`.game`: the hands' graphs of up-states, the information model and exact chance weights;
- :mod:`.engine`: the exact outcome distribution for given strategies, and best responses;
- :mod:`.brute`: the brute-force enumerator, the engine's test oracle;
- :mod:`.lp`: the sequence-form LP over flows (floats), exact recovery and certification;
- :mod:`.solution`: :class:`~.solution.MacaoSolution` and :func:`~.solution.solve_macao`.
"""
