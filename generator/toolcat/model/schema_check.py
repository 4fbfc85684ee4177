"""Every emitted schema is valid JSON Schema 2020-12, or the run stops where to fix it.

The rewriter copies what the spec says (a ``$ref``'s siblings in 3.0, keywords
the OpenAPI validator never looks at in 3.1), so ``{minimum: '1'}`` in a spec
would otherwise reach clients as a schema they cannot compile. Each tool's
``inputSchema`` and ``outputSchema`` is checked against the 2020-12 meta-schema
(jsonschema-rs: about 5 ms for GitHub's 1,223 schemas); a failure is located
back in the spec through ``Definitions.origins``: the pointer of the deepest
emitted node on the failing path that the rewriter recorded, followed by the rest
of the path (``/paths/~1a/post/requestBody/content/application~1json/schema/minimum``).

Every ``pattern`` and ``patternProperties`` key of a schema that passes is then compiled
as the ECMA-262 regular expression it is (``vocab/ecma.py``, the engine ``serve`` and
``verify`` validate with), so a pattern no engine can compile is a located error here,
never a crash at call time.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import orjson

from ..errors import Problem, ToolcatError
from ..normalise.defs import Definitions
from ..vocab.ecma import EcmaPatternError, compile_pattern
from ..vocab.keywords import SUBSCHEMA_LIST, SUBSCHEMA_MAP, SUBSCHEMA_ONE
from ..vocab.pointers import escape_token
from .types import Tool

# id of a top-level property's schema whose every pattern compiles -> it (held so that
# its id stays its own)
Good = dict[int, Any]


def check_schemas(tools: list[Tool], file: str, defs: Definitions) -> None:
    """Raise one located problem per tool schema that fails the meta-schema.

    Tools share their ``$defs`` entries (the same objects, see ``defs.py``), so each
    entry is checked once, not once per tool that carries it: GitHub's 1,246
    schemas take 95 ms instead of 135.
    """
    problems = []
    checked: set[int] = set()
    walked: set[int] = set()
    good: Good = {}
    for tool in tools:
        for kind, schema in (("inputSchema", tool.input_schema),
                             ("outputSchema", tool.output_schema)):
            if schema is None:
                continue
            error = _first_error(schema, checked)
            if error is not None:
                problems.append(_problem(tool, kind, schema, *error, file, defs))
                continue
            problems += [_pattern_problem(tool, kind, schema, path, pattern, str(exc), file,
                                          defs)
                         for path, pattern, exc in _schema_patterns(schema, walked, good)]
    if problems:
        raise ToolcatError(problems)


def _first_error(schema: dict[str, Any],
                 checked: set[int]) -> tuple[jsonschema_rs.ValidationError, list[Any]] | None:
    """The meta-schema's first complaint and its path in ``schema``, if any. A schema is
    valid where its parts are (the meta-schema holds every subschema to itself, wherever
    it is), so a ``$defs`` entry or a top-level property's schema found valid for one
    tool (``checked``) is not checked again for another; when a tool fails, its whole
    schema is checked again, for the same first complaint."""
    shared = schema.get("$defs")
    shared = shared if isinstance(shared, dict) else {}
    own = {k: v for k, v in schema.items() if k != "$defs" or not shared}
    props = own.get("properties")
    if isinstance(props, dict) and jsonschema_rs.meta.is_valid(
            {**own, "properties": {k: v for k, v in props.items() if id(v) not in checked}}):
        checked.update(id(v) for v in props.values())
    else:
        error = _error(own, [])
        if error is not None:
            return error
    for name, sub in shared.items():
        if id(sub) not in checked:
            error = _error(sub, ["$defs", name])
            if error is not None:
                return error
            checked.add(id(sub))
    return None


def _error(schema: Any, prefix: list[Any]
           ) -> tuple[jsonschema_rs.ValidationError, list[Any]] | None:
    """The meta-schema's first complaint about ``schema`` and its path, under ``prefix``."""
    try:
        jsonschema_rs.meta.validate(schema)
    except jsonschema_rs.ValidationError as exc:
        return exc, [*prefix, *exc.instance_path]
    return None


def _schema_patterns(schema: dict[str, Any], walked: set[int], good: Good
                     ) -> list[tuple[list[Any], str, EcmaPatternError]]:
    """``_bad_patterns`` of a tool schema; a shared ``$defs`` entry is walked once, and so
    is a top-level property's schema once found free of bad patterns (``good``): tools
    share them too (a ``$ref``'d parameter's, the members of a root taken from a def)."""
    shared = schema.get("$defs")
    shared = shared if isinstance(shared, dict) else {}
    own = {k: v for k, v in schema.items() if k != "$defs"}
    found = [] if _patternless(own) or _own_compiles(own, good) else _bad_patterns(own, [], 0)
    if shared and id(shared) not in walked:   # a mapping tools share: looked at once
        walked.add(id(shared))
        if _patternless(shared):
            walked.update(map(id, shared.values()))
    for name, sub in shared.items():
        if id(sub) not in walked:
            walked.add(id(sub))
            found += [] if _compiles_all(sub) else _bad_patterns(sub, ["$defs", name], 0)
    return found


def _patternless(node: Any) -> bool:
    """Whether no key of ``node`` at any depth starts with ``pattern`` (so it has no
    ``pattern`` or ``patternProperties``), told from its compact JSON, where every such
    key is written ``"pattern...`` (a text that merely contains it only costs the walk).
    Most tool schemas have none: serialising is cheaper than walking them."""
    try:
        return b'"pattern' not in orjson.dumps(node)
    except orjson.JSONEncodeError:   # an integer past 64 bits: walked instead
        return False


