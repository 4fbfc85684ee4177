"""Compare two catalogs and say, per tool, what changed and whether it breaks callers.

load.py reads a side (a catalog.json, a catalog folder, or a path at a git
revision); schemas.py compares two JSON Schemas structurally; classify.py turns
tool, binding and annotation differences into classified changes; report.py
renders them for a terminal or a pull-request comment; command.py is
``toolcat diff``.
"""
