"""openapi-spec-validator's semantic pass, stepping from each resolved node.

The library reaches every part of the document it checks (a path item, an
operation, a parameter, a subschema) as a new ``SchemaPath``, a tuple of parts from
the document's root, and resolves it again from the root through jsonschema-path's
caches: hashing and slicing that tuple and following every ``$ref`` on the way,
about 95,000 times on GitHub's description, most of the validator's time. Resolving
a path is a left fold over its parts (step into the node, follow its ``$ref`` chain
with the resolver found so far), so a child resolved from its parent's result finds
the same contents with a resolver that finds the same references.

``Node`` is such a child: it remembers what it resolved to and answers
``read_value``, ``in``, ``[key]``, ``len``, ``keys``, ``items``, iteration, ``/``,
``read_str`` and ``resolve`` as jsonschema-path's ``SchemaPath`` and
``SchemaAccessor`` do (the same exceptions where a step fails), so the library code
that receives it cannot tell it from a ``SchemaPath``; anything else it is asked is
answered by the ``SchemaPath`` of the same parts. The ``root-node`` speedup hands the
pass a Node for the root; ``schema_walk`` is openapi-spec-validator 0.9.0's
``SchemaValidator.__call__`` with the keyword questions put to the schema's value
and the steps taken by ``Node``; a leaf subschema (a plain mapping with none of the
keywords the walk reads) is only added to the visited ids, which is all its walk does
(``_leaf``).

One difference is left, at Python's recursion limit: a step through the library took
a few more stack frames than a Node's, so on a chain of about 1,000 nested schemas
the unpatched walk overflows a few schemas sooner. The patched run then finds the
same problems in the same order, a few more, and the same closing note
(``test_past_the_recursion_limit_the_fast_run_finds_at_least_as_much``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from referencing._core import Resolved

_MISSING = object()
_NOTSET = object()
_RESOLVED: Any = Resolved   # attrs' generic class: mypy does not see its fields

class Node:
    """A subschema reached from ``parent`` by ``key``, resolved once, on first use."""

    __slots__ = ("_contents", "_key", "_origin", "_parent", "_resolver")

    def __init__(self, origin: Any, parent: Node | None, key: Any) -> None:
        self._origin = origin       # the SchemaPath the walk was entered with
        self._parent = parent       # None: this node is the origin itself
        self._key = key
        self._resolver: Any = None  # with _contents: what it resolved to, once known
        self._contents: Any = None

    @classmethod
    def entered(cls, path: Any) -> Node:
        return cls(path, None, None)

    @property
    def parts(self) -> tuple[Any, ...]:
        keys: list[Any] = []
        node: Node | None = self
        while node is not None and node._parent is not None:   # a loop: paths run deep
            keys.append(node._key)
            node = node._parent
        return (*self._origin.parts, *reversed(keys))

    def _value(self) -> Any:
        """The contents this node resolves to (with ``_resolver``, what referencing's
        ``Resolved`` would hold; kept as two fields: most steps follow no reference)."""
        if self._resolver is None:
            parent = self._parent
            if parent is None:
                found = self._origin.accessor.get_resolved(self._origin.parts)
            else:
                contents, key = parent._value(), self._key
                node = contents.get(key, _MISSING) if type(contents) is dict else _MISSING
                if node is _MISSING or (isinstance(node, dict) and "$ref" in node):
                    found = _step(contents, key, parent._resolver)
                else:   # a plain step: no reference to follow
                    self._contents, self._resolver = node, parent._resolver
                    return node
            self._contents, self._resolver = found.contents, found.resolver
        return self._contents

    def child(self, key: Any) -> Node:
        return Node(self._origin, self, key)

    def read_value(self) -> Any:
        return self._value()

    def __contains__(self, key: Any) -> bool:
        try:
            node = self._value()
        except (KeyError, IndexError, TypeError):
            return False
        if isinstance(node, dict):
            return key in node
        if isinstance(node, list):
            return isinstance(key, int) and 0 <= key < len(node)
        return False

    def keys(self) -> Any:
        node = self._value()
        if isinstance(node, dict):
            return node.keys()
        if isinstance(node, list):
            return range(len(node))
        parts = self.parts
        if parts:
            raise KeyError(parts[-1])
        raise KeyError

    def __iter__(self) -> Iterator[Node]:
        for key in self.keys():
            yield self.child(key)

    def items(self) -> Iterator[tuple[Any, Node]]:
        for key in self.keys():
            yield key, self.child(key)

    def __len__(self) -> int:
        node = self._value()
        if isinstance(node, (dict, list)):
            return len(node)
        parts = self.parts
        if parts:
            raise KeyError(parts[-1])
        raise KeyError

    def __getitem__(self, key: Any) -> Any:
        # pathable's AccessorPath.__getitem__: a container is a path, a leaf its value
        # (not followed when it is a reference).
        from jsonschema_path.nodes import SchemaNode  # noqa: PLC0415

        child = SchemaNode._get_subnode(self._value(), key)
        if isinstance(child, (Mapping, list)):
            return self.child(key)
        return child

    def read_str(self, default: Any = _NOTSET) -> Any:
        try:
            value = self.read_value()
        except KeyError:
            if default is not _NOTSET:
                return default
            raise
        if not isinstance(value, str):
            raise TypeError(f"Expected a string value, got {type(value)}")
        return value

    def __truediv__(self, key: Any) -> Any:
        if _parsed(self._origin, key) == (key,):
            return self.child(key)
        return self.as_schema_path() / key   # a key the path syntax splits or drops

    @contextmanager
    def resolve(self) -> Iterator[Any]:
        yield _RESOLVED(self._value(), self._resolver)

    def as_schema_path(self) -> Any:
        return self._origin._clone_with_parts(self.parts)

    def _clone_with_parts(self, parts: tuple[Any, ...]) -> Any:
        return self._origin._clone_with_parts(parts)

    def __getattr__(self, name: str) -> Any:
        # Whatever else the library asks, the SchemaPath of the same parts answers.
        return getattr(self.as_schema_path(), name)


# What the walk reads of a schema reached with ``meta_checked``: a mapping with none of
# these keys is a leaf, whose whole walk is to be added to the visited ids.
_WALKED = frozenset({"$ref", "allOf", "anyOf", "oneOf", "not", "items", "properties",
                     "required", "default"})


def _leaf(visited: Any, contents: Any, key: Any) -> bool:
    """Whether ``contents[key]`` is a leaf subschema; if so, marked visited here.

    The walk of such a schema (a plain mapping, no reference to follow) reads its
    value, skips the metaschema check it is called without, adds its id to the
    visited ones if absent, finds none of the keywords it would step into or read, and
    yields nothing: adding the id is all it does, so the leaf gets no ``Node``, no
    call and no generator (31,000 of GitHub's 39,000 subschemas visited).
    """
    kind = type(contents)
    if kind is dict:
        raw = contents.get(key)
    elif kind is list and type(key) is int and 0 <= key < len(contents):
        raw = contents[key]
    else:
        return False
    if type(raw) is not dict or not _WALKED.isdisjoint(raw):
        return False
    if id(raw) not in visited:
        visited.append(id(raw))
    return True


# The subschemas the walk steps into after allOf's, in its order.
_MEMBERS = ("anyOf", "oneOf", "not", "items", "properties")
_SINGLE = frozenset({"not", "items"})


def _never(visited: Any, contents: Any, key: Any) -> bool:
    return False


def _step(contents: Any, key: Any, resolver: Any) -> Any:
    from jsonschema_path.nodes import SchemaNode  # noqa: PLC0415

    return SchemaNode._resolve_node(SchemaNode._get_subnode(contents, key), resolver)


def _parsed(path: Any, key: Any) -> tuple[Any, ...]:
    if type(key) is str and key and key != "." and "#" not in key:
        return (key,)
    return tuple(type(path)._parse_args([key], sep=path.separator))


def schema_walk(validation_error: Any, extra_parameters_error: Any) -> Callable[..., Any]:
    """openapi-spec-validator 0.9.0's ``SchemaValidator.__call__``, keyword questions
    put to the schema's value, steps taken by ``Node`` (see the module's docstring)."""

    def __call__(self: Any, schema: Any, require_properties: bool = True,
                 meta_checked: bool = False) -> Iterator[Any]:
        if type(schema) is not Node:
            schema = Node.entered(schema)
        schema_value = schema._value()
        if type(schema_value) is not dict and not isinstance(schema_value, Mapping | bool):
            yield validation_error(f"{schema_value!r} is not of type 'object', 'boolean'")
            return
        keys: Any = schema_value if isinstance(schema_value, dict) else ()
        schema_id = id(schema_value)
        if not meta_checked and schema_id not in self.meta_checked_schema_ids:
            self.meta_checked_schema_ids.append(schema_id)
            err = self._validate_schema_meta(schema, schema_value)
            if err is not None:
                yield err
                return
        if schema_id in self.visited_schema_ids:
            return
        self.visited_schema_ids.append(schema_id)

        nested_properties = []
        if "allOf" in keys:
            for inner_schema in schema.child("allOf"):
                yield from self(inner_schema, require_properties=False, meta_checked=True)
                nested_properties += list(self._collect_properties(inner_schema))
        # A leaf subschema is only marked visited (``_leaf``), unless a subclass walks
        # its own way. The members are walked in this frame, not a helper's: each frame
        # a level adds brings Python's recursion limit nearer.
        leaf = _leaf if type(self).__call__ is __call__ else _never
        visited = self.visited_schema_ids
        for keyword in _MEMBERS:
            if keyword not in keys:
                continue
            if keyword in _SINGLE:   # not, items: the subschema itself
                members, contents, keys_of = schema, schema_value, (keyword,)
            else:                    # anyOf, oneOf, properties: each member
                members = schema.child(keyword)
                contents = members._value()
                keys_of = members.keys()
            for key in keys_of:
                if not leaf(visited, contents, key):
                    yield from self(members.child(key), require_properties=False,
                                    meta_checked=True)

        required = ("required" in keys and schema.child("required").read_value()) or []
        properties = ("properties" in keys and schema.child("properties").keys()) or []
        if "allOf" in keys:
            extra_properties = list(set(required) - set(properties) - set(nested_properties))
        else:
            extra_properties = []
        if extra_properties and require_properties:
            yield extra_parameters_error(
                f"Required list has not defined properties: {extra_properties}")

        if "default" in keys:
            default_value = schema.child("default").read_value()
            nullable_value = False
            if "nullable" in keys:
                nullable_value = schema.child("nullable").read_value()
            if default_value is not None or nullable_value is not True:
                yield from self.default_validator(schema, default_value)

    return __call__
