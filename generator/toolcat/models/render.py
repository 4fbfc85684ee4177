"""``models.py``: datamodel-code-generator's pydantic models plus a typed surface.

datamodel-code-generator (its Python API) writes the model classes from the
document built in ``document.py``; a template adds the typed surface (a
``Protocol`` with one method per tool, and ``TYPED_TOOLS`` for
``toolcat.runtime.typed.serve``); the module imports pydantic, never toolcat.
black formats the whole module once, with the same pinned mode as the package
module, after ruff has formatted it in that mode (``ruff_prepared``): black then
usually has nothing to change and runs one pass instead of two; it decides the bytes,
reading each repeated class-body statement once (``format_repeats_once``).
datamodel-code-generator runs with toolcat's equivalence-tested speedups of it
(``speedups.py``).

Every option is passed explicitly, and its own formatting is off
(``formatters=[]``): what it would format with depends on the nearest
``pyproject.toml``, while black here runs with the mode toolcat pins. Its header
(a timestamp and the input's file name) is cut off: the module's first line is
toolcat's own docstring.
"""

from __future__ import annotations

import gc
import keyword
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import pydantic

from ..errors import fail
from ..jsonio import dumps, loads
from ..model.types import Catalog
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..text.escape import Escaped
from ..text.python_format import black_format, format_repeats_once, ruff_prepared
from ..text.templates import environment
from ..vocab.ecma import python_spelling
from ..vocab.keywords import SUBSCHEMA_LIST, SUBSCHEMA_MAP, SUBSCHEMA_ONE
from .document import ModelsDocument, class_name, models_document
from .speedups import speedups

TEMPLATE = "models.py.jinja"
# JSON Schema 2020-12 only annotates with ``format``; datamodel-code-generator would
# check it (AwareDatetime, UUID, EmailStr, AnyUrl ...), so a model would reject what
# the inputSchema accepts, need packages toolcat does not install (email-validator),
# and rewrite values on the way out (AnyUrl adds a '/', Decimal dumps a string).
# Every format it knows stays the plain JSON type.
_STRING_FORMATS = (
    "binary", "byte", "date", "date-time", "date-time-local", "duration", "email",
    "hostname", "idn-email", "idn-hostname", "ipv4", "ipv4-network", "ipv6", "ipv6-network",
    "iri", "iri-reference", "json-pointer", "password", "path", "regex",
    "relative-json-pointer", "time", "time-delta", "time-local", "ulid", "uri",
    "uri-reference", "uri-template", "uuid", "uuid1", "uuid2", "uuid3", "uuid4", "uuid5",
    "decimal", "unix-time", "unixtime")
_NUMBER_FORMATS = ("decimal", "double", "float", "unix-time", "unixtime", "time-delta")
_INTEGER_FORMATS = ("int32", "int64", "unix-time", "unixtime", "time-delta")
TYPE_MAPPINGS = [*(f"string+{f}=string" for f in _STRING_FORMATS),
                 *(f"number+{f}=number" for f in _NUMBER_FORMATS),
                 *(f"integer+{f}=integer" for f in _INTEGER_FORMATS)]
ROOT_TITLE = "CatalogSchemas"   # the document's root: datamodel-code-generator makes it a class
_FUTURE = "from __future__ import annotations\n"


@dataclass(frozen=True)
class TypedTool:
    name: str
    method: str                 # the Protocol method: the tool name as an identifier
    input: str                  # input model class
    output: str | None          # output model class, when the tool has an outputSchema


def render_models(catalog: Catalog, templates: Path | None = None,
                  formatter: Callable[[str], str] | None = None,
                  regenerate: str = "", regenerate_from: str = "",
                  read: Read = read_bounded) -> bytes:
    """models.py's bytes; ``formatter``: black, or a memo of it (black's input decides);
    ``regenerate``: the command that regenerates it, run from ``regenerate_from``."""
    document = models_document(catalog)
    tools = typed_tools(catalog, document)
    text = environment(templates, read).get_template(TEMPLATE).render(
        name=catalog.name,
        regenerate=regenerate or f"toolcat generate {catalog.name}",
        regenerate_from=regenerate_from,
        spec=catalog.source.spec,
        protocol=class_name(catalog.name) + "Tools",
        # Code, not a value: datamodel-code-generator quotes what it puts into it.
        models=Escaped(model_classes(document.schema)),
        tools=tools,
    )
    with collector_paused():
        return format_repeats_once(ruff_prepared(text), formatter or black_format).encode()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for one step, then as it was.

    datamodel-code-generator and black build millions of objects that live until their
    step ends (black's syntax trees of a 3 MB module, the parser's models), and each of
    the collector's passes over the old generation walks them all: on Stripe 18 of
    black's 41 CPU seconds. Nothing is collected during the step; the cycles it leaves
    are collected by the collector's next pass after it (Stripe's render peaks near
    800 MB). What is written does not depend on when garbage is collected."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def typed_tools(catalog: Catalog, document: ModelsDocument) -> list[TypedTool]:
    tools: list[TypedTool] = []
    seen: dict[str, str] = {}
    for tool in catalog.tools:
        method = tool.name.replace("-", "_")
        if keyword.iskeyword(method) or method in ("serve",):
            method += "_"
        cls = document.inputs[tool.name]
        for key in (method, cls):
            if key in seen:
                # Tool names differ only in '-' against '_': one Python name for two tools.
                raise fail(catalog.source.spec, f"/tools/{tool.name}",
                           f"tools '{seen[key]}' and '{tool.name}' both become the "
                           f"Python name '{key}' in models.py",
                           "rename one of them in the override file")
            seen[key] = tool.name
        tools.append(TypedTool(tool.name, method, cls, document.outputs.get(tool.name)))
    return tools


