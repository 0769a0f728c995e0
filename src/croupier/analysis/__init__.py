"""Exact analysis (house edge, variance), pay-table compliance and regulation traceability.

Everything here is computed from the core's own wager definitions with exact fractions:
:mod:`croupier.analysis.exact` (``croupier edge``), :mod:`croupier.analysis.compliance`
(``croupier check``) and :mod:`croupier.analysis.trace` (``croupier trace``). What differs
between the families of games is each family's module (:mod:`croupier.analysis.craps`,
:mod:`croupier.analysis.roulette`), found through the game registry
(:mod:`croupier.analysis.family`).
"""
