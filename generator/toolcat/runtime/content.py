"""A binary API response as MCP content of the right type, its media type kept.

`image/*` is an `image` block and `audio/*` an `audio` block (base64 data and mimeType, which
a client can show or hand to a model that reads images or sound); anything else that is not
text or JSON (`application/pdf`, `application/octet-stream`, `video/*`, archives) is an
embedded `resource` with a `blob`, named by the URL it came from without its query (a
credential may ride in the query; a URI is shown to the agent). The response size cap
(`ApiOptions.max_response_bytes`, 10 MB) applies before any of this: a larger body is never
read. A text block beside the binary one says what it is, for a client that shows only text.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import mcp_types as types


@dataclass(frozen=True)
class Blob:
    """Bytes an API answered with, their media type, and where they came from."""

    media_type: str
    data: bytes
    url: str

    @property
    def uri(self) -> str:
        scheme, netloc, path, _, _ = urlsplit(self.url)
        return urlunsplit((scheme, netloc, path, "", ""))

    def describe(self, status: int) -> str:
        return f"HTTP {status}: {len(self.data)} bytes of {self.media_type} from {self.uri}"


def is_text(media_type: str) -> bool:
    """Text the agent reads as text: `text/*` and XML (JSON is structured, elsewhere)."""
    return media_type.startswith("text/") or "xml" in media_type


def binary_block(blob: Blob) -> types.ContentBlock:
    data = base64.b64encode(blob.data).decode("ascii")
    kind = blob.media_type.split("/", 1)[0]
    if kind == "image":
        return types.ImageContent(type="image", data=data, mime_type=blob.media_type)
    if kind == "audio":
        return types.AudioContent(type="audio", data=data, mime_type=blob.media_type)
    contents = types.BlobResourceContents(uri=blob.uri, mime_type=blob.media_type, blob=data)
    return types.EmbeddedResource(type="resource", resource=contents)
