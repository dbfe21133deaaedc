"""Votal: a moderator's assistant for forum Mafia-style games."""

__version__ = "0.1.0"
