"""Runtime room: serve a catalog as an MCP server and turn tool calls into HTTP requests.

Arrows point down: this room reads catalog data (the `tool` and `binding` objects of
`catalog.json`) and never the pipeline stages that wrote them.
"""
