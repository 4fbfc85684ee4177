"""The catalog format's one home: its version, file names and keys, its JSON Schema, the
digest of its tools, and the one validating reader.

The writer (render/catalog.py) and every reader (runtime, verify, diff, the models
renderer) depend on this room, never on each other, so a catalog read anywhere is the
shape it was checked to be.
"""
