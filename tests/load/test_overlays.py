"""OpenAPI Overlays (issue 22 item 1): a vendor's document taken as it is, its fixes in
overlay files applied before anything reads it, checked like overrides.

The Overlay Specification's own examples (1.0: structured, targeted, wildcard, array
removal, traits; 1.1: copy, ensure-then-copy, move) are written here as fixtures of the
same shape and asserted on the document they produce.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import run_cli
from toolcat.config import load_config
from toolcat.errors import ToolcatError
from toolcat.load.overlay import apply_overlays
from toolcat.pipeline import build_catalog

PETS: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "paths": {
        "/pets": {
            "get": {"operationId": "listPets", "description": "List the pets.",
                    "parameters": [
                        {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                        {"name": "dummy", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
            "post": {"operationId": "createPet", "description": "Create a pet.",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/Pet"}}}},
                     "responses": {"201": {"description": "created"}}},
        },
        "/pets/{id}": {
            "get": {"operationId": "getPet", "description": "One pet.",
                    "parameters": [{"name": "id", "in": "path", "required": True,
                                    "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/Pet"}}}}}},
        },
    },
    "components": {"schemas": {"Pet": {
        "type": "object", "required": ["name"],
        "properties": {"name": {"type": "string"}, "tag": {"type": "string"}}}}},
}


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def _project(tmp_path: Path, *overlays: tuple[str, str]) -> Path:
    (tmp_path / "api.json").write_text(json.dumps(PETS))
    for name, text in overlays:
        _write(tmp_path, name, text)
    listed = "".join(f"      - {name}\n" for name, _ in overlays)
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  pets:\n    spec: api.json\n    output: out\n"
                      + ("    overlays:\n" + listed if overlays else ""))
    return config


def _tools(config: Path) -> dict[str, Any]:
    catalog = build_catalog(load_config(config)[0])
    return {t.name: t for t in catalog.tools}


def test_update_changes_a_description_and_a_schema(tmp_path: Path) -> None:
    tools = _tools(_project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update:
      description: List every pet of the shop.
  - target: $.components.schemas.Pet.properties.tag
    update:
      type: [string, "null"]
""")))
    assert tools["list_pets"].description.startswith("List every pet of the shop.")
    tag = tools["get_pet"].output_schema["properties"]["tag"]
    assert tag["type"] == ["string", "null"], tag
    # The fix reaches the input side of the same schema too (one document, patched once).
    body = tools["create_pet"].input_schema["properties"]["tag"]
    assert body["type"] == ["string", "null"], body


def test_remove_takes_out_an_operation_and_a_parameter(tmp_path: Path) -> None:
    tools = _tools(_project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].post
    remove: true
  - target: $.paths.*.get.parameters[?@.name == 'dummy']
    remove: true
""")))
    assert set(tools) == {"list_pets", "get_pet"}
    assert set(tools["list_pets"].input_schema["properties"]) == {"limit"}


def test_several_overlays_apply_in_the_order_listed(tmp_path: Path) -> None:
    first = ("a.yaml", """\
overlay: 1.1.0
info: {title: a, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: from a, x-note: {by: a}}
""")
    second = ("b.yaml", """\
overlay: 1.1.0
info: {title: b, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: from b}
  - target: $.paths['/pets'].get['x-note']
    update: {seen: true}
""")
    tools = _tools(_project(tmp_path, first, second))
    assert tools["list_pets"].description.startswith("from b")
    # Reversed, b's second action finds nothing: a wrote x-note, and has not run yet.
    with pytest.raises(ToolcatError) as raised:
        _tools(_project(tmp_path, second, first))
    assert "b.yaml: line 6" in str(raised.value), str(raised.value)


def test_a_target_matching_nothing_names_the_file_the_line_and_the_target(
        tmp_path: Path) -> None:
    config = _project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: fine}
  - target: $.components.schemas.Dog.properties.name
    update: {type: [string, "null"]}
"""))
    with pytest.raises(ToolcatError) as raised:
        _tools(config)
    problem = raised.value.problems[0]
    assert problem.file == str(tmp_path / "fix.yaml")
    assert problem.location == "line 6"
    assert "$.components.schemas.Dog.properties.name matches nothing" in problem.message
    # The CLI says the same, with exit code 2 and no traceback.
    run = run_cli("generate", "--config", config)
    assert run.returncode == 2, run.stderr
    assert "fix.yaml: line 6" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_error_in_what_an_overlay_wrote_is_located_in_that_action(tmp_path: Path) -> None:
    config = _project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets/{id}'].get.responses['200'].content['application/json']
    update:
      schema: {$ref: '#/components/schemas/Missing'}
