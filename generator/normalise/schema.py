"""Rewrite OpenAPI 3.0/3.1 schema objects as JSON Schema 2020-12.

* ``nullable: true`` (3.0) and ``type: ["null", T]`` (3.1) both become a type
  array with ``"null"`` last, so the same API written either way yields the same
  bytes.
* an ``enum`` without a ``type`` gets the type of its values.
* 3.0 boolean ``exclusiveMinimum``/``exclusiveMaximum`` become numbers; ``example``
  becomes ``examples``.
* OpenAPI-only keywords (``discriminator``, ``xml``, ``externalDocs``) and ``x-*``
  extensions are dropped: they are not JSON Schema and are not part of a tool.
* inputs leave out ``readOnly`` properties, outputs leave out ``writeOnly`` ones,
  at any depth and through ``allOf``.
* ``$ref``s point into the tool's own ``$defs`` (see ``defs.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from generator.errors import escape_token, fail

Mode = Literal["input", "output"]

ONE = ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then",
       "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems")
MAP = ("properties", "patternProperties", "dependentSchemas")
LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
DROPPED = frozenset({"discriminator", "xml", "externalDocs", "nullable", "example", "$id",
                     "$schema", "$anchor", "$dynamicAnchor", "$comment", "definitions", "$defs"})
_TYPE_ORDER = ("string", "number", "integer", "boolean", "object", "array", "null")
_HIDDEN = {"input": "readOnly", "output": "writeOnly"}

# Resolves a local $ref to (def name, target schema, pointer of the target).
RefLookup = Callable[[str, str], tuple[str, Any, str]]


class SchemaRewriter:
    """Rewrites one schema tree; collects the names of the $defs it points at."""

    def __init__(self, file: str, lookup: RefLookup, mode: Mode, is_30: bool) -> None:
        self.file = file
        self.lookup = lookup
        self.mode = mode
        self.is_30 = is_30
        self.refs: set[str] = set()

    def rewrite(self, node: Any, loc: str) -> Any:
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            raise fail(self.file, loc, f"a schema must be an object, found {type(node).__name__}",
                       "replace it with a schema object")
        if "$ref" in node:
            return self._ref(node, loc)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in DROPPED or key.startswith("x-"):
                continue
            out[key] = self._keyword(key, value, f"{loc}/{escape_token(key)}")
        if "example" in node and "examples" not in node:
            out["examples"] = [node["example"]]
        if self.is_30:
            _fix_exclusive(out, node)
        _fix_type(out, nullable=node.get("nullable") is True)
        self._hide_properties(out)
        return out

    def _keyword(self, key: str, value: Any, loc: str) -> Any:
        if key in ONE:
            return self.rewrite(value, loc)
        if key in MAP and isinstance(value, dict):
            return {k: self.rewrite(v, f"{loc}/{escape_token(k)}") for k, v in value.items()}
        if key in LIST and isinstance(value, list):
            return [self.rewrite(v, f"{loc}/{i}") for i, v in enumerate(value)]
        if key == "type" and isinstance(value, list):
            return list(value)
        return value

    def _ref(self, node: dict[str, Any], loc: str) -> Any:
        ref = node["$ref"]
        if not isinstance(ref, str):
            raise fail(self.file, f"{loc}/$ref", f"$ref must be a string, found {ref!r}",
                       "quote the reference: in YAML an unquoted '#' starts a comment")
        if not ref.startswith("#"):
            raise fail(self.file, f"{loc}/$ref", f"$ref '{ref}' was not bundled",
                       "report this: toolcat should have bundled it")
        name, _, _ = self.lookup(ref, f"{loc}/$ref")
        self.refs.add(name)
        out: dict[str, Any] = {"$ref": "#/$defs/" + escape_token(name)}
        for key, value in node.items():
            if key == "$ref" or key in DROPPED or key.startswith("x-"):
                continue
            out[key] = self._keyword(key, value, f"{loc}/{escape_token(key)}")
        if node.get("nullable") is True:
            return {"anyOf": [out, {"type": "null"}]}
        return out

    def _hide_properties(self, out: dict[str, Any]) -> None:
        """Drop readOnly (inputs) / writeOnly (outputs) properties, here and via allOf."""
        hidden = set(self._hidden_names(out))
        for part in out.get("allOf", []):
            if isinstance(part, dict):
                hidden.update(self._hidden_names(part))
        if not hidden:
            return
        for holder in [out, *[p for p in out.get("allOf", []) if isinstance(p, dict)]]:
            props = holder.get("properties")
            if isinstance(props, dict):
                for name in hidden.intersection(props):
                    if self._is_hidden(props[name]):
                        del props[name]
            if isinstance(holder.get("required"), list):
                holder["required"] = [r for r in holder["required"] if r not in hidden]

    def _hidden_names(self, schema: dict[str, Any]) -> list[str]:
        props = schema.get("properties")
        if not isinstance(props, dict):
            if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/$defs/"):
                return []  # a shared def hides its own properties itself
            return []
        return [name for name, sub in props.items() if self._is_hidden(sub)]

    def _is_hidden(self, sub: Any) -> bool:
        return isinstance(sub, dict) and sub.get(_HIDDEN[self.mode]) is True


def _fix_exclusive(out: dict[str, Any], node: dict[str, Any]) -> None:
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(flag), bool):
            if node[flag] and bound in node:
                out[flag] = out.pop(bound)
            else:
                out.pop(flag, None)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _fix_type(out: dict[str, Any], *, nullable: bool) -> None:
    types: list[str]
    raw = out.get("type")
    if isinstance(raw, str):
        types = [raw]
    elif isinstance(raw, list):
        types = [t for t in raw if isinstance(t, str)]
    elif isinstance(out.get("enum"), list) and out["enum"]:
        found = {_json_type(v) for v in out["enum"]}
        if "integer" in found and "number" in found:
            found.discard("integer")
        types = sorted(found, key=_TYPE_ORDER.index)
    elif nullable:
        inner = {k: v for k, v in out.items() if k not in ("title", "description", "default")}
        if inner:
            for k in inner:
                del out[k]
            out["anyOf"] = [inner, {"type": "null"}]
        return
    else:
        return
    if nullable and "null" not in types:
        types.append("null")
    types = [t for t in dict.fromkeys(types) if t != "null"] + (["null"] if "null" in types
                                                                  else [])
    out["type"] = types[0] if len(types) == 1 else types
    if nullable and isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
