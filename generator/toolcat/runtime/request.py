"""(catalog entry, arguments, server URL) -> one HTTP request, by the OpenAPI serialization rules.

Written from OpenAPI 3.1 section 4.8.12.4 (style values) and 4.8.14 (encoding objects):
path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/`deepObject`
with `explode`, header `simple`, cookie `form`; bodies JSON, form-urlencoded, multipart, text
and binary. Every value is percent-encoded with only the unreserved characters left bare, so
no argument can change the shape of the URL (`../`, `/`, `?`, `#` are data). A path value,
item or member that is a dot segment (`.`, `..`: unreserved, so sent bare, and removed by the
HTTP client and normalising servers, RFC 3986 5.2.4) is refused; so is an exploded object's
member that would take the name of another parameter, or of a credential, of its location.
Member names are encoded like values. Arguments are assumed valid against the inputSchema
(mcp_server checks that first); the rules the schema states are enforced here too, and what
the schema cannot rule out (CR/LF in a header) is refused here with `RequestError`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from ..vocab.patterns import DOT_SEGMENTS
from ..vocab.servers import template_in

# RFC 3986 unreserved characters are never encoded; with allowReserved the reserved set too.
_RESERVED = ":/?#[]@!$&'()*+,;="
_JSON_TYPES = ("application/json", "text/json")


class RequestError(ValueError):
    """An argument that cannot be put on the wire; the message names it."""


@dataclass(frozen=True)
class HttpRequest:
    method: str
    url: str                             # absolute or relative: server URL + path + query
    path: str                            # raw, percent-encoded, base path included
    query: str                           # raw, without '?'
    headers: tuple[tuple[str, str], ...]
    cookies: tuple[tuple[str, str], ...]
    content_type: str | None
    body: bytes | None


def _enc(value: str, reserved: bool = False) -> str:
    return quote(value, safe=_RESERVED if reserved else "")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def _pairs(value: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(k), _scalar(v)) for k, v in value.items() if v is not None]


def _path_value(name: str, value: Any, style: str, explode: bool) -> str:
    """RFC 6570-like expansion of one path parameter, each value percent-encoded."""
    if isinstance(value, list):
        items = [_enc(_scalar(v)) for v in value]
        if style == "label":
            return "." + ("." if explode else ",").join(items)
        if style == "matrix":
            if explode:
                return "".join(f";{name}={v}" for v in items)
            return f";{name}=" + ",".join(items)
        return ",".join(items)
    if isinstance(value, dict):
        pairs = [(_enc(k), _enc(v)) for k, v in _pairs(value)]
        if explode:
            joined = [f"{k}={v}" for k, v in pairs]
            if style == "label":
                return "." + ".".join(joined)
            if style == "matrix":
                return "".join(f";{p}" for p in joined)
            return ",".join(joined)
        flat = ",".join(f"{k},{v}" for k, v in pairs)
        return {"label": ".", "matrix": f";{name}="}.get(style, "") + flat
    text = _enc(_scalar(value))
    return {"label": f".{text}", "matrix": f";{name}={text}"}.get(style, text)


def _query_pairs(name: str, value: Any, style: str, explode: bool,
                 reserved: bool) -> list[str]:
    """`name=value` items for one query parameter (already encoded)."""
    key = _enc(name)

    def enc(item: Any) -> str:
        return _enc(_scalar(item), reserved)

    if style == "deepObject" and isinstance(value, (dict, list)):
        return _deep_pairs(key, value, enc)
    if isinstance(value, list):
        if explode:
            return [f"{key}={enc(v)}" for v in value]
        sep = {"spaceDelimited": "%20", "pipeDelimited": "%7C"}.get(style, ",")
        return [f"{key}=" + sep.join(enc(v) for v in value)]
    if isinstance(value, dict):
        if explode:
            return [f"{_enc(k)}={_enc(v, reserved)}" for k, v in _pairs(value)]
        sep = {"spaceDelimited": "%20", "pipeDelimited": "%7C"}.get(style, ",")
        return [f"{key}=" + sep.join(f"{_enc(k)}{sep}{_enc(v, reserved)}"
                                      for k, v in _pairs(value))]
    return [f"{key}={enc(value)}"]


def _deep_pairs(prefix: str, value: Any, enc: Callable[[Any], str]) -> list[str]:
    """deepObject: ``name[member]=value``. OpenAPI defines it for one level of scalars
    and leaves lists and nesting undefined, so they follow the convention the APIs that
    take nested forms read (Stripe, PHP, Rails, qs) and PHP's ``http_build_query``,
    ``qs.stringify`` and Stripe's clients write: one more ``[member]`` per level, list
    items indexed from 0 (``name[a][b]=v``, ``name[a][0]=x``, ``name[0][id]=7``).
    Null members and items are left out, as everywhere in a query. A member name with a
    bracket would be read as one more level: refused (the inputSchema says so at the top
    level; a free-form map deeper down can still hold one)."""
    if isinstance(value, dict):
        for k in value:
            if "[" in str(k) or "]" in str(k):
                raise RequestError(
                    f"deepObject member {str(k)!r} in {unquote(prefix)!r}: a name with '[' "
                    "or ']' would be read as another level of nesting")
        members = [(_enc(str(k)), v) for k, v in value.items() if v is not None]
    elif isinstance(value, list):
        members = [(str(i), v) for i, v in enumerate(v for v in value if v is not None)]
    else:
        return [f"{prefix}={enc(value)}"]
    out: list[str] = []
    for member, item in members:
        out += _deep_pairs(f"{prefix}%5B{member}%5D", item, enc)
    return out


def _header_value(argument: str, value: Any, explode: bool) -> str:
    if isinstance(value, list):
        text = ",".join(_scalar(v) for v in value)
    elif isinstance(value, dict):
        text = ",".join(f"{k}={v}" if explode else f"{k},{v}" for k, v in _pairs(value))
    else:
        text = _scalar(value)
    if "\r" in text or "\n" in text or "\0" in text:
        raise RequestError(f"argument '{argument}': a header value cannot contain CR, LF or NUL")
    return text


def _cookie_values(name: str, value: Any, explode: bool) -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(name, _enc(value))]
    if isinstance(value, list):
        if explode:
            return [(name, _enc(_scalar(v))) for v in value]
        return [(name, ",".join(_enc(_scalar(v)) for v in value))]
    if isinstance(value, dict):
        if explode:   # the member names are cookie names: encoded like values
            return [(_enc(k), _enc(v)) for k, v in _pairs(value)]
        return [(name, ",".join(f"{_enc(k)},{_enc(v)}" for k, v in _pairs(value)))]
    return [(name, _enc(_scalar(value)))]


def _content_value(value: Any, content_type: str | None) -> Any:
    """A parameter with `content` carries its value serialised in that media type."""
    if content_type is None:
        return value
    if content_type.split(";")[0].strip().lower() in _JSON_TYPES or "json" in content_type:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return _scalar(value)


def resolve_server(servers: list[dict[str, Any]], base_url: str | None) -> str:
    """The first server URL, variables at their defaults; `base_url` swaps scheme and host
    (or, for a URL holding a template rather than a server variable, is the whole URL)."""
    server: dict[str, Any] = servers[0] if servers else {"url": "/"}
    url = str(server["url"])
    for name, var in (server.get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(var["default"]))
    template = template_in(url)
    if template is not None:
        # A template its vendor fills at build time (Gitea: {{AppSubUrl | JSONEscape}}):
        # no request may go to the literal text; the base URL replaces the whole URL.
        if base_url is None:
            raise RequestError(f"the server URL '{url}' holds {template!r}, text that is not "
                               "an OpenAPI server variable (a template the document's vendor "
                               "fills in): pass the API's real base URL "
                               "(toolcat serve --base-url http://host:port/path)")
        return base_url.rstrip("/")
    parts = urlsplit(url)
    if base_url is not None:
        base = urlsplit(base_url)
        path = base.path.rstrip("/") + parts.path if not parts.netloc else parts.path
        return urlunsplit((base.scheme, base.netloc, path, "", "")).rstrip("/")
    if not parts.scheme:
        raise RequestError(f"the server URL '{url}' is relative: pass a base URL "
                           "(toolcat serve --base-url http://host:port)")
    return url.rstrip("/")


def build_request(entry: dict[str, Any], arguments: dict[str, Any],
                  server_url: str) -> HttpRequest:
    """The request for one call of the catalog entry `entry` (its `tool` and `binding`)."""
    binding = entry["binding"]
    properties = entry["tool"]["inputSchema"].get("properties", {})
    path = binding["path"]
    query: list[str] = []
    headers: list[tuple[str, str]] = []
    cookies: list[tuple[str, str]] = []
    body_args: dict[str, tuple[dict[str, Any], Any]] = {}
    for argument, value in arguments.items():
        where = binding["arguments"].get(argument)
        if where is None:
            raise RequestError(f"argument '{argument}' has no binding")
        location, wire = where["in"], where["name"]
        style, explode = where.get("style"), bool(where.get("explode", False))
        if location == "body":
            body_args[argument] = (where, value)
            continue
        if value is None and location == "path":
            # Nothing to substitute: the template's `{name}` would go out as it is.
            raise RequestError(f"argument '{argument}': a path value cannot be null")
        if value is None:
            continue  # an explicit null for an optional parameter: nothing to send
        wire_value = _content_value(value, where.get("contentType"))
        if location in ("query", "cookie") and explode and isinstance(wire_value, dict) \
                and (style or "form") == "form":
            _check_members(argument, wire_value, _shadowed(binding, argument, properties))
        if location == "path":
            path = path.replace("{" + wire + "}", _path_segment(argument, wire, wire_value,
                                                                style or "simple", explode))
        elif location == "query":
            query += _query_pairs(wire, wire_value, style or "form", explode,
                                  bool(where.get("allowReserved")))
        elif location == "header":
            headers.append((wire, _header_value(argument, wire_value, explode)))
        elif location == "cookie":
            cookies += _cookie_values(wire, wire_value, explode)
    _check_segments(binding, path)
    content_type, body = _body(binding, properties, body_args)
    raw_query = "&".join(query)
    base = urlsplit(server_url)
    full_path = base.path.rstrip("/") + path
    url = urlunsplit((base.scheme, base.netloc, full_path, raw_query, ""))
    return HttpRequest(binding["method"], url, full_path, raw_query, tuple(headers),
                       tuple(cookies), content_type, body)


def _path_segment(argument: str, wire: str, value: Any, style: str, explode: bool) -> str:
    """One path parameter's expansion; a dot segment or an empty value is refused."""
    parts = value if isinstance(value, list) else [
        p for kv in value.items() for p in kv] if isinstance(value, dict) else [value]
    if any(_scalar(p) in DOT_SEGMENTS for p in parts):
        raise RequestError(f"argument '{argument}': a path value (or its items or members) "
                           "cannot be '.' or '..': a dot segment would move the request to "
                           "another path")
    expanded = _path_value(wire, value, style, explode)
    if expanded in ("", ".", f";{wire}="):
        # An empty segment reaches another route (`/items/` for `/items/{id}`).
        raise RequestError(f"argument '{argument}': a path value cannot be empty")
    return expanded


