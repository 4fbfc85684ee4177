"""toolcat: derive MCP tool catalogs from OpenAPI documents.

The pipeline is the package layout, and data flows one way through it:
load -> normalise -> model -> overrides -> render -> output.
"""
