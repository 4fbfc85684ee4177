"""Read an OpenAPI document the oracle's own way (no toolcat code).

YAML is read with PyYAML's safe loader minus the timestamp rule (dates stay text) and
with every mapping key as text (`200:` is the status "200"). External file `$ref`s are
left for openapi-core's resolver (jsonschema-path reads them relative to the root file),
except in Swagger 2.0 documents, which are inlined first so that the converter sees
one document (2.0 parameter objects cannot be converted through a reference).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in rules if tag != "tag:yaml.org,2002:timestamp"]
    for key, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _text_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {_key(k): _text_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text_keys(v) for v in value]
    return value


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def read_file(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except ValueError:
            pass
    return _text_keys(yaml.load(text, Loader=_Loader))


def load_document(path: Path) -> dict[str, Any]:
    doc = read_file(path)
    if str(doc.get("swagger", "")).startswith("2"):
        doc = _inline_external(doc, path.resolve(), path.resolve(), set())
    return dict(doc)


def _pointer(doc: Any, pointer: str) -> Any:
    for raw in [p for p in pointer.split("/") if p]:
        part = raw.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _inline_external(node: Any, here: Path, root: Path, seen: set[str]) -> Any:
    """Replace every reference into another file by its target (2.0 documents only)."""
    if isinstance(node, list):
        return [_inline_external(v, here, root, seen) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        file_part, _, pointer = ref.partition("#")
        target_file = (here.parent / file_part).resolve()
        key = f"{target_file}#{pointer}"
        if key in seen:
            raise ValueError(f"recursive external $ref {ref} in {here}")
        if not target_file.exists():
            return {"description": f"unresolvable {ref}: the oracle accepts anything here"}
        target = _pointer(read_file(target_file), pointer)
        return _inline_external(target, target_file, root, seen | {key})
    if isinstance(ref, str) and here != root:
        # a local reference inside another file: resolve it in that file
        target = _pointer(read_file(here), ref[1:])
        return _inline_external(target, here, root, seen | {f"{here}{ref}"})
    return {k: _inline_external(v, here, root, seen) for k, v in node.items()}