def _check_segments(binding: dict[str, Any], path: str) -> None:
    """The expanded path has the template's dot segments and no other (values are
    percent-encoded, so the segments line up with the template's)."""
    template = binding["path"].split("/")
    for i, segment in enumerate(path.split("/")):
        written = template[i] if i < len(template) else ""
        if segment in DOT_SEGMENTS and written != segment:
            names = sorted(a for a, w in binding["arguments"].items()
                           if w["in"] == "path" and "{" + str(w["name"]) + "}" in written)
            raise RequestError(f"argument {', '.join(map(repr, names)) or '(path)'}: the path "
                               f"would have the dot segment {segment!r}, which moves the "
                               "request to another path")


def _shadowed(binding: dict[str, Any], argument: str, properties: dict[str, Any]
             ) -> frozenset[str]:
    """The names an exploded query or cookie object `argument` may not give a member:
    the other parameters of its location (unless its own schema declares the name: the
    document is at fault then) and the apiKey credentials sent there."""
    where = binding["arguments"][argument]
    location = where["in"]
    own = properties.get(argument, {})
    declared = set(own.get("properties", {})) if isinstance(own, dict) else set()
    others = {str(w["name"]) for a, w in binding["arguments"].items()
              if a != argument and w["in"] == location} - declared
    keys = {str(s.get("name")) for alternative in binding.get("security", [])
            for s in alternative if s.get("type") == "apiKey" and s.get("in") == location}
    return frozenset(others | keys)


