"""A single file that needs no bundling is used as read, and nothing else is.

``bundle`` skips its copying walk when ``_self_contained`` says the walk could not
change the document. The skip is only a speed-up: for every real document and for
each shape that does need the walk, the bundled result must equal the walked one,
and the shapes that need the walk must be sent through it. A JSON file read through
the run's ``Inputs`` is asked the question while its depth is checked (parse/limits.py,
``check_tree_refs``), a YAML file in the fast path's walk (parse/yaml_fast.py): that
answer must be the walk's, for every shape and document.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import toolcat.load.bundle as bundle_module
from corpus.docs import DOCUMENTS, path_of, ref_root_of
from helpers.fixtures import write_spec
from toolcat.load.bundle import bundle
from toolcat.load.repairs import _any_tuple
from toolcat.parse import yaml_fast
from toolcat.parse.duplicates import Repeats
from toolcat.parse.inputs import Inputs
from toolcat.parse.limits import read_bounded
from toolcat.parse.reader import read_document


def _walked(path: Path, monkeypatch: pytest.MonkeyPatch, ref_root: Path | None = None) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(bundle_module, "_self_contained", lambda document, raw, read: False)
        return bundle(path, ref_root).document


def _spec(**members: Any) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            **members}


def _self_contained(path: Path) -> bool:
    """The walk's answer, checked against the run's (JSON: from ``check_tree_refs``)."""
    document, raw = read_document(path)
    walked = bundle_module._self_contained(document, raw, read_bounded)
    run = Inputs()
    document, raw = read_document(path, Repeats(str(path), keep=True), run)
    # A YAML file the fast path read (parse/yaml_fast.py) is asked in its walk too
    if path.suffix == ".json" or yaml_fast.fast_load(raw) is not None:
        assert run.refs_local(raw) is not None, f"the {path.suffix} reader noted nothing"
        # and load/repairs.py's question, answered in the same walk
        assert run.tuples(raw) == _any_tuple(document), "the read's tuples answer"
    assert bundle_module._self_contained(document, raw, run) == walked, (
        f"check_tree_refs says {run.refs_local(raw)}, the walk {walked}")
    return walked


SKIPPED = {
    "local refs only": _spec(components={"schemas": {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        "B": {"type": "string"}}}),
    "a property named $ref": _spec(components={"schemas": {
        "A": {"type": "object", "properties": {"$ref": {"type": "string"}}}}}),
    "a ref with siblings": _spec(components={"schemas": {
        "A": {"$ref": "#/components/schemas/B", "description": "d"}, "B": {}}}),
}

WALKED = {
    "a ref to another file": (_spec(components={"schemas": {"A": {"$ref": "b.json"}}}),
                              {"b.json": {"type": "string"}}),
    "a properties map spliced from a local ref": (_spec(components={"schemas": {
        "Shared": {"size": {"type": "integer"}},
        "A": {"type": "object", "properties": {
            "$ref": "#/components/schemas/Shared", "name": {"type": "string"}}}}}), {}),
    "a schemas map spliced from a local ref": (_spec(components={
        "x-index": {"Z": {"type": "string"}},
        "schemas": {"$ref": "#/components/x-index"}}), {}),
    "an $id scope": (_spec(components={"schemas": {
        "A": {"$id": "https://example.com/a", "$defs": {"B": {"type": "string"}},
              "properties": {"b": {"$ref": "#/$defs/B"}}}}}), {}),
    "an $anchor": (_spec(components={"schemas": {
        "A": {"$anchor": "a", "type": "string"},
        "B": {"$ref": "#a"}}}), {}),
    "a ref that is not a pointer": (_spec(components={"schemas": {
        "A": {"$ref": "#a"}, "B": {"$anchor": "a"}}}), {}),
}


FORMATS = ("spec.yaml", "spec.json")


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("case", sorted(SKIPPED))
def test_self_contained_documents_skip_the_walk(case: str, name: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_spec(tmp_path, SKIPPED[case], name)
    assert _self_contained(path), f"{case}: should not need the walk"
    assert bundle(path, None, Inputs()).document == _walked(path, monkeypatch)


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("case", sorted(WALKED))
def test_documents_the_walk_changes_are_walked(case: str, name: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    spec, others = WALKED[case]
    for other, content in others.items():
        write_spec(tmp_path, content, other)
    path = write_spec(tmp_path, spec, name)
    assert not _self_contained(path), f"{case}: the walk changes it, so it must be walked"
    assert bundle(path, None, Inputs()).document == _walked(path, monkeypatch)


def test_spliced_local_map_really_changes(tmp_path: Path) -> None:
    """Proof that skipping the walk would be wrong for a spliced map."""
    spec, _ = WALKED["a properties map spliced from a local ref"]
    path = write_spec(tmp_path, spec)
    properties = bundle(path).document["components"]["schemas"]["A"]["properties"]
    assert properties == {"size": {"type": "integer"}, "name": {"type": "string"}}


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_real_documents_bundle_as_walked(doc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = path_of(doc)
    if not path.is_file():
        pytest.skip(f"shared test data absent: {path}")
    root = ref_root_of(doc)
    try:
        walked = _walked(path, monkeypatch, root)
    except Exception as exc:  # a document bundling rejects must be rejected both ways
        with pytest.raises(type(exc)):
            bundle(path, root, Inputs())
        return
    assert bundle(path, root, Inputs()).document == walked, doc
    if path.suffix == ".json" or yaml_fast.fast_load(path.read_bytes()) is not None:
        _self_contained(path)   # the run's answer (check_tree_refs, yaml_fast) is the walk's


ESCAPED_SCOPES = {   # an $id/$anchor key spelt with an escape reads as the key itself
    "spec.json": '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},'
                 ' "components": {"schemas": {"A": {"%s": "https://example.com/a",'
                 ' "$defs": {"B": {"type": "string"}},'
                 ' "properties": {"b": {"$ref": "#/$defs/B"}}}}}}',
    "spec.yaml": 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\ncomponents:\n'
                 '  schemas:\n    A:\n      "%s": https://example.com/a\n'
                 '      $defs: {B: {type: string}}\n'
                 '      properties: {b: {$ref: "#/$defs/B"}}\n',
}


@pytest.mark.parametrize("name", sorted(ESCAPED_SCOPES))
@pytest.mark.parametrize("key", ["\\u0024id", "$i\\u0064", "\\u0024anchor"])
def test_escaped_scope_keys_are_walked(name: str, key: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / name
    path.write_text(ESCAPED_SCOPES[name] % key, encoding="utf-8")
    document, _ = read_document(path)
    assert any(k.startswith("$") for k in document["components"]["schemas"]["A"]), document
    assert not _self_contained(path), f"{key!r} names a scope: the walk must see it"
    assert bundle(path, None, Inputs()).document == _walked(path, monkeypatch)
