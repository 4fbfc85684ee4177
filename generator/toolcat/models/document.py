"""One JSON Schema document holding every tool's input and output schema.

datamodel-code-generator turns each ``$defs`` entry of one document into one
class, so the document is the place where names are decided:

- a tool's input model is ``<ToolName>Input``, its output model
  ``<ToolName>Output`` (the tool name in PascalCase: ``broadcast_update_channel``
  -> ``BroadcastUpdateChannelInput``);
- a definition that several tools reach is emitted once, under its own name,
  when it is the same definition everywhere. "The same" means the same schema
  reaching the same definitions, transitively: the digest of everything a
  definition reaches (its closure) identifies it;
- when one name stands for different definitions (an input variant without the
  readOnly fields beside the output variant, or a loosened output definition),
  each gets the name plus six hex digits of its closure digest: derived from
  content, never from the order tools come in, so adding a tool renames nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..jsonio import dumps
from ..model.types import Catalog, Tool
from ..vocab.pointers import LOCAL_DEFS, defs_referenced, split_pointer

DEFS = LOCAL_DEFS
# (tool name, "input" | "output", definition name) - one definition of one schema
Node = tuple[str, str, str]


@lru_cache(maxsize=16384)
def class_name(name: str) -> str:
    """A PascalCase identifier: ``broadcast_update_channel`` -> ``BroadcastUpdateChannel``."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    joined = "".join(w[:1].upper() + w[1:] for w in words) or "Model"
    return joined if joined[0].isalpha() else f"M{joined}"


def input_class(tool: str) -> str:
    return class_name(tool) + "Input"


def output_class(tool: str) -> str:
    return class_name(tool) + "Output"


@dataclass(frozen=True)
class ModelsDocument:
    schema: dict[str, Any]            # the document datamodel-code-generator reads
    inputs: dict[str, str]            # tool name -> input class
    outputs: dict[str, str]           # tool name -> output class (tools with an outputSchema)


# Names the template defines beside the models (templates/models.py.jinja).
RESERVED = frozenset({"TypedTool"})


def models_document(catalog: Catalog) -> ModelsDocument:
    schemas = {(t.name, kind): s for t in catalog.tools
               for kind, s in _kinds(t) if s is not None}
    roots = {(tool, kind): (input_class(tool) if kind == "input" else output_class(tool))
             for tool, kind in schemas}
    closures = _closure_digests(schemas)
    names = _def_names(closures, set(roots.values()) | RESERVED)
    defs: dict[str, Any] = {}
    for (tool, kind), schema in schemas.items():
        def rename(ref: str, tool: str = tool, kind: str = kind) -> str:
            return _rename(ref, names, roots[tool, kind], tool, kind)
        for name, body in schema.get("$defs", {}).items():
            # A shared definition is rewritten once, by the first tool that reaches it:
            # every later one names the same closure, so its rewrite is the same.
            if names[tool, kind, name] not in defs:
                defs[names[tool, kind, name]] = _rewrite(body, rename)
        root = {k: v for k, v in schema.items() if k != "$defs"}
        defs[roots[tool, kind]] = _rewrite(root, rename)
    return ModelsDocument(
        schema={"$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": dict(sorted(defs.items()))},
        inputs={tool: cls for (tool, kind), cls in sorted(roots.items()) if kind == "input"},
        outputs={tool: cls for (tool, kind), cls in sorted(roots.items())
                 if kind == "output"})


def _kinds(tool: Tool) -> tuple[tuple[str, dict[str, Any] | None], ...]:
    return (("input", tool.input_schema), ("output", tool.output_schema))


def _closure_digests(schemas: dict[tuple[str, str], dict[str, Any]]) -> dict[Node, str]:
    """For every definition: sha256 of its name and every definition it reaches."""
    digests: dict[Node, str] = {}
    referenced: dict[bytes, frozenset[str]] = {}   # a definition's text -> names it refers to
    for (tool, kind), schema in schemas.items():
        defs = schema.get("$defs", {})
        texts = {name: dumps(body, indent=False) for name, body in defs.items()}
        for name, text in texts.items():
            if text not in referenced:
                referenced[text] = frozenset(defs_referenced(defs[name]))
        edges = {name: sorted(referenced[texts[name]] & defs.keys()) for name in defs}
        for name in defs:
            reached, todo = {name}, [name]
            while todo:
                for nxt in edges[todo.pop()]:
                    if nxt not in reached:
                        reached.add(nxt)
                        todo.append(nxt)
            digest = hashlib.sha256(name.encode() + b"\0")
            for member in sorted(reached):
                digest.update(member.encode() + b"\0" + texts[member] + b"\0")
            digests[tool, kind, name] = digest.hexdigest()
    return digests


def _def_names(closures: dict[Node, str], reserved: set[str]) -> dict[Node, str]:
    """The class name of every definition (see the module docstring)."""
    variants: dict[str, set[str]] = {}
    for (_, _, name), digest in closures.items():
        variants.setdefault(class_name(name), set()).add(digest)
    names = {}
    for node, digest in closures.items():
        base = class_name(node[2])
        unique = len(variants[base]) == 1 and base not in reserved
        names[node] = base if unique else f"{base}{digest[:6].upper()}"
    return names


def _rename(ref: str, names: dict[Node, str], root: str, tool: str, kind: str) -> str:
    if ref == "#":
        return DEFS + root
    if not ref.startswith(DEFS):
        return ref
    tokens = split_pointer(ref[1:])
    rest = ref[len(DEFS):].partition("/")[2]
    return DEFS + names[tool, kind, tokens[1]] + (f"/{rest}" if rest else "")


def _rewrite(node: Any, rename: Callable[[str], str]) -> Any:
    if isinstance(node, dict):
        return {k: (rename(v) if k == "$ref" and isinstance(v, str) else _rewrite(v, rename))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_rewrite(v, rename) for v in node]
    return node
