"""Jinja2 templates for drafts and the player site; installed as ``assistant.templates``."""
