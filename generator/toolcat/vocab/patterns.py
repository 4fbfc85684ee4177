"""Regular expressions the catalog puts in inputSchemas (ECMA-262 and Python alike).

``$(?!\\n)``: Python's ``$`` (jsonschema's) also matches before a final newline,
ECMA-262's does not; the lookahead makes both agree.
"""

from __future__ import annotations

# RFC 4648 base64 with padding: what a server decodes strictly (validate=True). Bytes
# travel so (a binary body, a multipart file part) and OpenAPI's `format: byte` is so.
BASE64_PATTERN = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$(?!\n)"

# RFC 3986 5.2.4 dot segments: a path value that is one of them, as a whole segment,
# is removed (with the segment before it) by the HTTP client or a normalising server,
# so the request reaches another path. No path value, item or member may be one.
DOT_SEGMENTS = (".", "..")
