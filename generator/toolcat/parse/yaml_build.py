"""Turn a composed YAML node tree into plain data: the stock constructor's result, faster.

PyYAML's constructor is generic: per node a tag lookup, a memo entry and, for a
sequence, a generator. This walks the three node kinds directly and knows only
the tags a spec uses: ``str`` (returned as is), the scalar tags whose stock
constructors just return a value (called as they are), ``seq`` and ``map``
(merge keys flattened by the loader's own ``flatten_mapping``, keys kept as the
text written, as ``yaml_reader.SpecLoader.construct_mapping`` does). Aliases give
the object already built for their node, as in PyYAML.

Anything else raises, and the caller hands the document to the stock
constructor, so unusual input keeps PyYAML's result or error word for word: a
set/omap/pairs/unknown tag, a tag on the wrong node kind, a non-scalar key, an
alias inside its own anchor, nesting deeper than ``_DEEPEST``, or any error
from a constructor or from ``flatten_mapping``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

_TAG = "tag:yaml.org,2002:"
_STR, _SEQ, _MAP = _TAG + "str", _TAG + "seq", _TAG + "map"
_SCALARS = frozenset(_TAG + t for t in ("null", "bool", "int", "float", "binary", "timestamp"))
# The stock constructor spends up to four Python frames per level where this
# spends one: past this depth it may run out of stack where this would not, so
# it decides.
_DEEPEST = 100
_BUSY = object()


class Unsupported(Exception):
    """The stock constructor must decide this document."""


def build(loader: Any, root: Node, before: Callable[[Any, MappingNode], None]) -> Any:
    """The value ``loader.construct_document(root)`` returns, or an exception;
    ``before(loader, node)`` sees each mapping before its merge keys are flattened."""
    built: dict[Node, Any] = {}
    constructors = loader.yaml_constructors
    flatten = loader.flatten_mapping

    def value(node: Node, depth: int) -> Any:
        kind = node.__class__
        if kind is ScalarNode:
            if node.tag == _STR:
                return node.value
            if node.tag in _SCALARS:
                return constructors[node.tag](loader, node)
            raise Unsupported(node.tag)
        data = built.get(node)
        if data is not None:
            if data is _BUSY:
                raise Unsupported("an alias inside its own anchor")
            return data
        if depth > _DEEPEST:
            raise Unsupported("deep nesting")
        built[node] = _BUSY
        if isinstance(node, MappingNode) and node.tag == _MAP:
            before(loader, node)
            flatten(node)
            data = {}
            for key, item in node.value:
                if key.__class__ is not ScalarNode:
                    raise Unsupported("a non-scalar key")
                data[key.value] = value(item, depth + 1)
        elif kind is SequenceNode and node.tag == _SEQ:
            data = [value(item, depth + 1) for item in node.value]
        else:
            raise Unsupported(node.tag)
        built[node] = data
        return data

    return value(root, 0)
