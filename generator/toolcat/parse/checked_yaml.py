"""Hand-written YAML files (config, overrides), read into strict pydantic models.

Every mistake is reported with the file, the line and, for a misspelled key, the
nearest valid name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import pydantic
import yaml

from ..errors import Problem, ToolcatError, nearest
from .inputs import Read
from .limits import read_bounded
from .lines import Lines, line_of
from .reader import parse_bytes

Model = TypeVar("Model", bound=pydantic.BaseModel)


def _lines(node: yaml.Node, path: tuple[str | int, ...], out: Lines) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            out[(*path, str(key.value))] = key.start_mark.line + 1
            _lines(value, (*path, str(key.value)), out)
            out[(*path, str(key.value))] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _lines(item, (*path, i), out)


def read_yaml(path: Path, read: Read = read_bounded) -> tuple[Any, Lines]:
    """The data of a hand-written YAML file and the line of every key and item
    (``read``: the run's ``Inputs.read``, parse/inputs.py)."""
    raw = read(path)
    data = parse_bytes(raw, path.with_suffix(".yaml"))
    lines: Lines = {}
    root = yaml.compose(raw.decode("utf-8", "replace"), Loader=yaml.SafeLoader)
    if root is not None:
        _lines(root, (), lines)
    return data, lines


def parse_model(model: type[Model], data: Any, lines: Lines, file: str) -> Model:
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = [_problem(model, err, lines, file) for err in exc.errors()]
        raise ToolcatError(problems) from None


def _problem(model: type[pydantic.BaseModel], err: Any, lines: Lines, file: str) -> Problem:
    loc = tuple(err["loc"])
    where = line_of(lines, loc)
    dotted = ".".join(str(p) for p in loc) or "(top level)"
    if err["type"] == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        hint = nearest(str(loc[-1]), allowed)
        return Problem(file, where, f"unknown key '{dotted}'{hint}",
                       f"valid keys here: {', '.join(sorted(allowed))}")
    return Problem(file, where, f"{dotted}: {err['msg']}", "correct the value")


def _allowed_keys(model: type[pydantic.BaseModel], loc: tuple[Any, ...]) -> set[str]:
    current: Any = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        field = getattr(current, "model_fields", {}).get(str(part))
        if field is None:
            # dict[str, Model]: the key is a user name; keep the model
            continue
        current = _inner_model(field.annotation)
    fields = getattr(current, "model_fields", {}) if current is not None else {}
    return {f.alias or name for name, f in fields.items()}


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
