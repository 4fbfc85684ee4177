"""Multi-file specs bundle into one document without losing or renaming anything.

* digitalocean (1,500+ files): operations themselves are ``$ref``s; ``properties``
  maps are written as a ``$ref`` to a file of properties; ``default`` responses
  carry references (a ``default`` key there is a response, not a literal).
* lichess (500 files): ``components.schemas`` is one ``$ref`` to an index file of
  ``$ref``s; every schema keeps its index name.
* OAI petstore-separate: Swagger 2.0 across five files, converted after bundling.
"""

from __future__ import annotations

from pathlib import Path

from helpers.fixtures import generate, real, real_catalog, tool, write_spec
from toolcat.load.bundle import bundle

DO = ("corpus", "digitalocean", "specification", "DigitalOcean-public.v2.yaml")


def test_map_given_as_a_ref(tmp_path: Path) -> None:
    write_spec(tmp_path, {"size": {"type": "integer"}, "name": {"type": "string"}},
               "props.yaml")
    write_spec(tmp_path, {"Item": {"$ref": "item.yaml"}}, "index.yaml")
    write_spec(tmp_path, {"type": "object", "properties": {
        "$ref": "props.yaml", "name": {"type": "string", "maxLength": 3}}}, "item.yaml")
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"$ref": "index.yaml"}}}
    schemas = bundle(write_spec(tmp_path, spec)).document["components"]["schemas"]
    # The schema keeps its index name; spliced members yield to the map's own ones.
    assert schemas == {"Item": {"type": "object", "properties": {
        "size": {"type": "integer"}, "name": {"type": "string", "maxLength": 3}}}}


def test_default_response_refs_are_followed(tmp_path: Path) -> None:
    write_spec(tmp_path, {"description": "error", "content": {"application/json": {
        "schema": {"$ref": "error.yaml"}}}}, "responses/default.yaml")
    write_spec(tmp_path, {"type": "object", "default": {"$ref": "kept literally"}},
               "responses/error.yaml")
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/x": {
        "get": {"operationId": "x", "responses": {"default": {
            "$ref": "responses/default.yaml"}}}}}}
    document = bundle(write_spec(tmp_path, spec)).document
    default = document["paths"]["/x"]["get"]["responses"]["default"]
    assert default["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/error"}
    assert document["components"]["schemas"]["error"]["default"] == {
        "$ref": "kept literally"}


def test_digitalocean() -> None:
    catalog = real_catalog(*DO)
    assert len(catalog["tools"]) == 659
    account = tool(catalog, "account_get")
    assert account["binding"]["path"] == "/v2/account"
    assert "account" in account["tool"]["outputSchema"]["properties"]
    # load_balancer.yml: `properties: {$ref: 'attributes.yml#/load_balancer_droplet_ids'}`.
    balancer = tool(catalog, "load_balancers_get")["tool"]["outputSchema"]
    text = str(balancer)
    assert "'droplet_ids'" in text
    assert "'tag'" in text


def test_lichess_schema_names() -> None:
    catalog = real_catalog("corpus", "lichess", "doc", "specs", "lichess-api.yaml")
    assert len(catalog["tools"]) == 190
    names = {n for e in catalog["tools"] for key in ("inputSchema", "outputSchema")
             for n in e["tool"].get(key, {}).get("$defs", {})}
    assert {"VariantKey", "Clock", "ChallengeJson"} <= names
    assert not [n for n in names if n.startswith("schemas_")]


def test_petstore_separate_swagger() -> None:
    """Its spec/ files reach ../common/Error.yaml: allowed only with a wider ref_root."""
    spec = real("corpus", "oai-examples", "v2.0", "yaml", "petstore-separate", "spec",
                "swagger.yaml")
    catalog = generate(spec, ref_root=spec.parent.parent)
    find = tool(catalog, "find_pets")
    assert find["binding"]["arguments"]["tags"] == {"in": "query", "name": "tags",
                                                    "style": "form", "explode": False}
    assert find["tool"]["outputSchema"]["properties"]["result"]["items"] == {
        "$ref": "#/$defs/Pet"}
