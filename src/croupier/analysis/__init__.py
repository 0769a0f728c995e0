"""Exact analysis (house edge, variance), pay-table compliance and regulation traceability.

Everything here is computed from the core's own wager definitions with exact fractions:
:mod:`croupier.analysis.exact` (``croupier edge``), :mod:`croupier.analysis.compliance`
(``croupier check``) and :mod:`croupier.analysis.trace` (``croupier trace``).
"""