"""))
    with pytest.raises(ToolcatError) as raised:
        _tools(config)
    text = str(raised.value)
    assert f"{tmp_path / 'fix.yaml'}: line 4" in text, text
    # An error in a part no overlay wrote stays in the original file.
    spec = json.loads((tmp_path / "api.json").read_text())
    spec["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"]["items"] = {"$ref": "#/components/schemas/Gone"}
    (tmp_path / "api.json").write_text(json.dumps(spec))
    (tmp_path / "fix.yaml").write_text("""\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: fine}
""")
    with pytest.raises(ToolcatError) as raised:
        _tools(config)
    assert all(p.file == str(tmp_path / "api.json") for p in raised.value.problems), \
        str(raised.value)


def test_check_sees_an_edited_overlay_and_the_record_lists_it(tmp_path: Path) -> None:
    config = _project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: first words}
"""))
    assert run_cli("generate", "--config", config).returncode == 0
    record = json.loads((tmp_path / "out" / ".toolcat-inputs.json").read_text())
    assert [name for name, _ in record["overlays"]] == ["fix.yaml"], record
    assert run_cli("check", "--config", config).returncode == 0
    fix = tmp_path / "fix.yaml"
    fix.write_text(fix.read_text().replace("first words", "second words"))
    run = run_cli("check", "--config", config)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "STALE" in run.stdout


def test_overlaid_output_is_deterministic(tmp_path: Path) -> None:
    config = _project(tmp_path, ("fix.yaml", """\
overlay: 1.1.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths.*.*
    update: {x-touched: true, description: every operation}
  - target: $.components.schemas.Pet.properties
    update: {age: {type: integer}, name: {type: [string, "null"]}}
""")), []
    outputs = []
    out = tmp_path / "out"
    for seed in ("1", "2"):
        run = run_cli("generate", "--spec", tmp_path / "api.json", "--out", out,
                      "--name", "pets", "--overlay", tmp_path / "fix.yaml", seed=seed)
        assert run.returncode == 0, run.stderr
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())
                        if p.name != ".toolcat-inputs.json"})
    assert outputs[0] == outputs[1]
    catalog = json.loads(outputs[0]["catalog.json"])
    assert {t["tool"]["description"].split("\n")[0] for t in catalog["tools"]} == {
        "every operation"}
    del config


def test_overlay_option_is_for_ad_hoc_runs(tmp_path: Path) -> None:
    config = _project(tmp_path)
    run = run_cli("generate", "--config", config, "--overlay", tmp_path / "x.yaml")
    assert run.returncode == 2
    assert "--overlay is for ad hoc runs" in run.stderr


@pytest.mark.parametrize(("text", "words"), [
    ("overlay: 2.0.0\ninfo: {title: t, version: '1'}\nactions: [{target: $, remove: true}]\n",
     "unsupported Overlay Specification version '2.0.0'"),
    ("overlay: 1.0.0\ninfo: {title: t, version: '1'}\n"
     "actions: [{target: '$.paths', copy: '$.info'}]\n", "'copy' is an Overlay 1.1 action"),
    ("overlay: 1.1.0\ninfo: {title: t, version: '1'}\n"
     "actions: [{target: '$.paths[', remove: true}]\n",
     "is not an RFC 9535 JSONPath"),
    ("overlay: 1.1.0\ninfo: {title: t, version: '1'}\n"
     "actions: [{target: '$.info.title', update: {a: 1}}]\n", "cannot merge into"),
    ("overlay: 1.1.0\ninfo: {title: t, version: '1'}\n"
     "actions: [{target: '$.info', copy: '$.paths.*'}]\n", "selects 2 nodes"),
    ("overlay: 1.1.0\ninfo: {title: t, version: '1'}\nactions: [{target: $, remove: true}]\n",
     "selects the document itself"),
])
def test_malformed_overlays_are_located_errors(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ToolcatError) as raised:
        _tools(_project(tmp_path, ("bad.yaml", text)))
    assert words in str(raised.value), str(raised.value)
    assert "bad.yaml: line" in str(raised.value), str(raised.value)


