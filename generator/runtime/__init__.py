"""Serving catalogs as MCP servers: reads generated catalogs, never the pipeline."""