def model_classes(schema: dict[str, Any]) -> str:
    """datamodel-code-generator's classes for ``schema``, without its header."""
    # Sorted keys: the models follow catalog.json's bytes, not the spec's key order.
    canonical = dumps({**_model_patterns(loads(dumps(schema))), "title": ROOT_TITLE}).decode()
    with warnings.catch_warnings():
        # Its warnings (an unknown format kept as a string, black becoming an optional
        # extra) describe choices made here on purpose; they would only be noise.
        warnings.simplefilter("ignore")
        with collector_paused():
            code = _generate(canonical)
    if not isinstance(code, str) or _FUTURE not in code:
        raise RuntimeError("datamodel-code-generator returned no single module")
    return code.partition(_FUTURE)[2]


def _model_patterns(node: Any) -> Any:
    """The document with every ``pattern`` as pydantic's engines can compile it.

    Patterns are ECMA-262 (the inputSchema, checked first by every server, holds them
    so); a model checks a value second, with Python's ``re`` or Rust's ``regex``. Named
    groups are respelled for them (``vocab/ecma.python_spelling``); a pattern either
    engine still cannot compile (``\\p{L}``, ``[^]``) is left out of the model, or
    importing ``models.py`` would fail. Changes the schema ``node`` in place."""
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("pattern"), str):
        spelled = python_spelling(node["pattern"])
        if _pydantic_compiles(spelled):
            node["pattern"] = spelled
        else:
            del node["pattern"]
    for key, value in node.items():
        if key in SUBSCHEMA_ONE:
            _model_patterns(value)
        elif key in SUBSCHEMA_MAP or key == "$defs":
            for sub in value.values() if isinstance(value, dict) else ():
                _model_patterns(sub)
        elif key in SUBSCHEMA_LIST:
            for sub in value if isinstance(value, list) else ():
                _model_patterns(sub)
    return node


_LOOKAROUND = re.compile(r"\(\?<?[=!]")


@lru_cache(maxsize=4096)
def _pydantic_compiles(pattern: str) -> bool:
    """Python's ``re`` compiles it, and Rust's ``regex`` too unless it looks around
    (datamodel-code-generator gives a model with a lookaround ``python-re``)."""
    try:
        re.compile(pattern)
    except re.error:
        return False
    if _LOOKAROUND.search(pattern):
        return True
    try:
        pydantic.TypeAdapter(Annotated[str, pydantic.Field(pattern=pattern)])
    except Exception:   # pydantic_core.SchemaError: the rust engine refused it
        return False
    return True


def _generate(canonical: str) -> object:
    # Imported here: 0.5 s, and only catalogs with models on need it.
    from datamodel_code_generator import generate  # noqa: PLC0415
    from datamodel_code_generator.enums import (  # noqa: PLC0415
        DataModelType,
        InputFileType,
        StrictTypes,
    )
    from datamodel_code_generator.format import PythonVersion  # noqa: PLC0415
    from datamodel_code_generator.parser import LiteralType  # noqa: PLC0415

    with speedups():
        return generate(
            canonical,
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.PydanticV2BaseModel,
            target_python_version=PythonVersion.PY_311,
            formatters=[],
            disable_timestamp=True,
            allow_remote_refs=False,
            use_annotated=True,
            field_constraints=True,
            use_union_operator=True,
            use_standard_collections=True,
            use_double_quotes=True,
            use_schema_description=True,
            use_field_description=True,
            enum_field_as_literal=LiteralType.All,
            type_mappings=TYPE_MAPPINGS,
            # JSON has no coercion: "1" is not an integer, 1 is not a string.
            strict_types=[StrictTypes.str, StrictTypes.int, StrictTypes.float, StrictTypes.bool],
        )