# -- the Overlay Specification's examples, as documents ---------------------------------

def _apply(tmp_path: Path, document: dict[str, Any], text: str) -> dict[str, Any]:
    patched = copy.deepcopy(document)
    apply_overlays(patched, (_write(tmp_path, "example.yaml", text),))
    return patched


def test_spec_example_structured_overlay(tmp_path: Path) -> None:
    """1.0: one action on the root whose update mirrors the document's structure."""
    doc = {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
           "paths": {"/": {"summary": "root", "get": {"summary": "old"}}}}
    patched = _apply(tmp_path, doc, """\
overlay: 1.0.0
info: {title: Structured Overlay, version: 1.0.0}
actions:
  - target: "$"
    update:
      info:
        x-overlay-applied: structured-overlay
      paths:
        "/":
          summary: "The root resource"
          get:
            summary: "Retrieve the root resource"
            x-rate-limit: 100
""")
    assert patched["info"] == {"title": "T", "version": "1",
                               "x-overlay-applied": "structured-overlay"}
    assert patched["paths"]["/"] == {"summary": "The root resource", "get": {
        "summary": "Retrieve the root resource", "x-rate-limit": 100}}


def test_spec_example_targeted_and_wildcard_overlays(tmp_path: Path) -> None:
    """1.0: one action per node, by path; and one action for every GET by a wildcard."""
    doc = {"paths": {"/foo": {"get": {"description": "x"}, "post": {}},
                     "/bar": {"get": {}}}}
    patched = _apply(tmp_path, doc, """\
overlay: 1.0.0
info: {title: Targeted and wildcard, version: 1.0.0}
actions:
  - target: $.paths['/foo'].get
    update:
      description: This is the new description
  - target: $.paths.*.get
    update:
      x-safe: true
""")
    assert patched["paths"] == {
        "/foo": {"get": {"description": "This is the new description", "x-safe": True},
                 "post": {}},
        "/bar": {"get": {"x-safe": True}}}


def test_spec_example_array_modification(tmp_path: Path) -> None:
    """1.0: remove the array entries a filter selects, in every operation."""
    doc = {"paths": {"/a": {"get": {"parameters": [{"name": "dummy"}, {"name": "keep"}]}},
                     "/b": {"get": {"parameters": [{"name": "keep"}, {"name": "dummy"},
                                                   {"name": "dummy"}]}}}}
    patched = _apply(tmp_path, doc, """\
overlay: 1.0.0
info: {title: Remove Array Element, version: 1.0.0}
actions:
  - target: $.paths.*.get.parameters[?@.name == 'dummy']
    remove: true
""")
    assert [p for item in patched["paths"].values() for p in item["get"]["parameters"]] == [
        {"name": "keep"}, {"name": "keep"}]


def test_spec_example_traits(tmp_path: Path) -> None:
    """1.0: operations marked with a trait get its parameters appended."""
    doc = {"paths": {"/items": {"get": {"x-oai-traits": ["paged"],
                                        "parameters": [{"name": "q", "in": "query"}]}},
                     "/other": {"get": {"parameters": []}}}}
    patched = _apply(tmp_path, doc, """\
overlay: 1.0.0
info: {title: Apply Traits, version: 1.0.0}
actions:
  - target: $.paths.*[?@['x-oai-traits'][?@ == 'paged']]
    update:
      parameters:
        - name: top
          in: query
        - name: skip
          in: query
""")
    assert [p["name"] for p in patched["paths"]["/items"]["get"]["parameters"]] == [
        "q", "top", "skip"]
    assert patched["paths"]["/other"]["get"]["parameters"] == []


