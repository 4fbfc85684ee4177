"""The names of the files toolcat writes into a catalog folder."""

from __future__ import annotations

CATALOG_FILE = "catalog.json"
MODULE_FILE = "__init__.py"
SUMMARY_FILE = "CATALOG.md"
MODELS_FILE = "models.py"           # with `models: true` (generator/models/)
RECORD_FILE = ".toolcat-inputs.json"   # see generator/output/record.py

# The templates a catalog renders: what a catalog's own templates folder may replace.
CATALOG_TEMPLATES = ("models.py.jinja", "python_module.py.jinja", "summary.md.jinja")
