"""Validator verdicts the OpenAPI or Swagger specification contradicts, pinned by name.

openapi-spec-validator checks a document against a JSON Schema of the specification;
where that schema is narrower than the specification's text, strict mode would refuse
a valid document (issue 22 item 7). Each such case is pinned here by name, with the
words of the specification that allow it, and matched narrowly (the document's
version, the exact place, the exact value and the validator's message): everything
else keeps the validator's verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...errors import Problem
from ...vocab.pointers import split_pointer


@dataclass(frozen=True)
class Pinned:
    name: str
    specification: str          # where the specification says it, and its words
    swagger: bool               # a Swagger 2.0 case (else OpenAPI 3.x)
    location: re.Pattern[str]   # where the validator reports it
    value: Any                  # what the document holds there
    message: str                # the validator's message, exactly


PINNED = (
    Pinned("swagger2-file-response",
           "Swagger 2.0, Response Object, schema: \"As an extension to the Schema Object, "
           "its root type value may also be \\\"file\\\". This SHOULD be accompanied by a "
           "relevant produces mime-type.\"",
           True, re.compile(r"^(?:/paths/[^/]+/[^/]+)?/responses/[^/]+/schema/type$"), "file",
           "invalid OpenAPI: 'file' is not valid under any of the given schemas"),
)


def pinned(problem: Problem, document: dict[str, Any]) -> Pinned | None:
    """The pinned case ``problem`` is, if any."""
    for case in PINNED:
        if (case.swagger == ("swagger" in document) and problem.message == case.message
                and case.location.match(problem.location)
                and _at(document, problem.location) == case.value):
            return case
    return None


def _at(document: Any, location: str) -> Any:
    node = document
    for token in split_pointer(location):
        if not isinstance(node, dict) or token not in node:
            return None
        node = node[token]
    return node
