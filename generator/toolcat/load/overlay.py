"""OpenAPI Overlays: a vendor's document taken as it is, its fixes kept beside it.

An overlay file (Overlay Specification 1.0, 1.1 with ``copy``, 1.2) is an ordered
list of actions; each selects nodes of the document with an RFC 9535 JSONPath
``target`` (evaluated by ``jsonpath-rfc9535``) and then

- ``remove: true``: takes every selected node out of the object or array holding it;
- ``update: VALUE``: merges VALUE into every selected object (objects recursively,
  arrays concatenated, anything else replaced) or appends it to every selected array;
- ``copy: PATH`` (1.1): like ``update``, with the value of the one node PATH selects.

An action of a 1.2 overlay may be a reference (``$ref: '#/components/actions/NAME'``
with its own ``target``) to a reusable action, whose ``fields`` say what it does.

Overlays apply to the bundled document, in the order given, before anything else
reads it (validation, Swagger 2.0 conversion, tools). Like overrides they are
checked, not trusted: an action whose target selects nothing is an error naming
the overlay file, the action's line and its target, so a vendor release that moves
a node cannot silently un-apply a fix. Every place an action wrote is remembered
(``Applied.written``), so a later error about the patched document can name the
action that produced that part of it (``Applied.relocate``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Problem, ToolcatError, fail
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..parse.lines import Lines, line_of
from ..vocab.pointers import escape_token, pointer

VERSIONS = ("1.0.", "1.1.", "1.2.")
ACTION_KEYS = frozenset({"target", "description", "update", "remove", "copy"})
REUSABLE = "#/components/actions/"


@dataclass(frozen=True)
class Written:
    """One place of the patched document an overlay action wrote (a JSON pointer)."""

    pointer: str
    file: str
    where: str          # "line N" of the action in the overlay file
    target: str


@dataclass
class Applied:
    """What the overlays did: every place they wrote, and every array entry they
    removed (the array's pointer and the entry's index then), latest last."""

    written: list[Written] = field(default_factory=list)
    removed: list[tuple[str, int]] = field(default_factory=list)

    def relocate(self, error: ToolcatError, spec: str) -> ToolcatError:
        """``error`` with each problem about the spec that lies in a part an overlay
        wrote located in that overlay action instead (the original file holds no such
        text); problems about untouched parts keep their place in the original file
        (an index into an array an overlay removed entries from is the original one)."""
        if not self.written and not self.removed:
            return error
        return ToolcatError(self._problem(p, spec) for p in error.problems)

    def original(self, location: str) -> str:
        """The pointer into the original document of a place in the patched one."""
        for array, index in reversed(self.removed):
            prefix = array + "/"
            if location.startswith(prefix):
                head, sep, tail = location[len(prefix):].partition("/")
                if head.isdigit() and int(head) >= index:
                    location = f"{prefix}{int(head) + 1}{sep}{tail}"
        return location

    def _problem(self, problem: Problem, spec: str) -> Problem:
        if problem.file != spec or not problem.location.startswith("/"):
            return problem
        for entry in reversed(self.written):
            ptr = entry.pointer
            if problem.location == ptr or problem.location.startswith(ptr.rstrip("/") + "/"):
                return Problem(entry.file, entry.where,
                               f"{problem.message} (at {problem.location} of {spec}, as "
                               f"patched by the action with target {entry.target})",
                               problem.fix)
        return Problem(problem.file, self.original(problem.location), problem.message,
                       problem.fix)


def apply_overlays(document: Any, overlays: tuple[Path, ...],
                   read: Read = read_bounded) -> Applied:
    """Apply every overlay file to ``document`` in place, in order (each read through
    ``read``, the run's ``Inputs.read``). The YAML reader with pydantic, and the JSONPath
    engine, are imported only for a target that has overlays (tests/check/
    test_generate_imports.py)."""
    applied = Applied()
    if not overlays:
        return applied
    from ..parse.checked_yaml import read_yaml  # noqa: PLC0415

    for path in overlays:
        data, lines = read_yaml(path, read)
        for index, action in enumerate(_actions(data, lines, str(path))):
            _apply(document, action, str(path), line_of(lines, ("actions", index)), applied)
    return applied


def _actions(data: Any, lines: Lines, file: str) -> list[dict[str, Any]]:
    if not isinstance(data, dict) or "overlay" not in data:
        raise fail(file, "line 1", "not an overlay document: no 'overlay' field",
                   "start it with `overlay: 1.1.0`, `info:` and `actions:`")
    version = str(data["overlay"])
    if not version.startswith(VERSIONS):
        raise fail(file, line_of(lines, ("overlay",)),
                   f"unsupported Overlay Specification version {version!r}",
                   "toolcat applies overlays 1.0.x, 1.1.x and 1.2.x")
    actions = data.get("actions")
    if not isinstance(actions, list) or not actions:
        raise fail(file, line_of(lines, ("actions",)), "'actions' must be a non-empty list",
                   "list the actions to apply")
    resolved = []
    for index, given in enumerate(actions):
        where = line_of(lines, ("actions", index))
        action = (_reusable(data, given, version, file, where)
                  if isinstance(given, dict) and "$ref" in given else given)
        _check_action(action, version, file, where)
        resolved.append(action)
    return resolved


def _reusable(data: dict[str, Any], ref: dict[str, Any], version: str, file: str,
              where: str) -> dict[str, Any]:
    """The action a 1.2 reference stands for: its target, the reusable action's fields."""
    name = str(ref["$ref"]).removeprefix(REUSABLE)
    actions = (data.get("components") or {}).get("actions") or {}
    reusable = actions.get(name) if str(ref["$ref"]).startswith(REUSABLE) else None
    if not version.startswith("1.2.") or not isinstance(reusable, dict) or not isinstance(
            reusable.get("fields"), dict):
        raise fail(file, where, f"$ref {ref['$ref']!r} names no reusable action of this "
                   "overlay", "reusable actions are Overlay 1.2: define it under "
                   "components.actions.NAME.fields and refer to it as #/components/actions/NAME")
    extra = sorted(k for k in set(ref) - {"$ref", "target", "description"}
                   if not k.startswith("x-"))
    if extra:
        raise fail(file, where, f"a reference to a reusable action has no field '{extra[0]}'",
                   "put what it does in the reusable action's fields")
    fields = {k: v for k, v in reusable["fields"].items() if k != "description"}
    return {**fields, "target": ref.get("target")}


def _check_action(action: Any, version: str, file: str, where: str) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("target"), str):
        raise fail(file, where, "an action needs a 'target' JSONPath string",
                   "add target: $.paths['/some/path'] (RFC 9535)")
    unknown = sorted(k for k in action if k not in ACTION_KEYS and not k.startswith("x-"))
    if unknown:
        raise fail(file, where, f"unknown action field '{unknown[0]}'",
                   "an action has target, description, update, remove, copy (and x-*)")
    if "copy" in action and version.startswith("1.0."):
        raise fail(file, where, "'copy' is an Overlay 1.1 action; this file says "
                   f"overlay: {version}", "declare overlay: 1.1.0")
    modifiers = [k for k in ("update", "remove", "copy") if k in action]
    if not modifiers or (action.get("remove") is False and modifiers == ["remove"]):
        raise fail(file, where, f"the action with target {action['target']} changes nothing",
                   "give it update:, copy: or remove: true")


