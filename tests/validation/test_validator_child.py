"""The forked validator leaves what it inherited to the parent: the collector in the
child does not walk (nor write to the shared pages of) the document and modules the
parent had when it forked."""

from __future__ import annotations

import gc
import os
from typing import Any

import pytest
from toolcat.errors import Problem
from toolcat.load.validation import validate
from toolcat.load.validation.findings import Findings


@pytest.mark.skipif(not hasattr(os, "fork"), reason="validation forks only where fork exists")
def test_the_child_validates_with_what_it_inherited_frozen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    document: dict[str, Any] = {"openapi": "3.0.3", "paths": {}}

    def seen_by_child(doc: dict[str, Any], file: str) -> Findings:
        tracked = any(o is doc for o in gc.get_objects())   # the young generations only
        said = f"frozen {gc.get_freeze_count()} document tracked {tracked}"
        return Findings(file, ((Problem(file, "/", said, ""), 1),))

    # Another test in this process may have served a catalog in-process (serve freezes
    # what it read before serving): the parent's count must only be left as it was.
    before = gc.get_freeze_count()
    monkeypatch.setattr(validate, "find_problems", seen_by_child)
    findings = validate.validate_in_background(document, "spec.json")()
    said = findings.counted[0][0].message
    assert said.endswith("document tracked False"), said
    assert int(said.split()[1]) > before, said
    assert gc.get_freeze_count() == before, "the parent's collector was frozen too"
