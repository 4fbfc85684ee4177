"""Validate the bundled document with openapi-spec-validator, offline.

The validator fetches remote ``$ref``s by default; here every URL scheme is
denied, so a reference that escaped bundling fails instead of touching the
network. Its errors are turned into problems with a JSON pointer.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

from generator.errors import Problem, ToolcatError, pointer

MAX_REPORTED = 20


def validator_id() -> str:
    """Name and version of the validator: part of what a validation verdict depends on."""
    return f"openapi-spec-validator=={version('openapi-spec-validator')}"


def _deny(uri: str) -> Any:
    raise ToolcatError([Problem(uri, "", "reference not resolvable offline",
                                "make every $ref local or a relative file path")])


def _errors(document: dict[str, Any]) -> Iterator[Any]:
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.shortcuts import get_validator_cls

    handlers = {"file": _deny, "http": _deny, "https": _deny}
    path = SchemaPath.from_dict(document, handlers=handlers)
    yield from get_validator_cls(document)(path).iter_errors()


def validate_document(document: dict[str, Any], file: str) -> None:
    """Raise ToolcatError listing what the validator found (at most MAX_REPORTED)."""
    if not any(k in document for k in ("openapi", "swagger")):
        raise ToolcatError([Problem(file, "", "not an OpenAPI document: no 'openapi' or "
                                    "'swagger' field", "point toolcat at an OpenAPI file")])
    problems: list[Problem] = []
    try:
        for err in _errors(document):
            problems.append(_problem(err, file))
            if len(problems) >= MAX_REPORTED:
                break
    except ToolcatError:
        raise
    except Exception as exc:  # the validator raises on dangling refs instead of yielding
        problems.append(_unresolvable(exc, file))
    if problems:
        raise ToolcatError(problems)


def _problem(err: Any, file: str) -> Problem:
    path = list(getattr(err, "absolute_path", []) or [])
    where = pointer(*path) if path else "/"
    message = str(getattr(err, "message", err)).splitlines()[0]
    if len(message) > 300:
        message = message[:300] + "..."
    return Problem(file, where, f"invalid OpenAPI: {message}",
                   "correct the document at that location")


def _unresolvable(exc: Exception, file: str) -> Problem:
    ref = getattr(exc, "ref", None)
    text = f"$ref '{ref}' does not resolve" if ref else str(exc).splitlines()[0][:300]
    return Problem(file, "", f"invalid OpenAPI: {text}", "fix or remove the reference")
