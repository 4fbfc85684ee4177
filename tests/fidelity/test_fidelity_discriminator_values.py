"""Class 4 of issue 11: a discriminator's values are carried into its branches.

``discriminator`` is not JSON Schema and is dropped; without it each ``oneOf``
branch's ``method`` is any string (Kratos ``update_login_flow``), and the API
rejects the call. Input schemas put the mapped values (or the implicit schema name)
on each branch as an ``enum`` unless the branch already fixes them. Oracle figure:
every drawn call is accepted.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run


def _branch(extra: str, fixed: bool = False) -> dict[str, Any]:
    method: dict[str, Any] = {"type": "string"}
    if fixed:
        method["enum"] = ["Totp"]   # the implicit value: the schema name
    return {"type": "object", "required": ["method", extra], "additionalProperties": False,
            "properties": {"method": method, extra: {"type": "string", "enum": ["v"]}}}


SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/login": {"post": {
        "operationId": "updateLoginFlow",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "oneOf": [{"$ref": "#/components/schemas/Password"},
                      {"$ref": "#/components/schemas/Oidc"},
                      {"$ref": "#/components/schemas/Totp"}],
            "discriminator": {"propertyName": "method", "mapping": {
                "password": "#/components/schemas/Password",
                "oidc": "#/components/schemas/Oidc"}}}}}},
        "responses": {"200": {"description": "ok"}}}}},
    "components": {"schemas": {
        "Password": _branch("password"), "Oidc": _branch("provider"),
        "Totp": _branch("code", fixed=True)}},
}


def test_branches_carry_their_discriminator_values(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    body = tool(catalog, "update_login_flow")["tool"]["inputSchema"]["properties"]["body"]
    branches = body["oneOf"]
    assert branches[0]["properties"] == {"method": {"enum": ["password"]}}
    assert branches[1]["properties"] == {"method": {"enum": ["oidc"]}}
    assert "properties" not in branches[2]   # Totp fixes its own value
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 3
    assert tally.failures == []
    assert tally.accepted == tally.requests
