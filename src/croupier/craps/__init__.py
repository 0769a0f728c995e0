"""Craps and mini-craps: wager definitions, table options and the table engine."""