def _check_members(argument: str, value: dict[str, Any], taken: frozenset[str]) -> None:
    clash = sorted(str(k) for k in value if str(k) in taken)
    if clash:
        raise RequestError(f"argument '{argument}': member {clash[0]!r} would be read as "
                           "another parameter or credential of the same name; use another "
                           "name or that argument")


def _body(binding: dict[str, Any], properties: dict[str, Any],
          args: dict[str, tuple[dict[str, Any], Any]]) -> tuple[str | None, bytes | None]:
    ctype = binding.get("requestContentType")
    if ctype is None:
        return None, None
    # C's `bodyRequired` says whether an empty call still sends `{}`; a catalog without it
    # gets `{}` whenever the tool has body arguments (valid for any object body without
    # required fields, and a required body must be sent).
    has_body = any(b["in"] == "body" for b in binding["arguments"].values())
    if not args and not binding.get("bodyRequired", has_body):
        return None, None
    kind = ctype.split(";")[0].strip().lower()
    whole = [(name, value) for name, (where, value) in args.items() if where["name"] is None]
    fields = {where["name"]: (name, where, value) for name, (where, value) in args.items()
              if where["name"] is not None}
    if whole and kind in _FORM_KINDS and isinstance(whole[0][1], dict):
        fields, properties = _spread(kind, *whole[0], properties)
    if kind == "application/x-www-form-urlencoded":
        return ctype, _form(fields).encode()
    if kind == "multipart/form-data":
        return _multipart(fields, properties)
    if whole:
        name, value = whole[0]
        schema = properties.get(name, {})
        if schema.get("contentEncoding") == "base64":
            data = _b64(name, value)
            return _binary_type(ctype, data), data
        if isinstance(value, str) and not _is_json(kind):
            return ctype, value.encode()
        return _concrete(ctype, "application/json"), _json(value)
    return _concrete(ctype, "application/json"), _json({w: v for w, (_, _, v) in fields.items()})


