"""Bundled rulesets and the demo game; installed as ``assistant.data``."""
