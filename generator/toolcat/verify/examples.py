"""The arguments ``--call-readonly`` sends: the user's, the document's, or generated.

Generated arguments are valid but meaningless (an id of 1 mostly answers 404), so
a call takes, in order:

1. the user's example for the tool, from ``--examples FILE`` (YAML or JSON: a
   mapping of catalog tool name to an arguments object), checked on load against
   the tool's inputSchema (a wrong example is a located error, never sent);
2. the document's own examples: each required argument whose schema has
   ``examples`` (OpenAPI's ``example`` becomes ``examples``) takes the first,
   the rest are generated, and the whole must validate;
3. generated arguments (``instances.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Problem, ToolcatError, fail, nearest
from ..parse.reader import read_document
from ..vocab.pointers import escape_token
from .instances import Unsatisfiable, instance, invalid
from .resolution import deref

Examples = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Arguments:
    values: dict[str, Any]
    source: str          # "your examples", "the document's examples", "generated"


def load_examples(path: Path, tools: dict[str, dict[str, Any]]) -> Examples:
    """``tools``: catalog tool name -> tool. Every problem in the file, located."""
    if not path.is_file():
        raise fail(str(path), "", "examples file not found", "give a YAML or JSON file")
    data, _ = read_document(path)
    if not isinstance(data, dict):
        raise fail(str(path), "", "not a mapping of tool name to arguments",
                   "write  broadcast_get_channel: {channelId: 7}")
    problems: list[Problem] = []
    for name, arguments in sorted(data.items()):
        where = f"/{escape_token(str(name))}"
        if name not in tools:
            problems.append(Problem(str(path), where, f"the catalog has no tool '{name}'"
                                    f"{nearest(str(name), tools)}", "name a catalog tool"))
        elif not isinstance(arguments, dict):
            problems.append(Problem(str(path), where, "not an arguments object",
                                    "write the arguments as a mapping"))
        else:
            problems += [Problem(str(path), where, f"does not fit the inputSchema: {why}",
                                 "fix the example, or drop it to use generated arguments")
                         for why in invalid(tools[name]["inputSchema"], arguments)]
    if problems:
        raise ToolcatError(problems)
    return {str(k): v for k, v in data.items()}


def arguments_for(tool: dict[str, Any], examples: Examples) -> Arguments:
    """The arguments to call ``tool`` with; Unsatisfiable when there are none."""
    if tool["name"] in examples:
        return Arguments(examples[tool["name"]], "your examples")
    schema = tool["inputSchema"]
    documented = _documented(schema)
    if documented:
        try:
            base = instance(schema)
        except Unsatisfiable:
            base = {}
        candidate = {**base, **documented}
        if not invalid(schema, candidate):
            return Arguments(candidate, "the document's examples")
    return Arguments(instance(schema), "generated")


def _documented(schema: dict[str, Any]) -> dict[str, Any]:
    """The first documented example of each required argument that has one."""
    properties = schema.get("properties") or {}
    found = {}
    for name in schema.get("required") or []:
        prop = deref(properties.get(name), schema)
        examples = prop.get("examples") if isinstance(prop, dict) else None
        if isinstance(examples, list) and examples:
            found[name] = examples[0]
    return found
