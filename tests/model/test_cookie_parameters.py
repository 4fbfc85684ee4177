"""Cookie parameters are arguments bound to the cookie they name.

No public spec in the corpus has ``in: cookie`` parameters, so this fixture makes
its own. OpenAPI's defaults for cookies are ``style: form`` with ``explode: true``;
the binding records them, and whatever the spec says instead. Two real neighbours
are checked too: overseerr's cookie *security scheme* (credentials, not an
argument) and kratos' header parameter literally named ``Cookie`` (an argument).
"""

from __future__ import annotations

from pathlib import Path

from helpers.fixtures import generate, operation, real_catalog, tool, write_spec


def test_cookie_parameters(tmp_path: Path) -> None:
    spec = operation("/cart", "get", parameters=[
        {"name": "session_id", "in": "cookie", "required": True,
         "schema": {"type": "string", "pattern": "^[a-f0-9]{32}$"}},
        {"name": "prefs", "in": "cookie", "explode": False,
         "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "session_id", "in": "query", "schema": {"type": "integer"}},
    ])
    entry = tool(generate(write_spec(tmp_path, spec)), "op")
    arguments = entry["binding"]["arguments"]
    assert arguments["cookie_session_id"] == {"in": "cookie", "name": "session_id",
                                              "style": "form", "explode": True}
    assert arguments["prefs"] == {"in": "cookie", "name": "prefs", "style": "form",
                                  "explode": False}
    # Same wire name in another location: query keeps the plain name, nothing overwrites.
    assert arguments["session_id"]["in"] == "query"
    schema = entry["tool"]["inputSchema"]
    assert schema["properties"]["cookie_session_id"]["pattern"] == "^[a-f0-9]{32}$"
    assert schema["required"] == ["cookie_session_id"]


def test_overseerr_cookie_auth_is_not_an_argument() -> None:
    catalog = real_catalog("corpus", "overseerr", "overseerr-api.yml")
    locations = {b["in"] for e in catalog["tools"] for b in e["binding"]["arguments"].values()}
    assert "cookie" not in locations
    # The cookie scheme is where a credential goes (binding.security), never an argument.
    assert "connect.sid" not in str([(e["tool"], e["binding"]["arguments"])
                                     for e in catalog["tools"]])
    schemes = [s for e in catalog["tools"] for alt in e["binding"]["security"] for s in alt]
    assert {"id": "cookieAuth", "type": "apiKey", "in": "cookie", "name": "connect.sid"} in (
        schemes)


def test_kratos_cookie_header_is_an_argument() -> None:
    entry = tool(real_catalog("corpus", "kratos", "api.json"), "to_session")
    assert entry["binding"]["arguments"]["Cookie"] == {"in": "header", "name": "Cookie",
                                                       "style": "simple", "explode": False}
    assert entry["binding"]["ignoredParameters"] == []
