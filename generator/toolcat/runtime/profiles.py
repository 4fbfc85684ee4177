"""Client schema profiles: a derived view of each inputSchema for a client that rejects
valid JSON Schema (`toolcat serve --schema-profile NAME`).

The view is never narrower than the exact schema: every instance the exact schema accepts,
the view accepts. Each rewrite either keeps the meaning or only drops a constraint:
`$ref` is inlined (a definition met again inside itself becomes `{}`, open, after
`DEPTH` levels; `false` becomes `{}`), `const` becomes a one-value `enum`, a type list
becomes an `anyOf` of single types, `oneOf` and `allOf` become `anyOf` (an instance that
matches one or all branches matches any), `exclusiveMinimum`/`exclusiveMaximum` become
`minimum`/`maximum`, and every other keyword the profile does not know is dropped. The
server still validates every call against the exact schema; only what clients see changes.

Profiles:
- `gemini`: Gemini's function declarations take an OpenAPI-style subset of JSON Schema and
  reject `$ref`/`$defs` (docs/large-apis.md names the public reports).
- `openai-strict`: OpenAI's strict mode, narrower than JSON Schema by construction (every
  property required, no open objects): shown through a reversible mapping of arguments that
  the server undoes before validating (strict.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..vocab.pointers import LOCAL_DEFS
from .strict import STRICT, StrictView, compile_schema

PROFILES = ("gemini", STRICT)
DEPTH = 3
# Keywords a profile shows as they are (subschemas are rewritten in _rewrite).
_KEEP = {"gemini": frozenset({"type", "format", "description", "enum", "items", "properties",
                              "required", "anyOf", "minimum", "maximum", "minLength",
                              "maxLength", "minItems", "maxItems", "pattern", "title",
                              "default"})}
_FORMATS = frozenset({"date-time", "enum"})
_UNIONS = ("anyOf", "oneOf", "allOf")


def profile_schema(schema: dict[str, Any], profile: str) -> dict[str, Any]:
    """The inputSchema `schema` as the client `profile` is shown it."""
    if profile == STRICT:
        return compile_schema(schema)[0].schema
    view = _view(schema, schema.get("$defs") or {}, _KEEP[profile], ())
    return view if isinstance(view, dict) else {"type": "object"}


def _view(node: Any, defs: dict[str, Any], keep: frozenset[str], seen: tuple[str, ...]
          ) -> Any:
    if not isinstance(node, dict):
        return {}                         # true, or false (no value): open either way
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(LOCAL_DEFS):
        name = ref[len(LOCAL_DEFS):]
        if seen.count(name) >= DEPTH or name not in defs:
            return {}                     # recursion cut (or a dangling ref): open
        # Siblings of $ref are further constraints: dropping them only widens.
        return _view(defs[name], defs, keep, (*seen, name))
    return _rewrite(node, defs, keep, seen)


def _rewrite(node: dict[str, Any], defs: dict[str, Any], keep: frozenset[str],
             seen: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    branches: list[Any] = []
    for key, value in node.items():
        if key in _UNIONS and isinstance(value, list):
            branches.append([_view(v, defs, keep, seen) for v in value])
        elif key == "const":
            out["enum"] = [value]
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, int | float):
            out[key.replace("exclusiveM", "m")] = value
        elif key == "type" and isinstance(value, list):
            branches.append([{"type": t} for t in value])
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: _view(v, defs, keep, seen) for k, v in value.items()}
        elif key == "items" and isinstance(value, dict | bool):
            out[key] = _view(value, defs, keep, seen)
        elif key == "format" and value not in _FORMATS:
            continue
        elif key in keep:
            out[key] = value
    # Several unions on one value: keep only the first (dropping the others only widens).
    if branches:
        out["anyOf"] = branches[0]
    if "required" in out and "properties" not in out:
        del out["required"]               # Gemini wants required names declared
    return out


def profiled_tool(tool: dict[str, Any], profile: str | None) -> dict[str, Any]:
    """The tool object as the client `profile` is shown it (unchanged for None)."""
    if profile is None:
        return tool
    return {**tool, "inputSchema": profile_schema(tool["inputSchema"], profile)}


View = Callable[[dict[str, Any]], dict[str, Any]]
Decode = Callable[[str, dict[str, Any]], dict[str, Any]]


def profile_hooks(tools: list[dict[str, Any]], profile: str | None
                  ) -> tuple[View | None, Decode | None, list[str]]:
    """What a server of `tools` needs for `profile`: how it shows a tool, how it maps a
    call's arguments back (None: unchanged), and warnings for serve's start."""
    if profile is None:
        return None, None, []
    if profile == STRICT:
        view = StrictView(tools)
        return view.tool, view.decode, view.warnings
    return (lambda tool: profiled_tool(tool, profile)), None, []