_FORM_KINDS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _spread(kind: str, argument: str, value: dict[str, Any], properties: dict[str, Any]
            ) -> tuple[dict[str, tuple[str, dict[str, Any], Any]], dict[str, Any]]:
    """A whole form body (a union the fields could not be taken from: Lichess'
    ``broadcast_round_create``) is its members, each a field with OpenAPI's default
    encoding: an object member of a form-urlencoded body as its JSON text (OpenAPI
    3.0.4/3.1.1 "URL Encoded Form with JSON Values"), the rest ``form``, exploded. The
    members' schemas (for file parts) are the union's inline properties."""
    members = _member_schemas(properties.get(argument), 0)
    fields: dict[str, tuple[str, dict[str, Any], Any]] = {}
    for name, item in value.items():
        where: dict[str, Any] = {"name": name}
        if kind == "application/x-www-form-urlencoded" and isinstance(item, dict):
            where["contentType"] = "application/json"
        fields[name] = (name, where, item)
    return fields, members


def _member_schemas(schema: Any, depth: int) -> dict[str, Any]:
    if not isinstance(schema, dict) or depth > 8:
        return {}
    out: dict[str, Any] = {}
    for branch in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(branch) or []:
            for name, member in _member_schemas(sub, depth + 1).items():
                out.setdefault(name, member)
    props = schema.get("properties")
    if isinstance(props, dict):
        out.update({k: v for k, v in props.items() if isinstance(v, dict)})
    return out


