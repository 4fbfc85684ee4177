"""Words every room shares, each defined once: digests, JSON pointers, output file
names, MCP's name rules and hint defaults, JSON Schema keyword sets.

Imports nothing from toolcat: every stage may use it, and it uses no stage.
"""
