"""Every catalog toolcat writes passes its own ``catalog.schema.json``, in both modes.

Values in the binding come from the document; in ``validation: warn`` the OpenAPI
validator's verdict does not stop a document, so a value the model stage copied
without knowing it (issue 28 item 15: a security scheme ``type: apiKeyK``) would
otherwise reach a catalog that fails the schema toolcat ships. The whole catalog
is checked before anything is written; each failure is located at the operation
of the tool that holds it. The tool schemas' own 2020-12 meta-validation is left
out here: ``model/schema_check.py`` has done it, located more precisely.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema_rs

from ..errors import Problem, ToolcatError
from ..model.types import Catalog
from ..vocab.pointers import pointer
from .catalog import checked_data

SHOWN = 20
_META = "https://json-schema.org/draft/2020-12/schema"


@cache
def _validator() -> Any:
    schema = json.loads(files("toolcat").joinpath("schemas/catalog.schema.json").read_bytes())
    schema = copy.deepcopy(schema)
    for key in ("inputSchema", "outputSchema"):
        held = schema["$defs"]["tool"]["properties"][key]
        if held.pop("$ref", None) != _META:
            raise RuntimeError(f"catalog.schema.json: {key} no longer refers to {_META}")
    return jsonschema_rs.validator_for(schema)


@cache
def _source_validator() -> Any:
    """``catalog.schema.json``'s ``source`` member alone (its ``$defs`` beside it)."""
    schema = json.loads(files("toolcat").joinpath("schemas/catalog.schema.json").read_bytes())
    return jsonschema_rs.validator_for({"$defs": schema["$defs"], "type": "object",
                                        "properties": {"source": schema["properties"]["source"]},
                                        "required": ["source"]})


def check_source(catalog: Catalog, file: str) -> None:
    """``check_catalog`` of the one member the validator's verdict changes: the pipeline
    checks the whole catalog while the validator works (its verdict taken as ``valid``,
    0 problems), and this part once the verdict is in."""
    _refuse(catalog, file, _source_validator().iter_errors(
        {"source": checked_data(catalog)["source"]}))


def check_catalog(catalog: Catalog, file: str) -> None:
    """Refuse, located, a catalog that would fail ``catalog.schema.json``."""
    _refuse(catalog, file, _validator().iter_errors(checked_data(catalog)))


def _refuse(catalog: Catalog, file: str, errors: Any) -> None:
    problems = []
    for error in errors:
        path = list(error.instance_path)
        where = "/"
        if len(path) > 1 and path[0] == "tools" and isinstance(path[1], int):
            where = catalog.tools[path[1]].binding.pointer
        problems.append(Problem(file, where, "the catalog would fail toolcat's "
                                f"catalog.schema.json at {pointer(*path)}: "
                                f"{error.message[:300]}",
                                "correct the value the document gives at this operation; "
                                "if the document is right, report this to toolcat"))
        if len(problems) == SHOWN:
            break
    if problems:
        raise ToolcatError(problems)