def _select(document: Any, query: str, file: str, where: str) -> list[Any]:
    import jsonpath_rfc9535 as jsonpath  # noqa: PLC0415
    from jsonpath_rfc9535.exceptions import JSONPathError  # noqa: PLC0415

    try:
        return list(jsonpath.finditer(query, document))
    except JSONPathError as exc:
        raise fail(file, where, f"{query!r} is not an RFC 9535 JSONPath: {exc}",
                   "write the query the RFC 9535 way, e.g. $.paths['/pets'].get") from None


def _apply(document: Any, action: dict[str, Any], file: str, where: str,
           applied: Applied) -> None:
    target = action["target"]
    nodes = _select(document, target, file, where)
    if not nodes:
        raise fail(file, where, f"the action's target {target} matches nothing in the "
                   "document", "the document changed under this fix: update the target, or "
                   "remove the action if the document no longer needs it")
    if action.get("remove") is True:
        if any(not node.location for node in nodes):
            raise fail(file, where, f"the action's target {target} selects the document "
                       "itself, which nothing holds to remove it from",
                       "target the members to remove")
        # Deepest and last first, so removing one node never moves another selected one.
        for node in sorted(nodes, key=lambda n: n.location, reverse=True):
            if _remove(document, list(node.location)):
                applied.removed.append((_pointer(node.location[:-1]), node.location[-1]))
        return
    if "update" in action:
        value = action["update"]
    else:
        sources = _select(document, str(action["copy"]), file, where)
        if len(sources) != 1:
            raise fail(file, where, f"copy: {action['copy']} selects {len(sources)} nodes "
                       "of the document", "a copy source must select exactly one node")
        value = sources[0].value
    for node in nodes:
        _update(node.value, value, node.location, file, where, target, applied)


def _remove(document: Any, location: list[Any]) -> bool:
    """Take the node at ``location`` out of its holder; whether that was an array."""
    parent = document
    for step in location[:-1]:
        parent = parent[step]
    del parent[location[-1]]
    return isinstance(parent, list)


def _update(node: Any, value: Any, location: Any, file: str, where: str, target: str,
            applied: Applied) -> None:
    ptr = _pointer(location)
    if isinstance(node, list):
        node.append(copy.deepcopy(value))
        applied.written.append(Written(f"{ptr}/{len(node) - 1}", file, where, target))
    elif isinstance(node, dict) and isinstance(value, dict):
        _merge(node, value, ptr, Written(ptr, file, where, target), applied)
    else:
        kind = "an object" if isinstance(node, dict) else f"a {type(node).__name__} value"
        raise fail(file, where, f"the action's target {target} selects {kind} at {ptr or '/'}"
                   f" that an update of {type(value).__name__} cannot merge into",
                   "target the object that holds the value and update it with "
                   "{name: new value}")


def _merge(node: dict[str, Any], value: dict[str, Any], ptr: str, entry: Written,
           applied: Applied) -> None:
    for key, new in value.items():
        here = f"{ptr}/{escape_token(str(key))}"
        old = node.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            _merge(old, new, here, entry, applied)
            continue
        if isinstance(old, list) and isinstance(new, list):
            start = len(old)
            old.extend(copy.deepcopy(new))
            applied.written.extend(Written(f"{here}/{i}", entry.file, entry.where,
                                           entry.target) for i in range(start, len(old)))
            continue
        node[key] = copy.deepcopy(new)
        applied.written.append(Written(here, entry.file, entry.where, entry.target))


def _pointer(location: Any) -> str:
    return pointer(*location)
