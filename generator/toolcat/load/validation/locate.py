"""Where in the document a validator error is, when the validator does not say.

openapi-spec-validator reports structural errors with a path from the root, but
its semantic checks (duplicate parameters, unresolved path parameters) carry
none, and errors from validating a schema inside the document carry a path
relative to that schema. This module turns each of those into a JSON pointer
from the root, or returns None when it cannot tell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from ...vocab.pointers import pointer, unescape_token

_DUPLICATE = re.compile(r"^Duplicate parameter '(?P<name>[^']*)'")
_UNRESOLVED = re.compile(r"^Path parameter '(?P<name>[^']*)' for '(?P<method>\w+)' operation "
                         r"in '(?P<path>[^']*)' was not resolved")
Path = tuple[str | int, ...]


def _nodes(document: Any) -> Iterator[tuple[Any, Path]]:
    """Every node with its path, in document order."""
    stack: list[tuple[Any, Path]] = [(document, ())]
    while stack:
        node, path = stack.pop()
        yield node, path
        if isinstance(node, dict):
            stack.extend((v, (*path, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(node))))


def _follow(node: Any, path: Sequence[str | int]) -> tuple[bool, Any]:
    for token in path:
        in_dict = isinstance(node, dict) and token in node
        in_list = isinstance(node, list) and isinstance(token, int) and token < len(node)
        if in_dict or in_list:
            node = node[token]
        else:
            return False, None
    return True, node


def locate(document: Any, message: str, path: Sequence[str | int], instance: Any) -> str | None:
    found, _ = _follow(document, path)
    if path and found:   # a path from the root (structural errors)
        return pointer(*path)
    match = _DUPLICATE.match(message)
    if match:
        return _duplicate_parameter(document, match["name"])
    match = _UNRESOLVED.match(message)
    if match:
        return pointer("paths", match["path"], match["method"])
    return _relative(document, path, instance)


def _duplicate_parameter(document: Any, name: str) -> str | None:
    for node, where in _nodes(document):
        if isinstance(node, dict) and isinstance(node.get("parameters"), list):
            seen = [_key(document, p) for p in node["parameters"]]
            if any(seen.count(key) > 1 for key in seen if key[0] == name):
                return pointer(*where, "parameters")
    return None


def _key(document: Any, param: Any) -> tuple[Any, Any]:
    """(name, in) of a parameter, through a local ``$ref``."""
    if isinstance(param, dict) and isinstance(param.get("$ref"), str):
        tokens = [unescape_token(t)
                  for t in param["$ref"].lstrip("#").split("/")[1:]]
        _, param = _follow(document, tokens)
    if not isinstance(param, dict):
        return (None, None)
    return (param.get("name"), param.get("in"))


def _relative(document: Any, path: Sequence[str | int], instance: Any) -> str | None:
    """A path relative to some schema: the first node from which it reaches ``instance``."""
    if not path:
        return _bad_default(document, instance)
    container = isinstance(instance, dict | list)
    for node, where in _nodes(document):
        found, value = _follow(node, path)
        if found and (value is instance if container else value == instance):
            return pointer(*where, *path)
    return None


_JSON_TYPES: dict[type, tuple[str, ...]] = {
    bool: ("boolean",), int: ("integer", "number"), float: ("number",), str: ("string",),
    list: ("array",), dict: ("object",), type(None): ("null",)}


def _bad_default(document: Any, value: Any) -> str | None:
    """The first ``default`` equal to ``value`` that its schema's type does not admit.

    The validator checks defaults against their schema but reports no path.
    """
    kinds = _JSON_TYPES.get(type(value), ())
    for node, where in _nodes(document):
        if not isinstance(node, dict) or "default" not in node or node["default"] != value:
            continue
        declared = node.get("type")
        types = [declared] if isinstance(declared, str) else declared
        if not isinstance(types, list):
            continue
        if value is None and node.get("nullable") is True:
            continue
        if not any(k in types for k in kinds):
            return pointer(*where, "default")
    return None
