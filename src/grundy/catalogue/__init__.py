"""Families of codes: the SQLite catalogue of results, its records, surveys, the family runner and its executors, campaigns at depth, and the published tables."""
