"""Write semantics: one standard sentence each, and the annotations they imply."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Semantics(StrEnum):
    """An override's ``semantics:`` (plain, so applying overrides imports no pydantic)."""

    FULL_REPLACE = "full-replace"
    MERGE = "merge"
    ADDITIVE = "additive"


SENTENCES = {
    Semantics.FULL_REPLACE: (
        "Write semantics: full replace. Every field of the resource is set from this call; "
        "a field you leave out is cleared. Read the resource first and send its complete "
        "desired state."),
    Semantics.MERGE: (
        "Write semantics: merge. Only the fields you send are changed; a field you leave "
        "out keeps its current value."),
    Semantics.ADDITIVE: (
        "Write semantics: additive. The items you send are added to the collection; "
        "existing items are kept."),
}

ANNOTATIONS: dict[Semantics, dict[str, Any]] = {
    Semantics.FULL_REPLACE: {"readOnlyHint": False, "destructiveHint": True,
                             "idempotentHint": True},
    Semantics.MERGE: {"readOnlyHint": False, "destructiveHint": False},
    Semantics.ADDITIVE: {"readOnlyHint": False, "destructiveHint": False,
                         "idempotentHint": False},
}

ETAG_SENTENCE = ("The response's ETag header carries the current version of the resource; "
                 "pass it as `ifMatch` to a later update so that it applies only if the "
                 "resource is unchanged.")
IF_MATCH_DESCRIPTION = ("ETag from a previous read of this resource (If-Match header); the "
                        "change is rejected if the resource changed since.")
