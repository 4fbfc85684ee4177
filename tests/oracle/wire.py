"""Build the HTTP request a binding implies, from the OpenAPI serialization rules.

Test code written from OpenAPI 3.1 section 4.8.12 (style values) and 4.8.14
(encoding), never from toolcat's runtime: a caller that follows the catalog's
binding literally sends exactly this. The result is a request for client.judge().
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote

UNRESERVED = "-._~"
RESERVED = ":/?#[]@!$&'()*+,;="
BOUNDARY = "oracle-boundary-7d1c"
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def text(value: Any) -> str:
    """A primitive as it appears on the wire."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return str(value)


def enc(value: str, reserved: bool = False) -> str:
    return quote(value, safe=UNRESERVED + (RESERVED if reserved else ""))


def _pairs(value: dict[str, Any]) -> list[tuple[str, str]]:
    return [(k, text(v) if not isinstance(v, (dict, list)) else json.dumps(v))
            for k, v in value.items()]


def path_value(value: Any, style: str, explode: bool, name: str) -> str:
    if isinstance(value, list):
        items = [enc(text(v)) for v in value]
        if style == "label":
            return "." + ("." if explode else ",").join(items)
        if style == "matrix":
            if explode:
                return "".join(f";{name}={v}" for v in items)
            return f";{name}=" + ",".join(items)
        return ",".join(items)
    if isinstance(value, dict):
        pairs = [(enc(k), enc(v)) for k, v in _pairs(value)]
        if explode:
            body = ("." if style == "label" else ";" if style == "matrix" else ",").join(
                f"{k}={v}" for k, v in pairs)
        else:
            body = ",".join(f"{k},{v}" for k, v in pairs)
        if style == "label":
            return "." + body
        if style == "matrix":
            return (";" + body) if explode else f";{name}={body}"
        return body
    prim = enc(text(value))
    return {"label": "." + prim, "matrix": f";{name}={prim}"}.get(style, prim)


def query_pairs(name: str, value: Any, style: str, explode: bool,
                reserved: bool) -> list[str]:
    """``k=v`` pieces of a query (or form body) parameter, already percent-encoded."""
    e = lambda s: enc(s, reserved)   # noqa: E731 - one-line helper, local on purpose
    if style == "deepObject" and isinstance(value, (dict, list)):
        return _deep(e(name), value, e)
    if isinstance(value, list):
        items = [text(v) if not isinstance(v, (dict, list)) else json.dumps(v) for v in value]
        if style == "spaceDelimited" and not explode:
            return [f"{e(name)}=" + "%20".join(e(v) for v in items)]
        if style == "pipeDelimited" and not explode:
            return [f"{e(name)}=" + "|".join(e(v) for v in items)]
        if explode:
            return [f"{e(name)}={e(v)}" for v in items]
        return [f"{e(name)}=" + ",".join(e(v) for v in items)]
    if isinstance(value, dict):
        if explode:
            return [f"{e(k)}={e(v)}" for k, v in _pairs(value)]
        return [f"{e(name)}=" + ",".join(f"{e(k)},{e(v)}" for k, v in _pairs(value))]
    return [f"{e(name)}={e(text(value))}"]


def _deep(prefix: str, value: Any, e: Any) -> list[str]:
    """deepObject by the bracket convention (OpenAPI defines one level of scalars only):
    each nested level one more ``[member]``, list items indexed from 0, null left out."""
    if isinstance(value, dict):
        members = [(e(str(k)), v) for k, v in value.items() if v is not None]
    elif isinstance(value, list):
        members = [(str(i), v) for i, v in enumerate(x for x in value if x is not None)]
    else:
        return [f"{prefix}={e(text(value))}"]
    out = []
    for k, v in members:
        out += _deep(f"{prefix}%5B{k}%5D", v, e)
    return out


def nested(value: Any) -> bool:
    """An object or list holding an object or list: no OpenAPI style writes it."""
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else []
    return any(isinstance(v, (dict, list)) for v in inner)


def _bracketed_name(value: Any) -> bool:
    """A member name the bracket convention would read as nesting, at any depth."""
    if isinstance(value, dict):
        return any("[" in str(k) or "]" in str(k) or _bracketed_name(v)
                   for k, v in value.items())
    return isinstance(value, list) and any(_bracketed_name(v) for v in value)


def _object_in_form(value: Any, style: str) -> bool:
    """A form field no rule writes: an object not under deepObject (its names would be
    spread among the other fields'), or anything nested outside deepObject."""
    if style == "deepObject":
        return False
    return isinstance(value, dict) or nested(value)


def _unserialisable(req: dict[str, Any], why: str) -> None:
    req.setdefault("unserialisable", why)


