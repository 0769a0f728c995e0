"""Simulation: strategies compiled into integer tables and played by numba kernels over
millions of sessions (layout tables, specialised and generic kernels, Dask), the reference
player that checks them, and the exact session analysis."""
