"""Fetching and storing: a forum thread fetched politely and kept in SQLite."""
