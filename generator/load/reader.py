"""Read one JSON or YAML file into plain data.

JSON is read as JSON (orjson: fast, and it accepts escapes PyYAML rejects). YAML is
read safely with two YAML 1.1 traps disarmed: mapping keys are kept as the text
written (``200:`` stays ``"200"``, ``on:`` stays ``"on"``) and timestamps stay
strings (``2024-01-01`` is not turned into a ``date`` that JSON cannot hold).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import yaml

from generator.errors import fail

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SpecLoader(_Base):  # type: ignore[misc]
    """Safe loader with string keys and string timestamps."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
        self.flatten_mapping(node)
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
            out[str(key_node.value)] = self.construct_object(value_node, deep=deep)
        return out


_SpecLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()
}
_SpecLoader.add_constructor(
    "tag:yaml.org,2002:map",
    lambda loader, node: loader.construct_mapping(node, deep=True),
)


def is_json_path(path: Path) -> bool:
    return path.suffix.lower() == ".json"


def parse_bytes(data: bytes, path: Path) -> Any:
    """Parse JSON or YAML bytes; errors name the file and the line."""
    if is_json_path(path) or data.lstrip()[:1] in (b"{", b"["):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            if is_json_path(path):
                raise fail(str(path), f"line {exc.lineno} column {exc.colno}",
                           f"invalid JSON: {exc.msg}", "fix the syntax at that line") from None
    try:
        return yaml.load(data, Loader=_SpecLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise fail(str(path), where, f"invalid YAML: {problem}",
                   "fix the syntax at that line") from None


def read_document(path: Path) -> tuple[Any, bytes]:
    """Return (data, raw bytes) of a spec file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise fail(str(path), "", f"cannot read file: {exc.strerror}",
                   "check the path in the config or on the command line") from None
    return parse_bytes(data, path), data
