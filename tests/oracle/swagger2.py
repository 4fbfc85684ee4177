"""Swagger 2.0 -> OpenAPI 3.0, written for the oracle from the two specifications.

Not toolcat's converter (which the oracle must not trust). Only what a request
judge needs: servers from basePath, parameters (with collectionFormat as
style/explode), body and formData as request bodies, responses with content.
"""

from __future__ import annotations

import copy
from typing import Any

METHODS = ("get", "put", "post", "delete", "options", "head", "patch")
SCHEMA_KEYS = ("type", "format", "items", "enum", "default", "minimum", "maximum",
               "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern",
               "minItems", "maxItems", "uniqueItems", "multipleOf")
# collectionFormat -> (style, explode) per location; tsv has no OpenAPI 3 equivalent.
COLLECTION = {"csv": ("form", False), "ssv": ("spaceDelimited", False),
              "pipes": ("pipeDelimited", False), "multi": ("form", True)}


def convert_swagger2(doc: dict[str, Any]) -> dict[str, Any]:
    doc = _retarget(copy.deepcopy(doc))
    out: dict[str, Any] = {"openapi": "3.0.3", "info": doc.get("info", {}),
                           "servers": [{"url": doc.get("basePath") or "/"}],
                           "paths": {}, "components": {"schemas": doc.get("definitions", {})}}
    consumes = doc.get("consumes") or ["application/json"]
    produces = doc.get("produces") or ["application/json"]
    for template, item in (doc.get("paths") or {}).items():
        shared = [_deref(p, doc) for p in item.get("parameters", [])]
        new_item: dict[str, Any] = {}
        for method in METHODS:
            if method in item:
                new_item[method] = _operation(item[method], shared, doc, consumes, produces)
        out["paths"][template] = new_item
    return out


def _retarget(node: Any) -> Any:
    if isinstance(node, list):
        return [_retarget(v) for v in node]
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/definitions/"):
            node = {**node, "$ref": "#/components/schemas/" + ref[len("#/definitions/"):]}
        return {k: _retarget(v) for k, v in node.items()}
    return node


def _deref(node: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = doc
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return dict(target)
    return node


def _operation(op: dict[str, Any], shared: list[dict[str, Any]], doc: dict[str, Any],
               consumes: list[str], produces: list[str]) -> dict[str, Any]:
    params = {(p["name"], p["in"]): p for p in shared}
    for ref in op.get("parameters", []):
        p = _deref(ref, doc)
        params[(p["name"], p["in"])] = p
    consumes = op.get("consumes") or consumes
    produces = op.get("produces") or produces
    new: dict[str, Any] = {"operationId": op.get("operationId"), "responses": {}}
    new["parameters"] = [_parameter(p) for p in params.values()
                         if p["in"] in ("path", "query", "header")]
    body = [p for p in params.values() if p["in"] == "body"]
    form = [p for p in params.values() if p["in"] == "formData"]
    if body:
        new["requestBody"] = {"required": bool(body[0].get("required")),
                              "content": {c: {"schema": body[0].get("schema", {})}
                                          for c in consumes}}
    elif form:
        new["requestBody"] = _form_body(form, consumes)
    for status, ref in (op.get("responses") or {}).items():
        resp = _deref(ref, doc)
        r: dict[str, Any] = {"description": resp.get("description", "")}
        if "schema" in resp:
            r["content"] = {c: {"schema": resp["schema"]} for c in produces}
        new["responses"][str(status)] = r
    return new


def _schema_of(p: dict[str, Any]) -> dict[str, Any]:
    schema = {k: p[k] for k in SCHEMA_KEYS if k in p}
    if schema.get("type") == "file":
        schema = {"type": "string", "format": "binary"}
    if isinstance(schema.get("items"), dict):
        schema["items"] = _schema_of(schema["items"])
    schema.pop("collectionFormat", None)
    return schema


def _parameter(p: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p["name"], "in": p["in"], "schema": _schema_of(p)}
    if p.get("required") or p["in"] == "path":
        out["required"] = True
    if p.get("allowEmptyValue"):
        out["allowEmptyValue"] = True
    if p.get("type") == "array":
        style, explode = COLLECTION.get(p.get("collectionFormat", "csv"), ("form", False))
        if p["in"] in ("path", "header"):
            style = "simple"
        out["style"], out["explode"] = style, explode
    return out


def _form_body(form: list[dict[str, Any]], consumes: list[str]) -> dict[str, Any]:
    multipart = any(p.get("type") == "file" for p in form) or "multipart/form-data" in consumes
    ctype = "multipart/form-data" if multipart else "application/x-www-form-urlencoded"
    schema: dict[str, Any] = {"type": "object",
                              "properties": {p["name"]: _schema_of(p) for p in form}}
    required = [p["name"] for p in form if p.get("required")]
    if required:
        schema["required"] = required
    return {"required": bool(required), "content": {ctype: {"schema": schema}}}
