"""MCP's rules for tool names, and the tool annotations (hints) toolcat sets.

The name rule is the one the MCP specification gives for tool names; the catalog
schema (generator/schemas/catalog.schema.json) spells the same pattern.
"""

from __future__ import annotations

import re

MAX_NAME = 64
TOOL_NAME_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
NAME_RE = re.compile(TOOL_NAME_PATTERN)
NAME_CHARS = "[A-Za-z0-9_-]"

# The MCP specification's value for each hint when a tool does not set it.
HINT_DEFAULTS: dict[str, bool] = {"readOnlyHint": False, "destructiveHint": True,
                                  "idempotentHint": False, "openWorldHint": True}
HINTS = tuple(HINT_DEFAULTS)

# The reserved argument an If-Match header parameter becomes (model), and that the runtime
# names when an ETag can be passed back.
IF_MATCH = "ifMatch"