def header_value(value: Any, explode: bool) -> str:
    if isinstance(value, list):
        return ",".join(text(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" if explode else f"{k},{v}" for k, v in _pairs(value))
    return text(value)


def _base64(entry: dict[str, Any], arg: str) -> bool:
    prop = entry["tool"]["inputSchema"].get("properties", {}).get(arg, {})
    return isinstance(prop, dict) and prop.get("contentEncoding") == "base64"


def build(entry: dict[str, Any], args: dict[str, Any], base_path: str) -> dict[str, Any]:
    """The request a catalog entry's binding implies for ``args`` (valid for its inputSchema)."""
    binding = entry["binding"]
    path = binding["path"]
    unserialisable: list[str] = []
    query: list[str] = []
    headers: dict[str, str] = {}
    cookies: dict[str, str] = {}
    fields: dict[str, tuple[dict[str, Any], Any]] = {}
    whole: tuple[dict[str, Any], Any] | None = None
    for arg, raw in args.items():
        value = raw
        b = binding["arguments"].get(arg)
        if b is None:
            raise KeyError(f"argument {arg!r} has no binding")
        loc, name = b["in"], b["name"]
        if value is None and loc in ("query", "header", "cookie"):
            continue   # RFC 6570 (OpenAPI's styles): an undefined/null value is not sent
        if b.get("contentType") and loc != "body":
            value = json.dumps(value, separators=(",", ":"))
        if loc == "path":
            style = b.get("style", "simple")
            path = path.replace("{" + name + "}", path_value(value, style, b.get("explode", False),
                                                             name))
        elif loc == "query":
            style = b.get("style", "form")
            query += query_pairs(name, value, style, b.get("explode", style == "form"),
                                 b.get("allowReserved", False))
        elif loc == "header":
            headers[name] = header_value(value, b.get("explode", False))
        elif loc == "cookie":
            cookies[name] = header_value(value, False)
        elif name is None:
            whole = ({**b, "base64": _base64(entry, arg)}, value)
        else:
            fields[name] = ({**b, "base64": _base64(entry, arg)}, value)
    for arg, value in args.items():
        b = binding["arguments"][arg]
        if b.get("style") == "deepObject" and _bracketed_name(value):
            unserialisable.append(f"{arg}: a deepObject member name with a bracket")
        if b["in"] in ("query", "cookie", "header", "path") and not b.get("contentType") \
                and nested(value) and b.get("style") != "deepObject":
            unserialisable.append(f"{arg}: a nested value in a {b['in']} parameter")
    req: dict[str, Any] = {
        "method": binding["method"], "path": base_path + path, "query": "&".join(query),
        "headers": headers, "cookies": cookies, "contentType": None, "body": None,
        "operation": f"{binding['method']} {binding.get('pathKey', binding['path'])}"}
    _body(req, binding, whole, fields)
    for why in unserialisable:
        _unserialisable(req, why)
    return req


def _body(req: dict[str, Any], binding: dict[str, Any],
          whole: tuple[dict[str, Any], Any] | None,
          fields: dict[str, tuple[dict[str, Any], Any]]) -> None:
    ctype = binding.get("requestContentType")
    if ctype is None or (whole is None and not fields and not binding.get("bodyRequired")):
        return
    req["contentType"] = ctype
    media = ctype.split(";")[0].strip().lower()
    if whole is not None and media in (FORM, MULTIPART) and isinstance(whole[1], dict):
        # a union/map form body: its properties are the fields, default encoding
        # (an object member of a form-urlencoded body is its JSON text: OpenAPI 3.0.4/3.1.1
        # "URL Encoded Form with JSON Values")
        fields = {k: ({"contentType": "application/json", "base64": False}
                      if media == FORM and isinstance(v, dict)
                      else {"style": "form", "explode": True, "base64": False}, v)
                  for k, v in whole[1].items()}
        whole = None
    if whole is not None:
        _whole_body(req, media, whole[0], whole[1])
    elif media == FORM:
        pieces: list[str] = []
        for name, (b, raw) in fields.items():
            v = raw
            if "json" in str(b.get("contentType", "")) and not b.get("style"):
                v = json.dumps(raw, separators=(",", ":"))   # a field of a JSON content type
            style = b.get("style", "form")
            if _object_in_form(v, style):
                _unserialisable(req, f"{name}: an object in a form body (style {style})")
            pieces += query_pairs(name, v, style, b.get("explode", style == "form"),
                                  b.get("allowReserved", False))
        req["body"] = "&".join(pieces)
    elif media == MULTIPART:
        req["contentType"], req["bodyBase64"] = _multipart(fields)
        req["body"] = None
    else:
        req["body"] = json.dumps({n: v for n, (_, v) in fields.items()})


def _whole_body(req: dict[str, Any], media: str, b: dict[str, Any], value: Any) -> None:
    if "json" in media or media == "*/*":
        req["body"] = json.dumps(value)
    elif isinstance(value, str) and b["base64"]:
        req["bodyBase64"] = value
    elif isinstance(value, str):
        req["body"] = value
    else:
        req["body"] = json.dumps(value)


def _multipart(fields: dict[str, tuple[dict[str, Any], Any]]) -> tuple[str, str]:
    out = b""
    for name, (b, v) in fields.items():
        part_type = b.get("contentType")
        if isinstance(v, str) and b["base64"]:
            data = base64.b64decode(v)       # a file part: base64 in the arguments
        elif isinstance(v, (dict, list)):
            data, part_type = json.dumps(v).encode(), part_type or "application/json"
        else:
            data = text(v).encode()
        head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n'
        if part_type:
            head += f"Content-Type: {part_type}\r\n"
        out += head.encode() + b"\r\n" + data + b"\r\n"
    out += f"--{BOUNDARY}--\r\n".encode()
    return f"multipart/form-data; boundary={BOUNDARY}", base64.b64encode(out).decode()
