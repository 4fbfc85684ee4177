"""Validation of a bundled document: the validator run (in its own process),
its speedups, and the location of its problems in the source file."""
