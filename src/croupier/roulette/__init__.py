"""Roulette: wheels, layout geometry, the wagers of N.J.A.C. 13:47-20.32(e), the table and replay."""
