"""Text toolcat writes for people and tools: the jinja2 environment over the templates,
the escaping filters every value passes through, and black's formatting of Python.

Below every renderer (the catalog's files, models.py, diff and verify reports, init's
files), so none of them borrows another's machinery.
"""
