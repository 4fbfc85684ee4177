"""The small typed model in the middle of the pipeline.

Renderers read only these; none of them looks at the raw spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LOCATIONS = ("path", "query", "header", "cookie", "body")


@dataclass(frozen=True)
class ArgumentBinding:
    """Where one tool argument goes on the wire."""

    argument: str
    location: str               # one of LOCATIONS
    wire_name: str | None       # None: the argument is the whole request body
    style: str | None = None
    explode: bool | None = None
    allow_reserved: bool = False
    content_type: str | None = None   # a parameter's `content` or a multipart part's type

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"in": self.location, "name": self.wire_name}
        if self.style is not None:
            out["style"] = self.style
        if self.explode is not None:
            out["explode"] = self.explode
        if self.allow_reserved:
            out["allowReserved"] = True
        if self.content_type is not None:
            out["contentType"] = self.content_type
        return out


@dataclass(frozen=True)
class Binding:
    method: str
    path: str
    operation_id: str | None
    pointer: str
    arguments: tuple[ArgumentBinding, ...]
    request_content_type: str | None
    response_content_type: str | None
    output_wrapper: str | None      # property name a non-object response is wrapped in
    semantics: str | None = None    # full-replace | merge | additive (overrides)
    ignored: tuple[dict[str, str], ...] = ()   # spec parameters that are not arguments
    etag: bool = False              # the success response declares an ETag header
    omitted: tuple[tuple[str, str], ...] = ()  # body fields on no tool, with the reason
    servers: tuple[dict[str, Any], ...] = ({"url": "/"},)   # nearest servers (model/servers.py)
    security: tuple[tuple[dict[str, Any], ...], ...] = ()   # alternatives of scheme lists
    body_required: bool = False     # the spec requires a body: send {} when no field is given

    def as_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "operationId": self.operation_id,
            "arguments": {a.argument: a.as_json() for a in self.arguments},
            "requestContentType": self.request_content_type,
            "responseContentType": self.response_content_type,
            "outputWrapper": self.output_wrapper,
            "semantics": self.semantics,
            "ignoredParameters": list(self.ignored),
            "responseETag": self.etag,
            "omittedFields": dict(self.omitted),
            "servers": [dict(s) for s in self.servers],
            "security": [list(alternative) for alternative in self.security],
            "bodyRequired": self.body_required,
        }


@dataclass(frozen=True)
class Tool:
    name: str
    title: str | None
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, Any]
    binding: Binding

    def mcp_json(self) -> dict[str, Any]:
        """The tool exactly as ``tools/list`` returns it."""
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "inputSchema": self.input_schema,
                               "annotations": self.annotations}
        if self.title:
            out["title"] = self.title
        if self.output_schema is not None:
            out["outputSchema"] = self.output_schema
        return out


@dataclass(frozen=True)
class Exclusion:
    operation: str
    reason: str


@dataclass(frozen=True)
class Source:
    spec: str                   # path as given in the config, with forward slashes
    sha256: str                 # digest of every file the spec is read from
    openapi: str                # version string the document declares
    validated_with: str
    verdict: str = "valid"      # the validator's: valid | invalid (kept in warn mode)
    problems: int = 0           # how many problems it reported


@dataclass(frozen=True)
class Catalog:
    name: str
    source: Source
    tools: tuple[Tool, ...]
    exclusions: tuple[Exclusion, ...] = field(default_factory=tuple)
    toolsets: tuple[tuple[str, tuple[str, ...]], ...] = ()   # name -> tool names (sorted)
