"""A real HTTP server implementing an OpenAPI 3.1 document, judging every request on its own.

Independent of toolcat on purpose (it must not import `generator`): it routes by the spec's
path templates, parses path, query, header and cookie parameters itself (OpenAPI default
styles: path simple, query form explode, header simple), rejects names the operation does not
declare, checks each value and the JSON body with `jsonschema` against the ORIGINAL document,
records a verdict per request, and answers with a minimal instance of the documented response
schema. `If-Match` / `ETag` are stateful per resource path so the full-replace flow is real.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .stub_api import Arrived, Conn

SPEC_URI = "urn:spec"
METHODS = ("get", "put", "post", "delete", "patch")
# Headers HTTP itself sends; any other header must be a parameter the operation declares.
# If-Match is HTTP's own conditional header (RFC 9110): allowed on any request, and checked
# as a parameter where the operation declares it.
TRANSPORT_HEADERS = frozenset({"host", "accept", "accept-encoding", "connection", "user-agent",
                               "content-type", "content-length", "authorization", "if-match"})


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@dataclass
class Recorded:
    method: str
    target: str
    operation: str | None
    ok: bool
    errors: list[str]
    headers: dict[str, str]
    body: bytes


@dataclass
class SpecServer:
    spec_path: Path
    base_path: str = "/api/v1"
    seen: list[Recorded] = field(default_factory=list)
    etags: dict[str, int] = field(default_factory=dict)
    answer_override: dict[str, Any] = field(default_factory=dict)  # operationId -> body
    validators: dict[str, Draft202012Validator] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.spec = json.loads(self.spec_path.read_text())
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.routes = []
        for template, item in self.spec["paths"].items():
            pattern = re.sub(r"\\\{([^}]+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            for method in METHODS:
                if method in item:
                    self.routes.append((re.compile(f"^{pattern}$"), method.upper(), template))

    def validator(self, pointer: str) -> Draft202012Validator:
        if pointer not in self.validators:
            self.validators[pointer] = self._validator(pointer)
        return self.validators[pointer]

    def _validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry,
                                    format_checker=Draft202012Validator.FORMAT_CHECKER)

    # --- judging -------------------------------------------------------------------------

    def judge(self, method: str, target: str, headers: dict[str, str],
              body: bytes) -> tuple[str | None, dict[str, Any], list[str]]:
        """(operation key, path parameters, errors) for one raw request."""
        split = urlsplit(target)
        if not split.path.startswith(self.base_path + "/"):
            return None, {}, [f"path {split.path} is outside the base path {self.base_path}"]
        path = split.path[len(self.base_path):]
        for pattern, route_method, template in self.routes:
            found = pattern.match(path)
            if found and route_method == method:
                key = f"{method} {template}"
                errors = self._check(template, method.lower(), found.groupdict(), split.query,
                                     headers, body)
                return key, found.groupdict(), errors
        return None, {}, [f"no operation {method} {path}"]

    def _check(self, template: str, method: str, path_values: dict[str, str], query: str,
               headers: dict[str, str], body: bytes) -> list[str]:
        item = self.spec["paths"][template]
        op = item[method]
        base = f"/paths/{_escape(template)}/{method}"
        errors: list[str] = []
        params = {(p["name"], p["in"]): (p, f"{base}/parameters/{i}")
                  for i, p in enumerate(op.get("parameters", []))}
        received: dict[tuple[str, str], list[str]] = {}
        for name, raw in path_values.items():
            received[(name, "path")] = [unquote(raw)]
        for pair in filter(None, query.split("&")):
            name, _, raw = pair.partition("=")
            received.setdefault((unquote(name), "query"), []).append(unquote(raw))
        declared_headers = {n.lower(): n for n, where in params if where == "header"}
        for name, value in headers.items():
            if name.lower() in declared_headers:
                received[(declared_headers[name.lower()], "header")] = [value]
            elif name.lower() not in TRANSPORT_HEADERS:
                received[(name, "header")] = [value]
        for key in received:
            if key not in params:
                errors.append(f"undeclared {key[1]} parameter '{key[0]}'")
        for key, (param, pointer) in params.items():
            values = received.get(key)
            if values is None:
                if param.get("required"):
                    errors.append(f"missing required {key[1]} parameter '{key[0]}'")
                continue
            schema = param.get("schema", {})
            value: Any = [_coerce(v, schema.get("items", {})) for v in values] if (
                schema.get("type") == "array") else _coerce(values[-1], schema)
            if len(values) > 1 and schema.get("type") != "array":
                errors.append(f"{key[1]} parameter '{key[0]}' sent {len(values)} times")
            for problem in self.validator(f"{pointer}/schema").iter_errors(value):
                errors.append(f"{key[1]} parameter '{key[0]}': {problem.message}")
        errors += self._check_body(op, base, headers, body)
        return errors

    def _check_body(self, op: dict[str, Any], base: str, headers: dict[str, str],
                    body: bytes) -> list[str]:
        spec_body = op.get("requestBody")
        if spec_body is None:
            return ["a body was sent to an operation without requestBody"] if body else []
        if not body:
            return ["missing required request body"] if spec_body.get("required") else []
        ctype = headers.get("content-type", "").split(";")[0].strip()
        if ctype not in spec_body["content"]:
            return [f"content type '{ctype}' is not declared"]
        try:
            value = json.loads(body)
        except ValueError as exc:
            return [f"body is not JSON: {exc}"]
        pointer = f"{base}/requestBody/content/{_escape(ctype)}/schema"
        return [f"body {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                for e in self.validator(pointer).iter_errors(value)]

    # --- answering -----------------------------------------------------------------------

    def reply(self, key: str, method: str, resource: str,
               headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        template = key.split(" ", 1)[1]
        op = self.spec["paths"][template][method.lower()]
        version = self.etags.setdefault(resource, 1)
        if_match = headers.get("if-match")
        if if_match is not None and if_match != f'"v{version}"':
            problem = {"title": "Precondition Failed", "status": 412}
            return 412, {"Content-Type": "application/problem+json"}, json.dumps(
                problem).encode()
        if if_match is not None:
            self.etags[resource] = version = version + 1
        status = next(s for s in op["responses"] if s.startswith("2"))
        response = op["responses"][status]
        out_headers = {}
        if "ETag" in response.get("headers", {}):
            out_headers["ETag"] = f'"v{version}"'
        content = response.get("content", {}).get("application/json")
        if content is None:
            return int(status), out_headers, b""
        value = self.answer_override.get(op.get("operationId", ""))
        if value is None:
            value = minimal(self.spec, content["schema"])
        out_headers["Content-Type"] = "application/json"
        return int(status), out_headers, json.dumps(value).encode()

    # --- serving: `with StubApi(spec_server.answer) as api` ------------------------------

    def answer(self, arrived: Arrived, conn: Conn) -> None:
        """Judge one request, record the verdict, answer it (400 with the errors when bad)."""
        headers = arrived.headers
        key, _, errors = self.judge(arrived.method, arrived.target, headers, arrived.body)
        self.seen.append(Recorded(arrived.method, arrived.target, key, not errors, errors,
                                  headers, arrived.body))
        if errors or key is None:
            problem = {"title": "Bad Request", "errors": errors}
            conn.json(400, problem, headers={"Content-Type": "application/problem+json"},
                      keep_alive=True)
            return
        resource = urlsplit(arrived.target).path
        status, out, data = self.reply(key, arrived.method, resource, headers)
        conn.respond(status, data, out, keep_alive=True, media=None)


def _coerce(raw: str, schema: dict[str, Any]) -> Any:
    """A parameter's text as the JSON value its schema's type reads it as."""
    kind = schema.get("type")
    try:
        if kind == "integer":
            return int(raw)
        if kind == "number":
            return float(raw)
    except ValueError:
        return raw
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw, raw)
    return raw


def minimal(spec: dict[str, Any], schema: Any) -> Any:
    """The smallest instance of `schema` (required fields only) with plausible values."""
    if not isinstance(schema, dict):
        return None
    if "$ref" in schema:
        node: Any = spec
        for token in schema["$ref"].lstrip("#/").split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return minimal(spec, node)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    if "allOf" in schema:
        out: dict[str, Any] = {}
        for part in schema["allOf"]:
            out.update(minimal(spec, part) or {})
        return out
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return minimal(spec, schema[key][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        return {name: minimal(spec, schema["properties"][name])
                for name in schema.get("required", [])}
    if kind == "array":
        return [minimal(spec, schema.get("items", {}))
                for _ in range(schema.get("minItems", 0))]
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return True
    if kind == "string":
        if schema.get("examples"):
            return schema["examples"][0]
        if schema.get("format") == "date-time":
            return "2026-01-01T00:00:00Z"
        text = "x" * max(1, schema.get("minLength", 1))
        pattern = schema.get("pattern")
        candidates = [text, "1", "a1", "en", "eng", "2026-01-01", "00:00:00"]
        return next((c for c in candidates if pattern is None or re.search(pattern, c)), text)
    return None
