"""optimus: turn a structured natural-language optimization problem (SNOP) into a solved, tested model."""

__version__ = "0.1.0"
