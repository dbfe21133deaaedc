"""The game file's upkeep: a new game file from a thread, kept up to date as the thread grows."""
