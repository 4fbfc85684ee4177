"""Where a tool's requests go and which credentials they carry: servers and security.

Servers: the operation's `servers`, else its path item's, else the document's, else the
OpenAPI default `/` (nearest wins, OpenAPI 3 section 4.8.10). Variables keep `default` and
`enum`; a relative URL stays relative and is resolved against a base URL at serve time.
Security: the operation's `security`, else the document's; each requirement becomes a list of
scheme descriptions (type; for apiKey where and under which name; for http the scheme), so a
runtime knows where a credential goes. No credential ever appears here.
"""

from __future__ import annotations

from typing import Any

from ..errors import fail
from ..normalise.defs import Definitions
from ..vocab.pointers import escape_token
from .shapes import FIX, text

DEFAULT_SERVERS: tuple[dict[str, Any], ...] = ({"url": "/"},)


def _server(raw: Any, file: str, loc: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get("url"), str):
        raise fail(file, loc, "a server needs a 'url' string", "give the server a url")
    out: dict[str, Any] = {"url": raw["url"]}
    variables = {}
    for name, var in sorted((raw.get("variables") or {}).items()):
        if not isinstance(var, dict) or "default" not in var:
            raise fail(file, f"{loc}/variables/{escape_token(name)}",
                       "a server variable needs a 'default'", "add a default value")
        entry: dict[str, Any] = {"default": str(var["default"])}
        if isinstance(var.get("enum"), list):
            entry["enum"] = [str(v) for v in var["enum"]]
        variables[name] = entry
    if variables:
        out["variables"] = variables
    return out


def servers(file: str, levels: list[tuple[Any, str]],
            memo: dict[tuple[Any, ...], tuple[Any, Any]] | None = None
            ) -> tuple[dict[str, Any], ...]:
    """The nearest non-empty `servers` list of (operation, path item, document); with
    ``memo`` (``Definitions.memo``), once per list and location, shared by the tools that
    use it (the document's: every tool of most documents)."""
    for raw, loc in levels:
        if isinstance(raw, list) and raw:
            key = ("servers", id(raw), loc)
            if memo is not None and key in memo:
                found: tuple[dict[str, Any], ...] = memo[key][1]
                return found
            out = tuple(_server(s, file, f"{loc}/{i}") for i, s in enumerate(raw))
            if memo is not None:
                memo[key] = (raw, out)
            return out
    return DEFAULT_SERVERS


SCHEME_TYPES = frozenset({"apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"})
API_KEY_PLACES = frozenset({"query", "header", "cookie"})


def _scheme(defs: Definitions, document: dict[str, Any], name: str) -> dict[str, Any]:
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    raw = schemes.get(name) if isinstance(schemes, dict) else None
    where = f"/components/securitySchemes/{escape_token(name)}"
    seen: set[str] = set()
    while isinstance(raw, dict) and "$ref" in raw:
        ref = raw["$ref"]
        if not isinstance(ref, str) or ref in seen:
            raise fail(defs.file, f"{where}/$ref", f"unusable $ref {ref!r}", FIX)
        seen.add(ref)
        _, raw, where = defs.lookup(ref, f"{where}/$ref")
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        # Real documents name schemes they never declare (kratos: `sessionToken`); the
        # requirement is kept, marked, rather than the document refused or the name dropped.
        return {"id": name, "type": "undeclared"}
    # Checked here, not copied: warn mode lets a document the validator rejects reach
    # this, and the binding must still pass catalog.schema.json (issue 28 item 15).
    kind = raw["type"]
    if kind not in SCHEME_TYPES:
        raise fail(defs.file, f"{where}/type", f"security scheme type {kind!r} is none of "
                   f"{', '.join(sorted(SCHEME_TYPES))}", FIX)
    out: dict[str, Any] = {"id": name, "type": kind}
    if kind == "apiKey":
        if raw.get("in") not in API_KEY_PLACES:
            raise fail(defs.file, f"{where}/in", f"an apiKey scheme's 'in' must be one of "
                       f"{', '.join(sorted(API_KEY_PLACES))}, found {raw.get('in')!r}", FIX)
        out["in"] = raw["in"]
        out["name"] = text(defs.file, raw.get("name"), f"{where}/name",
                           "an apiKey scheme's 'name'")
    elif kind == "http":
        out["scheme"] = str(raw.get("scheme", "")).lower()
    return out


def _shared_scheme(defs: Definitions, document: dict[str, Any], name: str) -> dict[str, Any]:
    """``_scheme``, once per name (operations list their own requirements: Cloudflare's
    1,533 name 3,994 schemes); a scheme that cannot be used is refused at each use."""
    key = ("scheme", name)
    if key not in defs.memo:
        defs.memo[key] = (name, _scheme(defs, document, name))
    found: dict[str, Any] = defs.memo[key][1]
    return found


def security(defs: Definitions, document: dict[str, Any],
             op_node: dict[str, Any]) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Alternatives (any one suffices), each the schemes that must all be sent; once per
    list of requirements (the document's is every tool's that has none of its own)."""
    raw = op_node["security"] if "security" in op_node else document.get("security")
    if not isinstance(raw, list):
        return ()
    key = ("security", id(raw))
    if key not in defs.memo:
        out = []
        for requirement in raw:
            names = sorted(requirement) if isinstance(requirement, dict) else []
            out.append(tuple(_shared_scheme(defs, document, n) for n in names))
        defs.memo[key] = (raw, tuple(out))
    found: tuple[tuple[dict[str, Any], ...], ...] = defs.memo[key][1]
    return found


def credential_names(alternatives: tuple[tuple[dict[str, Any], ...], ...]
                     ) -> dict[str, frozenset[str]]:
    """Per location (query, header, cookie), the names of the apiKey credentials any
    alternative of ``alternatives`` sends there: no argument may write one of them."""
    out: dict[str, set[str]] = {}
    for alternative in alternatives:
        for scheme in alternative:
            if scheme["type"] == "apiKey" and isinstance(scheme.get("name"), str) \
                    and isinstance(scheme.get("in"), str):
                out.setdefault(scheme["in"], set()).add(scheme["name"])
    return {where: frozenset(names) for where, names in sorted(out.items())}
