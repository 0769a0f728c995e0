"""croupier: craps and roulette exactly as New Jersey's regulations define them."""

__version__ = "0.1.0"