def _is_json(kind: str) -> bool:
    return kind in _JSON_TYPES or kind.endswith("+json") or kind in ("*/*", "application/*")


# Signatures of common binary formats: a body declared as a range (Jellyfin's `image/*`)
# is sent with the type its bytes show, so a server that dispatches on it can.
_SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
               (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"), (b"%PDF-", "application/pdf"),
               (b"PK\x03\x04", "application/zip"))


def _binary_type(ctype: str, data: bytes) -> str:
    """The Content-Type of a binary body declared as `ctype`, which may be a range.

    `*/*` says nothing: application/octet-stream. `image/*` is narrowed by the bytes'
    signature; unknown bytes keep the range itself, which is a well-formed media type
    (RFC 9110: `*` is a token character) and the one the document says it accepts,
    where application/octet-stream would be outside it."""
    kind = ctype.split(";", maxsplit=1)[0].strip().lower()
    if "*" not in kind:
        return ctype
    major = kind.split("/", 1)[0]
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        found: str | None = "image/webp"
    else:
        found = next((t for magic, t in _SIGNATURES if data.startswith(magic)), None)
    if found is not None and major in ("*", found.split("/", 1)[0]):
        return found
    return "application/octet-stream" if major == "*" else kind


def _concrete(ctype: str, fallback: str) -> str:
    """A wildcard request media type is not a Content-Type a server can parse."""
    return fallback if "*" in ctype else ctype


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _b64(argument: str, value: Any) -> bytes:
    try:
        return base64.b64decode(str(value), validate=True)
    except ValueError as exc:
        raise RequestError(f"argument '{argument}': not valid base64 ({exc})") from exc


def _form(fields: dict[str, tuple[str, dict[str, Any], Any]]) -> str:
    items: list[str] = []
    for wire, (_, where, value) in fields.items():
        if value is None:
            continue
        style = where.get("style") or "form"
        explode = bool(where.get("explode", style == "form"))
        items += _query_pairs(wire, _content_value(value, where.get("contentType")), style,
                              explode, False)
    return "&".join(items)


def _multipart(fields: dict[str, tuple[str, dict[str, Any], Any]],
               properties: dict[str, Any]) -> tuple[str, bytes]:
    parts: list[tuple[str, str, str | None, bytes]] = []   # name, type, filename, data
    for wire, (argument, where, value) in fields.items():
        if value is None:
            continue
        schema = properties.get(argument, {})
        schema = schema if isinstance(schema, dict) else {}
        # An array property is one part per item, all named alike (RFC 7578 4.3, OpenAPI
        # 3.1.1 4.8.15.3); the part type (default, or the encoding's) is the items'.
        if isinstance(value, list) and _is_array(schema):
            values, part = value, schema.get("items", {})
        else:
            values, part = [value], schema
        for item in values:
            if _is_file(part):
                kind = where.get("contentType") or "application/octet-stream"
                parts.append((wire, kind, wire, _b64(argument, item)))
            elif isinstance(item, (dict, list)):
                parts.append((wire, where.get("contentType") or "application/json", None,
                              _json(item)))
            else:
                parts.append((wire, where.get("contentType") or "text/plain", None,
                              _scalar(item).encode()))
    digest = hashlib.sha256(b"".join(p[3] for p in parts)).hexdigest()[:32]
    boundary = f"toolcat-{digest}"
    out = b""
    for name, kind, filename, data in parts:
        disposition = f'form-data; name="{_quoted(name)}"'
        if filename is not None:
            disposition += f'; filename="{_quoted(filename)}"'
        out += (f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
                f"Content-Type: {kind}\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", out


def _is_array(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def _is_file(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("contentEncoding") == "base64"


def _quoted(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace(
        "\n", "%0A")
