"""Convert a loaded, validated Swagger 2.0 document into OpenAPI 3.0.3.

``$ref`` strings are rewritten, never resolved; only local parameter references
are looked up, to learn whether they carry a request body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..vocab.pointers import pointer, unescape_token

__all__ = ["convert", "original_pointer"]

_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch"})
_PAYLOAD_LOCATIONS = frozenset({"body", "formData"})
_SCHEMA_KEYS = frozenset(
    {
        "type", "format", "items", "enum", "default", "minimum", "maximum",
        "pattern", "minLength", "maxLength", "minItems", "maxItems",
        "uniqueItems", "multipleOf", "exclusiveMinimum", "exclusiveMaximum",
    }
)  # fmt: skip
_SUBSCHEMA_KEYS = frozenset({"items", "additionalProperties", "not"})
_SCHEMA_LIST_KEYS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})  # load/repairs.py
_SCHEMA_MAP_KEYS = frozenset({"properties", "patternProperties"})
_MULTIPART = "multipart/form-data"
_URLENCODED = "application/x-www-form-urlencoded"
_DEFAULT_MEDIA = ["application/json"]
# Swagger collectionFormat on query/form fields -> OpenAPI 3 (style, explode).
_QUERY_STYLES = {
    "csv": ("form", False), "multi": ("form", True), "ssv": ("spaceDelimited", False),
    "pipes": ("pipeDelimited", False), "tsv": ("form", False),
}  # fmt: skip
# Swagger oauth2 flow -> (OpenAPI 3 flow name, URL keys that flow needs).
_OAUTH_FLOWS = {
    "implicit": ("implicit", ("authorizationUrl",)), "password": ("password", ("tokenUrl",)),
    "application": ("clientCredentials", ("tokenUrl",)),
    "accessCode": ("authorizationCode", ("authorizationUrl", "tokenUrl")),
}  # fmt: skip
_REF_PREFIXES = (
    ("/definitions/", "/components/schemas/"), ("/responses/", "/components/responses/"),
)  # fmt: skip
_PARAM_PREFIX = "/parameters/"


@dataclass(frozen=True)
class _Ctx:
    params: dict[str, Any]
    consumes: list[str]
    produces: list[str]
    body_names: frozenset[str]
    host: str | None
    base_path: str


def convert(doc: dict[str, Any]) -> dict[str, Any]:
    """Return an OpenAPI 3.0.3 equivalent of the Swagger 2.0 ``doc``.

    The input is never modified; the result shares no containers with it.
    """
    ctx = _context(doc)
    out: dict[str, Any] = {"openapi": "3.0.3"}
    components: dict[str, Any] = {}
    for key, value in doc.items():
        if key in ("host", "basePath", "schemes"):
            out.setdefault("servers", _servers(ctx, doc.get("schemes")))
        elif key in ("definitions", "parameters", "responses", "securityDefinitions"):
            out.setdefault("components", components)
            _add_components(components, key, value, ctx)
        elif key == "paths" and isinstance(value, dict):
            out[key] = {p: _path_item(i, ctx) for p, i in value.items()}
        elif key not in ("swagger", "consumes", "produces"):
            out[key] = value
    result: dict[str, Any] = _rewrite_refs(out, ctx.body_names)
    return result


def _context(doc: dict[str, Any]) -> _Ctx:
    params = doc.get("parameters")
    params = params if isinstance(params, dict) else {}
    body_names = frozenset(
        name for name, p in params.items() if isinstance(p, dict) and p.get("in") == "body"
    )
    return _Ctx(
        params=params,
        consumes=list(doc.get("consumes") or _DEFAULT_MEDIA),
        produces=list(doc.get("produces") or _DEFAULT_MEDIA),
        body_names=body_names,
        host=doc.get("host"),
        base_path=doc.get("basePath") or "",
    )


def _servers(ctx: _Ctx, schemes: list[str] | None) -> list[dict[str, Any]]:
    if not ctx.host:
        return [{"url": ctx.base_path or "/"}]
    scheme = schemes[0] if schemes else "https"
    # A bare "/" basePath would make every operation URL start with "//".
    return [{"url": f"{scheme}://{ctx.host}{ctx.base_path.rstrip('/')}"}]


def _add_components(components: dict[str, Any], key: str, value: Any, ctx: _Ctx) -> None:
    if not isinstance(value, dict):
        return
    if key == "definitions":
        components["schemas"] = {n: _schema(s) for n, s in value.items()}
    elif key == "responses":
        components["responses"] = {n: _response(r, ctx.produces) for n, r in value.items()}
    elif key == "securityDefinitions":
        components["securitySchemes"] = {n: _security(s) for n, s in value.items()}
    else:
        _add_parameter_components(components, value, ctx)


def _add_parameter_components(
    components: dict[str, Any], params: dict[str, Any], ctx: _Ctx
) -> None:
    # formData parameters have no OpenAPI 3 component form; operations that
    # reference them get the field inlined into their request body instead.
    for name, param in params.items():
        location = param.get("in") if isinstance(param, dict) else None
        if location == "body":
            section = components.setdefault("requestBodies", {})
            section[name] = _body_request(param, ctx.consumes)
        elif location != "formData":
            components.setdefault("parameters", {})[name] = _plain_parameter(param)


def _security(scheme: Any) -> Any:
    if not isinstance(scheme, dict):
        return scheme
    out: dict[str, Any] = {}
    for key, value in scheme.items():
        if key == "type" and value == "basic":
            out.update(type="http", scheme="basic")
        elif key == "flow":
            name, url_keys = _OAUTH_FLOWS.get(value, (value, ()))
            flow = {k: scheme[k] for k in url_keys if k in scheme}
            out["flows"] = {name: {**flow, "scopes": scheme.get("scopes") or {}}}
        elif key not in ("authorizationUrl", "tokenUrl", "scopes"):
            out[key] = value
    return out


def _path_item(item: Any, ctx: _Ctx) -> Any:
    if not isinstance(item, dict):
        return item
    path_params = item.get("parameters") or []
    out: dict[str, Any] = {}
    for key, value in item.items():
        if key == "parameters":
            # Payload parameters cannot live at path level in OpenAPI 3; they
            # are folded into each operation's requestBody below.
            kept = [_plain_parameter(p) for p in value if not _is_payload(p, ctx)]
            if kept:
                out[key] = kept
        elif key in _METHODS and isinstance(value, dict):
            out[key] = _operation(value, path_params, ctx)
        else:
            out[key] = value
    return out


def _operation(op: dict[str, Any], path_params: list[Any], ctx: _Ctx) -> dict[str, Any]:
    consumes = list(op.get("consumes") or ctx.consumes)
    produces = list(op.get("produces") or ctx.produces)
    op_params = op.get("parameters") or []
    params = [_plain_parameter(p) for p in op_params if not _is_payload(p, ctx)]
    body = _request_body(path_params, op_params, consumes, ctx)
    out: dict[str, Any] = {}
    for key, value in op.items():
        if key == "parameters":
            _put_inputs(out, params, body)
        elif key == "responses" and isinstance(value, dict):
            out[key] = {
                str(code): r if str(code).startswith("x-") else _response(r, produces)
                for code, r in value.items()
            }
        elif key == "schemes" and ctx.host:
            out["servers"] = _servers(ctx, value)
        elif key not in ("consumes", "produces", "schemes"):
            out[key] = value
    if "parameters" not in op:
        _put_inputs(out, params, body)
    return out


def _put_inputs(out: dict[str, Any], params: list[Any], body: dict[str, Any] | None) -> None:
    if params:
        out["parameters"] = params
    if body is not None:
        out["requestBody"] = body


def _request_body(
    path_params: list[Any], op_params: list[Any], consumes: list[str], ctx: _Ctx
) -> dict[str, Any] | None:
    # OpenAPI's override rule: an operation parameter replaces a path-level
    # one with the same (name, in).
    merged: dict[tuple[str, str], tuple[Any, dict[str, Any]]] = {}
    for param in [*path_params, *op_params]:
        resolved = _resolve(param, ctx)
        key = (str(resolved.get("name", resolved.get("$ref"))), str(resolved.get("in")))
        merged[key] = (param, resolved)
    bodies = [(p, r) for p, r in merged.values() if r.get("in") == "body"]
    if bodies:
        param, resolved = bodies[-1]
        if "$ref" in param and consumes == ctx.consumes:
            return {"$ref": param["$ref"]}
        return _body_request(resolved, consumes)
    fields = [r for _, r in merged.values() if r.get("in") == "formData"]
    return _form_request(fields, consumes) if fields else None


def _resolve(param: Any, ctx: _Ctx) -> dict[str, Any]:
    if not isinstance(param, dict):
        return {}
    ref = param.get("$ref")
    if isinstance(ref, str) and ref.startswith("#" + _PARAM_PREFIX):
        target = ctx.params.get(_unescape(ref[len(_PARAM_PREFIX) + 1 :]))
        if isinstance(target, dict):
            return target
    return param


def _is_payload(param: Any, ctx: _Ctx) -> bool:
    return _resolve(param, ctx).get("in") in _PAYLOAD_LOCATIONS


def _unescape(token: str) -> str:
    return unescape_token(unquote(token))


def _plain_parameter(param: Any) -> Any:
    if not isinstance(param, dict) or "$ref" in param:
        return param
    return _parameter(param)


def _parameter(param: dict[str, Any], location: str | None = None) -> dict[str, Any]:
    """Convert a non-body parameter, or a response header when ``location`` is given."""
    location = location or param.get("in", "")
    out: dict[str, Any] = {}
    schema: dict[str, Any] = {}
    for key, value in param.items():
        if key in _SCHEMA_KEYS:
            out.setdefault("schema", schema)
            schema[key] = value
        elif key != "collectionFormat":
            out[key] = value
    if schema:
        out["schema"] = _schema(_items_schema(schema))
    out.update(_style(param, location))
    return out


def _style(param: dict[str, Any], location: str) -> dict[str, Any]:
    fmt = param.get("collectionFormat")
    if fmt is None and param.get("type") == "array":
        fmt = "csv"  # Swagger's default, which differs from OpenAPI 3's query default
    if fmt is None:
        return {}
    form_like = location in ("query", "formData")
    style, explode = _QUERY_STYLES.get(fmt, ("form", False)) if form_like else ("simple", False)
    out: dict[str, Any] = {"style": style, "explode": explode}
    exact = fmt == "csv" or (form_like and fmt in ("multi", "ssv", "pipes"))
    if not exact:
        out["x-collectionFormat"] = fmt
    return out


def _items_schema(schema: dict[str, Any]) -> dict[str, Any]:
    # Nested array items may carry their own collectionFormat, which OpenAPI 3
    # cannot express; keep it as an extension instead of dropping it.
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "items" and isinstance(value, dict):
            out[key] = _items_schema(value)
        else:
            out["x-collectionFormat" if key == "collectionFormat" else key] = value
    return out


def _body_request(param: dict[str, Any], consumes: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in param.items():
        if key == "schema":
            schema = _schema(value)
            out["content"] = {media: {"schema": schema} for media in consumes}
        elif key in ("description", "required") or key.startswith("x-"):
            out[key] = value
        elif key == "name":
            # OpenAPI 3 request bodies are nameless; code generators read this.
            out["x-codegen-request-body-name"] = value
    return out


def _form_request(fields: list[dict[str, Any]], consumes: list[str]) -> dict[str, Any]:
    properties = {f["name"]: _form_property(f) for f in fields}
    required = [f["name"] for f in fields if f.get("required")]
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    encoding = {
        f["name"]: _style(f, "formData")
        for f in fields
        if "collectionFormat" in f or f.get("type") == "array"
    }
    has_file = any(f.get("type") == "file" for f in fields)
    content: dict[str, Any] = {}
    for media in _form_media_types(consumes, has_file):
        content[media] = {"schema": schema}
        if encoding and media.startswith(_URLENCODED):
            content[media]["encoding"] = encoding
    out: dict[str, Any] = {"content": content}
    if required:
        out["required"] = True
    return out


def _form_media_types(consumes: list[str], has_file: bool) -> list[str]:
    listed = [m for m in consumes if m.startswith((_MULTIPART, _URLENCODED))]
    if not listed:
        return [_MULTIPART if has_file else _URLENCODED]
    if has_file and not any(m.startswith(_MULTIPART) for m in listed):
        return [_MULTIPART, *listed]
    return listed


def _form_property(field: dict[str, Any]) -> Any:
    prop = {
        k: v
        for k, v in field.items()
        if k in _SCHEMA_KEYS or k == "description" or k.startswith("x-")
    }
    return _schema(_items_schema(prop))


def _response(resp: Any, produces: list[str]) -> Any:
    if not isinstance(resp, dict) or isinstance(resp.get("$ref"), str):
        return resp
    examples = resp.get("examples")
    examples = examples if isinstance(examples, dict) else {}
    schema = _schema(resp["schema"]) if "schema" in resp else None
    content: dict[str, Any] = {m: {"schema": schema} for m in produces} if "schema" in resp else {}
    for media, example in examples.items():
        entry = content.setdefault(media, {} if schema is None else {"schema": schema})
        entry["example"] = example
    out: dict[str, Any] = {}
    for key, value in resp.items():
        if key in ("schema", "examples"):
            if content:
                out.setdefault("content", content)
        elif key == "headers" and isinstance(value, dict):
            out[key] = {name: _parameter(h, "header") for name, h in value.items()}
        else:
            out[key] = value
    return out


def _schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "x-nullable":
            out["nullable"] = value
        elif key == "type" and value == "file":
            out.update(type="string", format="binary")
        elif key == "discriminator" and isinstance(value, str):
            out[key] = {"propertyName": value}
        elif key in _SUBSCHEMA_KEYS or key in _SCHEMA_LIST_KEYS:
            out[key] = _schema(value)
        elif key in _SCHEMA_MAP_KEYS and isinstance(value, dict):
            # Keys here are property names (Kubernetes has one called "$ref").
            out[key] = {name: _schema(s) for name, s in value.items()}
        else:
            out[key] = value
    if out.get("nullable") is True and isinstance(out.get("$ref"), str):
        # OpenAPI 3.0 ignores siblings of $ref, so nullable must wrap it.
        rest = {k: v for k, v in out.items() if k != "$ref"}
        return {"allOf": [{"$ref": out["$ref"]}], **rest}
    return out


def _rewrite_refs(node: Any, body_names: frozenset[str]) -> Any:
    """Copy ``node`` deeply, rewriting every string-valued ``$ref``."""
    if isinstance(node, dict):
        return {
            k: _rewrite_ref(v, body_names)
            if k == "$ref" and isinstance(v, str)
            else _rewrite_refs(v, body_names)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_rewrite_refs(v, body_names) for v in node]
    return node


def _rewrite_ref(ref: str, body_names: frozenset[str]) -> str:
    file_part, hash_sign, fragment = ref.partition("#")
    if not hash_sign:
        return ref
    for old, new in _REF_PREFIXES:
        if fragment.startswith(old):
            return f"{file_part}#{new}{fragment[len(old) :]}"
    if fragment.startswith(_PARAM_PREFIX):
        name = fragment[len(_PARAM_PREFIX) :]
        # Body-ness is only knowable for this document's own parameters.
        local_body = not file_part and _unescape(name) in body_names
        section = "requestBodies" if local_body else "parameters"
        return f"{file_part}#/components/{section}/{name}"
    return ref


# -- where a problem found in the converted document is in the user's file ----------
_BACK = (("/components/schemas/", "/definitions/"), ("/components/responses/", "/responses/"),
         ("/components/securitySchemes/", "/securityDefinitions/"),
         ("/components/parameters/", "/parameters/"))


def original_pointer(doc: dict[str, Any], ptr: str) -> str:
    """The pointer in the Swagger 2.0 ``doc`` of what ``convert(doc)`` holds at ``ptr``
    (issue 28 item 8): ``/components/schemas/D/...`` is ``/definitions/D/...``, a
    response's ``content/<type>/schema`` its ``schema``, a request body or a parameter's
    ``schema`` the parameter it came from, at its index in the user's list. A pointer
    the conversion did not move is returned as it is."""
    for new, old in _BACK:
        if ptr.startswith(new):
            return old + ptr[len(new):]
    tokens = [unescape_token(t) for t in ptr.split("/")[1:]] if ptr.startswith("/") else []
    if ptr.startswith("/components/requestBodies/") and len(tokens) > 2:
        return _pointer_of(["parameters", tokens[2], *_after_body(tokens[3:])])
    if len(tokens) < 4 or tokens[0] != "paths":
        return ptr
    item = (doc.get("paths") or {}).get(tokens[1])
    if not isinstance(item, dict):
        return ptr
    head, rest = tokens[:2], tokens[2:]
    if rest[0] in _METHODS and isinstance(item.get(rest[0]), dict):
        head, rest, node = [*head, rest[0]], rest[1:], item[rest[0]]
    else:
        node = item
    moved = _moved(node, rest)
    return ptr if moved is None else _pointer_of([*head, *moved])


def _moved(node: dict[str, Any], rest: list[str]) -> list[str] | None:
    """Tokens after an operation (or path item) in the user's file, or None."""
    params: list[Any] = node["parameters"] if isinstance(node.get("parameters"), list) else []
    if rest[0] == "responses" and len(rest) > 4 and rest[2] == "content":
        return ["responses", rest[1], *rest[4:]]
    if rest[0] == "parameters" and len(rest) > 1 and rest[1].isdigit():
        kept = [i for i, p in enumerate(params)
                if not (isinstance(p, dict) and p.get("in") in _PAYLOAD_LOCATIONS)]
        at = int(rest[1])
        if at < len(kept):
            tail = rest[3:] if rest[2:3] == ["schema"] else rest[2:]
            return ["parameters", str(kept[at]), *tail]
    if rest[0] == "requestBody" and len(rest) > 4 and rest[1] == "content":
        inside = rest[4:]
        for i, p in enumerate(params):
            if isinstance(p, dict) and p.get("in") == "body":
                return ["parameters", str(i), "schema", *inside]
            if isinstance(p, dict) and p.get("in") == "formData" and inside[:2] == [
                    "properties", p.get("name")]:
                return ["parameters", str(i), *inside[2:]]
    return None


def _after_body(tokens: list[str]) -> list[str]:
    """A request body component's ``content/<type>/schema/...`` is its ``schema/...``."""
    return ["schema", *tokens[3:]] if tokens[:1] == ["content"] and len(tokens) > 2 else []


def _pointer_of(tokens: list[str]) -> str:
    return pointer(*tokens)