def _own_compiles(own: dict[str, Any], good: Good) -> bool:
    """``_compiles_all(own)``, each top-level property walked once per catalog."""
    props = own.get("properties")
    if not isinstance(props, dict):
        return _compiles_all(own)
    if not _compiles_all({k: v for k, v in own.items() if k != "properties"}):
        return False
    for sub in props.values():
        if id(sub) not in good:
            if not _compiles_all(sub, 1):
                return False
            good[id(sub)] = sub
    return True


def _compiles_all(root: Any, depth: int = 0) -> bool:
    """Whether every pattern ``_bad_patterns`` would look at compiles: the same walk
    (as deep, by the same keywords) without the paths, which only a bad pattern needs;
    it is rare, and building a path per subschema cost more than the walk. ``depth``:
    that of ``root`` in its tool's schema."""
    stack: list[tuple[Any, int]] = [(root, depth)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, dict) or depth > 500:
            continue
        if isinstance(node.get("pattern"), str) and not _compiles(node["pattern"]):
            return False
        names = node.get("patternProperties")
        if isinstance(names, dict) and not all(_compiles(str(k)) for k in names):
            return False
        depth += 1
        for key, value in node.items():
            if key in SUBSCHEMA_ONE:
                stack.append((value, depth))
            elif key in SUBSCHEMA_MAP and isinstance(value, dict):
                stack += [(sub, depth) for sub in value.values()]
            elif key in SUBSCHEMA_LIST and isinstance(value, list):
                stack += [(sub, depth) for sub in value]
    return True


def _compiles(text: str) -> bool:
    try:
        compile_pattern(text)
    except EcmaPatternError:
        return False
    return True


def _bad_patterns(node: Any, path: list[Any], depth: int
                  ) -> list[tuple[list[Any], str, EcmaPatternError]]:
    """(path, pattern, why) of every pattern under the schema ``node`` that is not an
    ECMA-262 regular expression; a pattern's path ends in ``pattern`` or in its
    ``patternProperties`` key."""
    if not isinstance(node, dict) or depth > 500:
        return []
    found: list[tuple[list[Any], str, EcmaPatternError]] = []
    texts = [(["pattern"], node.get("pattern"))] if isinstance(node.get("pattern"), str) else []
    names = node.get("patternProperties")
    texts += [(["patternProperties", k], k) for k in (names if isinstance(names, dict) else {})]
    for where, text in texts:
        try:
            compile_pattern(str(text))
        except EcmaPatternError as exc:
            found.append(([*path, *where], str(text), exc))
    for key, value in node.items():
        if key in SUBSCHEMA_ONE:
            found += _bad_patterns(value, [*path, key], depth + 1)
        elif key in SUBSCHEMA_MAP and isinstance(value, dict):
            for name, sub in value.items():
                found += _bad_patterns(sub, [*path, key, name], depth + 1)
        elif key in SUBSCHEMA_LIST and isinstance(value, list):
            for i, sub in enumerate(value):
                found += _bad_patterns(sub, [*path, key, i], depth + 1)
    return found


def _pattern_problem(tool: Tool, kind: str, schema: dict[str, Any], path: list[Any],
                     pattern: str, why: str, file: str, defs: Definitions) -> Problem:
    location, emitted = _located(tool, schema, path, defs)
    return Problem(file, location, f"tool '{tool.name}': its {kind} has the pattern "
                   f"{pattern!r} at {emitted}, which is {why}",
                   "write the pattern in ECMA-262 syntax (JSON Schema patterns are "
                   "ECMA-262 regular expressions), e.g. with an override or in the document")


def _located(tool: Tool, schema: dict[str, Any], path: list[Any],
             defs: Definitions) -> tuple[str, str]:
    """The spec pointer an emitted ``path`` comes from, and the emitted pointer."""
    where, rest = defs.origin(schema) or tool.binding.pointer, path
    node: Any = schema
    for i, token in enumerate(path):
        node = node[token]
        found = defs.origin(node)
        if found is not None:
            where, rest = found, path[i + 1:]
    location = where + "".join("/" + escape_token(str(t)) for t in rest)
    emitted = "".join("/" + escape_token(str(t)) for t in path) or "/"
    return location, emitted


def _problem(tool: Tool, kind: str, schema: dict[str, Any], exc: jsonschema_rs.ValidationError,
             path: list[Any], file: str, defs: Definitions) -> Problem:
    location, emitted = _located(tool, schema, path, defs)
    value = repr(exc.instance)
    value = value if len(value) <= 80 else value[:77] + "..."
    return Problem(file, location, f"tool '{tool.name}': its {kind} would not be valid JSON "
                   f"Schema 2020-12 at {emitted}: {value} {_reason(exc)}",
                   "correct the schema at that location: tools carry it as written")


def _reason(exc: jsonschema_rs.ValidationError) -> str:
    """The meta-schema's complaint, without the value it repeats."""
    message = str(exc.message)
    keyword = exc.schema_path[-1] if exc.schema_path else ""
    if keyword == "anyOf" and exc.schema_path[-2:-1] == ["type"]:
        return "is not a JSON type name or a list of them"
    return "fails the meta-schema's " + f"'{keyword}'" if keyword else message
