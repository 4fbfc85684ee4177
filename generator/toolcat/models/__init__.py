"""Typed Python for a catalog: pydantic models of every tool's arguments and result.

Reads only the typed model (``generator.model.types.Catalog``); nothing in the
pipeline imports this room.
"""
