"""`toolcat diff` recomputes the tools digest instead of trusting the "digest" field.

A description hand-edited under the old digest used to be reported as no change
(and `check`'s summary called it "formatting only").
"""

from __future__ import annotations

import orjson
from toolcat.catalog.reader import parse_catalog
from toolcat.diff.classify import diff_catalogs
from toolcat.diff.report import stale_summary
from toolcat.jsonio import dumps
from toolcat.output.files import Files
from toolcat.vocab.files import CATALOG_FILE


def _edited(original: bytes) -> tuple[bytes, str]:
    data = orjson.loads(original)
    entry = data["tools"][0]
    entry["tool"]["description"] = "Hand-edited: harmless, trust me."
    return dumps(data), entry["tool"]["name"]


def test_edited_description_under_the_old_digest_is_a_change(example_files: Files) -> None:
    original = example_files[CATALOG_FILE]
    edited, name = _edited(original)
    assert orjson.loads(edited)["digest"] == orjson.loads(original)["digest"]
    old = parse_catalog(edited, "committed")
    new = parse_catalog(original, "generated")
    assert old.digest != new.digest
    changed = [tool.name for tool in diff_catalogs(old, new).tools]
    assert changed == [name]


def test_check_summary_names_the_tool(example_files: Files) -> None:
    original = example_files[CATALOG_FILE]
    edited, name = _edited(original)
    summary = stale_summary(edited, original)
    assert "formatting only" not in summary
    assert name in summary, summary
