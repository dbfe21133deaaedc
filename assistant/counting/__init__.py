"""Counting and rules: the stored thread replayed day by day under the game's ruleset."""
