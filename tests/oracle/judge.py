"""The request oracle: judge raw HTTP requests against the ORIGINAL OpenAPI document.

Runs in its own venv (.venv-oracle: openapi-core 0.23.1), never imports toolcat.
Usage: ``judge.py SPEC < requests.json > verdicts.json`` (one verdict per request,
in order; see client.py for the shapes).

What it checks, for each request:
- the request path matches the declared operation's template (under a server's
  base path), every path segment non-empty; a fragment in a path key is no part
  of the request path;
- openapi-core's parameter and body validation of that operation (not its security
  check: credentials are not the binding's business);
- a required request body is present (openapi-core 0.23 does not say so itself);
- every query, header, cookie and top-level body name sent is declared (openapi-core
  ignores undeclared names, so a renamed wire name would pass it).
deepObject values, nested ones included (``a[b][0][c]=``), are read by the bracket
convention toolcat documents (deep_object.py) and then validated as any other value.
A request the test's own builder marks as carrying a value no rule writes gets class
``unserialisable`` and is counted apart, never as a pass.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import deep_object
from jsonschema_path import SchemaPath
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_core.validation.request.exceptions import (
    MissingRequestBody,
    RequestBodyValidationError,
)
from quirks import (
    drop_null_from_form_types,
    drop_parameter_read_only,
    explode_deep_objects,
    file_handler,
    inline_property_maps,
    json_family_deserializers,
    mark_form_json,
    mark_inherited_access,
)
from specload import load_document
from swagger2 import convert_swagger2
from werkzeug.datastructures import Headers, ImmutableMultiDict

# Headers any HTTP client may send that no document declares.
TRANSPORT_HEADERS = frozenset({"accept", "content-type", "content-length", "host", "user-agent",
                               "authorization", "accept-encoding", "connection"})
FRAGMENT = "%23"   # how the judge spells '#' in a path key
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class RawRequest:
    """The request protocol openapi-core reads, filled from the raw wire parts."""

    def __init__(self, req: dict[str, Any], path_vars: dict[str, str]) -> None:
        query = parse_qsl(req.get("query") or "", keep_blank_values=True)
        headers = Headers(list((req.get("headers") or {}).items()))
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(query), header=headers,
            cookie=ImmutableMultiDict(list((req.get("cookies") or {}).items())), path=path_vars)
        self.host_url = "http://oracle.invalid/"
        self.path = req["path"]
        self.method = req["method"].lower()
        self.content_type = req.get("contentType") or "application/octet-stream"
        if req.get("bodyBase64") is not None:
            self.body: bytes | None = base64.b64decode(req["bodyBase64"])
        elif req.get("body") is not None:
            self.body = req["body"].encode("utf-8")
        else:
            self.body = None


class Judge:
    def __init__(self, spec_file: Path) -> None:
        doc = load_document(spec_file)
        if str(doc.get("swagger", "")).startswith("2"):
            doc = convert_swagger2(doc)
        drop_null_from_form_types(doc)
        explode_deep_objects(doc)
        drop_parameter_read_only(doc)
        mark_inherited_access(doc)
        mark_form_json(doc, spec_file.resolve())
        deep_object.install()
        self.version = str(doc.get("openapi", "3.0.0"))
        # jsonschema-path reads '#' in a key as a fragment: spell it %23 in path keys
        doc["paths"] = {k.replace("#", FRAGMENT): v for k, v in (doc.get("paths") or {}).items()}
        doc = inline_property_maps(doc, spec_file.resolve())
        self.doc = doc
        self.base_uri = spec_file.resolve().as_uri()
        # Only files are read (never the network), through the same quirks.
        self.spec = SchemaPath.from_dict(doc, base_uri=self.base_uri,
                                         handlers={"file": file_handler})
        self.api = OpenAPI(self.spec, config=Config(
            spec_validator_cls=None,
            extra_media_type_deserializers=json_family_deserializers(doc)))
        self.bases = self._base_paths(doc.get("servers"))

    @staticmethod
    def _base_paths(servers: Any) -> list[str]:
        """Path parts of the servers (variables at their defaults), longest first."""
        out = set()
        for server in servers or [{"url": "/"}]:
            url = str(server.get("url", "/"))
            for name, var in (server.get("variables") or {}).items():
                url = url.replace("{" + name + "}", str(var.get("default", "")))
            out.add(urlsplit(url).path.rstrip("/"))
        return sorted(out, key=lambda p: (-len(p), p))

    def verdict(self, req: dict[str, Any]) -> dict[str, Any]:
        """The verdict of the operation the request names; a path key with a fragment
        (``/files/{id}#shared_link``) is the same URL as the key without it, so such
        operations are tried in turn and the first that accepts the request wins."""
        method, _, template = req["operation"].partition(" ")
        template = template.replace("#", FRAGMENT)
        paths = self.doc.get("paths") or {}
        keys = [k for k in paths if k == template or k.split(FRAGMENT, 1)[0] == template]
        keys = [k for k in sorted(keys, key=lambda k: (k != template, k))
                if method.lower() in self.spec / "paths" / k]   # follows a path item $ref
        if not keys:
            return _bad("operation", f"no operation {req['operation']} in the document")
        verdicts = [self._verdict(req, method, key) for key in keys]
        return next((v for v in verdicts if v["ok"]), verdicts[0])

    def _verdict(self, req: dict[str, Any], method: str, template: str) -> dict[str, Any]:
        req = {**req, "operation": f"{method} {template}"}
        if req["method"].upper() != method.upper():
            return _bad("operation", f"method {req['method']} sent for {req['operation']}")
        bases = self._operation_bases(template, method.lower())
        path_vars = self._match(template.split(FRAGMENT, 1)[0], req["path"], bases)
        if path_vars is None:
            return _bad("operation", f"path {req['path']!r} does not match {template} "
                        f"under any server base path {bases}")
        if req.get("unserialisable"):
            return {"ok": False, "class": "unserialisable", "errors": [req["unserialisable"]]}
        path = self.spec / "paths" / template
        operation = path / method.lower()
        request = RawRequest(req, path_vars)
        errors = [_describe(e) for e in self._errors(request, operation, path)
                  if not _empty_form_body(req, e, operation)]
        if not errors:
            errors = self._required_body(req, operation)
        if errors:
            return _bad("openapi-core", *errors)
        undeclared = self._undeclared(req, method.lower())
        if undeclared:
            return _bad("undeclared", *undeclared)
        return {"ok": True, "errors": [], "class": None}

    def _errors(self, request: RawRequest, operation: SchemaPath,
                path: SchemaPath) -> list[Exception]:
        """openapi-core's parameter and body checks; never its security check
        (credentials are not the binding's business)."""
        validator = self.api.request_validator
        errors = list(validator._iter_parameters_errors(request, operation, path))
        try:
            validator._get_body(request.body, request.content_type, operation)
        except MissingRequestBody:
            pass
        except RequestBodyValidationError as exc:
            errors.append(exc)
        return errors

    def _operation_bases(self, template: str, method: str) -> list[str]:
        """The nearest servers win: the operation's, else the path item's, else the
        document's (OpenAPI 3 `servers` at all three levels; Plex's plex.tv operations)."""
        item = self.spec / "paths" / template
        for where in (item / method, item):
            if "servers" in where:
                with (where / "servers").open() as raw:
                    return self._base_paths(raw)
        return self.bases

    def _match(self, template: str, path: str, bases: list[str]) -> dict[str, str] | None:
        names: list[str] = []

        def var(m: re.Match[str]) -> str:
            names.append(m.group(1))
            return "([^/]+)"
        pattern = re.sub(r"\\\{([^}]+)\\\}", var, re.escape(template))
        for base in bases:
            m = re.fullmatch(re.escape(base) + pattern, path)
            if m:
                return {n: unquote(v) for n, v in zip(names, m.groups(), strict=True)}
        return None

    @staticmethod
    def _required_body(req: dict[str, Any], operation: SchemaPath) -> list[str]:
        if "requestBody" not in operation:
            return []
        required = (operation / "requestBody" / "required").read_bool(default=False)
        if required and req.get("body") is None and req.get("bodyBase64") is None:
            return ["MissingRequiredRequestBody: the operation requires a request body"]
        return []

    def _undeclared(self, req: dict[str, Any], method: str) -> list[str]:
        declared = _declared_parameters(self.spec / "paths", method, req["operation"])
        errors = []
        for name, _ in parse_qsl(req.get("query") or "", keep_blank_values=True):
            # deepObject's `a[b]` is parameter `a`; a name declared with brackets
            # (Plex's `tagtype[].tag`) is itself
            base = name if name in declared["query"] else name.split("[", 1)[0]
            if base not in declared["query"] and not declared["query_open"]:
                errors.append(f"undeclared query parameter {name!r}")
        for name in req.get("headers") or {}:
            if name.lower() not in declared["header"] and name.lower() not in TRANSPORT_HEADERS:
                errors.append(f"undeclared header {name!r}")
        for name in req.get("cookies") or {}:
            if name not in declared["cookie"] and not declared["cookie_open"]:
                errors.append(f"undeclared cookie {name!r}")
        errors += self._undeclared_body(req, method, req["operation"])
        return errors

    def _undeclared_body(self, req: dict[str, Any], method: str, op: str) -> list[str]:
        names = _body_names(req)
        if not names:
            return []
        template = op.partition(" ")[2]
        content = self.spec / "paths" / template / method / "requestBody" / "content"
        ctype = (req.get("contentType") or "").split(";")[0].strip()
        media = _media_for(content, ctype)
        if media is None or "schema" not in media:
            return []
        props, is_open = _property_names(media / "schema", 0)
        if is_open:
            return []
        return [f"undeclared body field {n!r}" for n in sorted(names) if n not in props]


def _media_for(content: SchemaPath, ctype: str) -> SchemaPath | None:
    keys = list(content.keys())
    for key in keys:
        if key.split(";")[0].strip() == ctype:
            return content / key
    for key in keys:   # wildcards: */*, application/*
        major, _, minor = key.split(";")[0].strip().partition("/")
        if (major == "*" or major == ctype.split("/", maxsplit=1)[0]) and minor == "*":
            return content / key
    return None


def _property_names(schema: SchemaPath, depth: int) -> tuple[set[str], bool]:
    """Top-level property names an object schema declares (or requires), through
    allOf/oneOf/anyOf; ``open`` when names outside them are allowed (or unknown)."""
    if depth > 8:
        return set(), True
    with schema.open() as raw:
        keys = set(raw.keys()) if isinstance(raw, dict) else set()
        addl = raw.get("additionalProperties", None) if isinstance(raw, dict) else None
    names: set[str] = set()
    is_open = False
    if "properties" in keys:
        names |= set((schema / "properties").keys())
    if "required" in keys:   # a name the schema requires is declared by it, schema or not
        with (schema / "required").open() as required:
            names |= {r for r in required if isinstance(r, str)}
    if addl not in (None, False) or "patternProperties" in keys:
        is_open = True
    subs = False
    for comb in ("allOf", "oneOf", "anyOf"):
        if comb in keys:
            for sub in schema / comb:
                subs = True
                n, o = _property_names(sub, depth + 1)
                names |= n
                is_open = is_open or o
    if not names and not subs:
        return names, True   # free-form object, or not an object: nothing to compare
    return names, is_open


def _declared_parameters(paths: SchemaPath, method: str, op: str) -> dict[str, Any]:
    template = op.partition(" ")[2]
    out: dict[str, Any] = {"query": set(), "header": set(), "cookie": set(),
                           "query_open": False, "cookie_open": False}
    for where in (paths / template, paths / template / method):
        if "parameters" not in where:
            continue
        for param in where / "parameters":
            loc = param["in"]
            name = param["name"]
            if loc == "header":
                out["header"].add(name.lower())
            elif loc in ("query", "cookie"):
                out[loc].add(name)
                _add_exploded(out, loc, param)
    return out


def _add_exploded(out: dict[str, Any], loc: str, param: SchemaPath) -> None:
    """A form-style exploded object sends its property names as parameter names."""
    with param.open() as raw:
        style = raw.get("style", "form")
        explode = raw.get("explode", style == "form")
    if style != "form" or not explode or "schema" not in param:
        return
    schema = param / "schema"
    if not _may_be_object(schema, 0):
        return
    names, is_open = _property_names(schema, 0)
    out[loc] |= names
    if is_open:
        out[f"{loc}_open"] = True


def _may_be_object(schema: SchemaPath, depth: int) -> bool:
    """Whether a value of the schema may be an object, through allOf/oneOf/anyOf (openai's
    ``metadata`` query parameter is ``anyOf: [{type: object, additionalProperties: ...},
    {type: null}]``: exploded, its members are the query names)."""
    if depth > 8:
        return False
    with schema.open() as raw:
        if not isinstance(raw, dict):
            return False
        kind = raw.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind) or any(
                k in raw for k in ("properties", "additionalProperties", "patternProperties")):
            return True
        combinators = [c for c in ("allOf", "oneOf", "anyOf") if c in raw]
    return any(_may_be_object(sub, depth + 1) for c in combinators for sub in schema / c)


def _body_names(req: dict[str, Any]) -> set[str]:
    ctype = (req.get("contentType") or "").split(";")[0].strip().lower()
    body = req.get("body")
    if body is None:
        return set()
    if ctype == "application/x-www-form-urlencoded":
        return {k.split("[", 1)[0] for k, _ in parse_qsl(body, keep_blank_values=True)}
    if ctype == "application/json" or ctype.endswith("+json"):
        try:
            value = json.loads(body)
        except ValueError:
            return set()
        return set(value) if isinstance(value, dict) else set()
    return set()


def _empty_form_body(req: dict[str, Any], exc: BaseException, operation: SchemaPath) -> bool:
    """openapi-core 0.23 reads an empty body as no body (``if not body``); an empty
    form body is the form encoding of {}: accepted when the form schema requires no field."""
    if type(exc).__name__ != "MissingRequiredRequestBody" or req.get("body") != "":
        return False
    ctype = (req.get("contentType") or "").split(";")[0].strip()
    media = _media_for(operation / "requestBody" / "content", ctype)
    if media is None or "schema" not in media:
        return True
    with (media / "schema").open() as raw:
        return not (isinstance(raw, dict) and raw.get("required"))


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {str(exc)[:200]}"
    cause = exc.__cause__
    details = getattr(cause, "schema_errors", None) or getattr(exc, "schema_errors", None)
    if details:
        text = f"{type(exc).__name__}: " + "; ".join(
            f"{'/'.join(str(p) for p in e.path) or '<root>'}: {e.message[:200]}"
            for e in details[:4])
    else:
        while cause is not None:   # down to the reason (the deepObject reader's, say)
            text += f" | {type(cause).__name__}: {str(cause)[:300]}"
            cause = cause.__cause__
    return text


def _bad(cls: str, *errors: str) -> dict[str, Any]:
    return {"ok": False, "errors": list(errors), "class": cls}


def main() -> None:
    spec = Path(sys.argv[1])
    requests = json.load(sys.stdin)
    judge = Judge(spec)
    out = []
    for req in requests:
        try:
            out.append(judge.verdict(req))
        except Exception as exc:   # a crash judges one request, never the batch
            out.append(_bad("oracle-error", f"{type(exc).__name__}: {str(exc)[:500]}"))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