def test_spec_examples_copy_ensure_then_copy_and_move(tmp_path: Path) -> None:
    """1.1: copy a node onto an existing one; create the target first, then copy; move
    (create, copy, remove the source)."""
    doc = {"paths": {"/foo": {"get": {"summary": "foo"}}, "/bar": {"post": {}}}}
    copied = _apply(tmp_path, doc, """\
overlay: 1.1.0
info: {title: Copy, version: 1.0.0}
actions:
  - target: $.paths['/bar']
    copy: $.paths['/foo']
""")
    assert copied["paths"]["/bar"] == {"post": {}, "get": {"summary": "foo"}}
    moved = _apply(tmp_path, doc, """\
overlay: 1.1.0
info: {title: Move, version: 1.0.0}
actions:
  - target: $.paths
    update: {"/baz": {}}
  - target: $.paths['/baz']
    copy: $.paths['/foo']
  - target: $.paths['/foo']
    remove: true
""")
    assert moved["paths"] == {"/bar": {"post": {}}, "/baz": {"get": {"summary": "foo"}}}
    # Copied values are copies: a later action on the source leaves the copy alone.
    assert moved["paths"]["/baz"]["get"] is not doc["paths"]["/foo"]["get"]


def test_overlay_on_a_swagger_2_document(tmp_path: Path) -> None:
    """The document as the vendor ships it: targets name Swagger 2.0 places."""
    (tmp_path / "api.json").write_text(json.dumps({
        "swagger": "2.0", "info": {"title": "S", "version": "1"},
        "paths": {"/things": {"get": {"operationId": "listThings", "responses": {
            "200": {"description": "ok", "schema": {"$ref": "#/definitions/Thing"}}}}}},
        "definitions": {"Thing": {"type": "object",
                                  "properties": {"note": {"type": "string"}}}}}))
    _write(tmp_path, "fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.definitions.Thing.properties.note
    update: {x-nullable: true}
""")
    (tmp_path / "toolcat.yaml").write_text(
        "catalogs:\n  s:\n    spec: api.json\n    output: out\n    overlays: [fix.yaml]\n")
    tools = _tools(tmp_path / "toolcat.yaml")
    assert tools["list_things"].output_schema["properties"]["note"]["type"] == [
        "string", "null"]


def test_reusable_actions_of_overlay_1_2(tmp_path: Path) -> None:
    """1.2: an action defined once under components.actions, applied to two targets."""
    doc = {"paths": {"/a": {"get": {}}, "/b": {"get": {}}, "/c": {"get": {}}}}
    patched = _apply(tmp_path, doc, """\
overlay: 1.2.0
info: {title: Reusable, version: 1.0.0}
components:
  actions:
    mark-internal:
      description: Hide an operation from public docs
      fields:
        update: {x-internal: true}
actions:
  - $ref: '#/components/actions/mark-internal'
    target: $.paths['/a'].get
  - $ref: '#/components/actions/mark-internal'
    target: $.paths['/c'].get
""")
    assert patched["paths"] == {"/a": {"get": {"x-internal": True}}, "/b": {"get": {}},
                                "/c": {"get": {"x-internal": True}}}
    with pytest.raises(ToolcatError) as raised:
        _apply(tmp_path, doc, """\
overlay: 1.2.0
info: {title: Reusable, version: 1.0.0}
actions:
  - target: $.paths['/a'].get
    update: {x-ok: true}
  - $ref: '#/components/actions/missing'
    target: $.paths['/b'].get
""")
    assert "example.yaml: line 6" in str(raised.value)
    assert "names no reusable action" in str(raised.value)


def test_an_error_after_a_removed_array_entry_names_the_original_index(
        tmp_path: Path) -> None:
    """Removing parameters[0] moves parameters[1] to 0 in the patched document; an error
    there is located where the entry stands in the original file, at index 1."""
    config = _project(tmp_path, ("fix.yaml", """\
overlay: 1.0.0
info: {title: fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get.parameters[?@.name == 'limit']
    remove: true
"""))
    spec = json.loads((tmp_path / "api.json").read_text())
    spec["paths"]["/pets"]["get"]["parameters"][1]["schema"] = {
        "$ref": "#/components/schemas/Gone"}
    (tmp_path / "api.json").write_text(json.dumps(spec))
    with pytest.raises(ToolcatError) as raised:
        _tools(config)
    locations = {p.location for p in raised.value.problems}
    assert locations == {"/paths/~1pets/get/parameters/1/schema/$ref"}, str(raised.value)
    assert {p.file for p in raised.value.problems} == {str(tmp_path / "api.json")}
