"""Work-arounds for openapi-core 0.23 crashes, each neutral on the wire.

The judge's copy of the document is adjusted only where openapi-core would crash
(an ``oracle-error``, which is never a verdict) and only where the adjustment admits
exactly the same requests:

- A form or multipart body property typed ``[T, "null"]`` (OpenAPI 3.1; Discord's
  ``create_guild_sticker`` ``description``) makes openapi-core's media-type decoder
  read ``type`` as a string and raise ``TypeError: Expected a string value, got
  <class 'list'>`` for every request, sent or not. A form field is text: a null is not
  sent at all (there is no encoding of null in a form part), so ``T`` alone admits the
  same bodies. Only inline properties of inline media schemas are touched; a
  referenced schema may serve a JSON body too, where null does travel.
- A ``deepObject`` parameter without ``explode`` (Plex's ``prefs``) has ``explode:
  false`` by default, a combination OpenAPI's style table leaves undefined ("n/a"):
  openapi-core refuses it with ``DeserializeError`` on every request, the parameter
  sent or not. ``a[b]=c`` is the only serialization deepObject has, so the judge reads
  such a parameter as ``explode: true``.
- ``style: deepObject`` on a schema that is not an object (Stripe's ``expand``, an
  array; ``created``, anyOf object/integer; the same in form-body ``encoding``), and
  nested values under deepObject, have no serialization in OpenAPI; openapi-core
  refused every request of such an operation. The judge reads every deepObject by the
  bracket convention toolcat documents (``deep_object.py``), so these are judged too.
- ``readOnly`` on a parameter's own schema (Cloudflare's ``account_id``, a schema also
  used as a readOnly property): OpenAPI 3.0 says readOnly concerns properties only, but
  openapi-core refused any value of such a parameter ("Tried to write read-only
  property"), the document's own examples included. The judge's copy of a parameter
  schema drops readOnly at its top (through local references and anyOf/oneOf/allOf
  branches, copied so the shared schema stays as it is for bodies).
- A required property that is readOnly through its ``$ref`` or an ``allOf`` part
  (Cloudflare's ``modified_on: {$ref: ...modified_on}``, ``id: {allOf: [{$ref: ...},
  {readOnly: true}]}``): OpenAPI 3.0 says such a ``required`` takes effect on the
  response only, and openapi-core 0.23 honours that only when readOnly stands on the
  property's own schema (``prop_schema.get("readOnly")``), so it demanded ``id``,
  ``version``, ``modified_on`` in requests. The judge writes the flag the property
  already has through its reference beside it (writeOnly likewise, for responses):
  the value's own checks are the same, only the required-skip now sees it. A name
  required beside ``oneOf`` branches that declare it readOnly in every branch
  (Cloudflare's DNS record requires ``created_on`` at the union) gets a
  ``{readOnly: true}`` property beside the requirement, for the same reason.
- readOnly on an array's ``items`` (Cloudflare's vectorize ``ids``, items referencing
  an identifier that is a readOnly property elsewhere): OpenAPI 3.0 says readOnly is
  relevant for properties only, but openapi-core refused every item ("Tried to write
  read-only property"). The judge drops readOnly from the top of an ``items`` schema,
  on a copy, as for parameters.
- An object field of a form-urlencoded body whose encoding has no ``style``,
  ``explode`` or ``allowReserved`` is its JSON text (OpenAPI 3.0.4 4.7.15.2.1 and 3.1.1
  4.8.15.2.1, "URL Encoded Form with JSON Values": such an Encoding Object is the
  equivalent of ``content`` with its ``contentType``, application/json for an object),
  where openapi-core 0.23 reads every such field as ``style: form`` (3.0.3's wording).
  The judge spells the default out, ``encoding: {field: {contentType:
  application/json}}`` (Lichess' ``grouping``), which openapi-core then decodes as JSON.
- ``properties: {$ref: "attributes.yml#/load_balancer_droplet_tag"}`` (DigitalOcean):
  a JSON Reference standing for a whole properties map, which JSON Reference replaces
  by the map (toolcat reads it so too). jsonschema's ``referencing`` takes it for a
  property named ``$ref`` whose schema is a string and raised ``AttributeError: 'str'
  object has no attribute 'get'`` on a third of DigitalOcean's requests. Every file the
  judge reads has such maps inlined, their own references made absolute.
- A body under a media type openapi-core does not know as JSON comes back as bytes,
  and every JSON schema refuses bytes (``b'{}' is not of type 'object'``): Swagger 2.0's
  ``consumes: */*`` (Kubernetes' create, replace and delete: openapi-core looks the
  deserializer up by the document's key, ``*/*``, not by the request's
  ``application/json``) and the ``+json`` types (Kubernetes' ``merge-patch+json``). The
  judge reads a ``+json`` body as JSON, and a ``*/*`` body as JSON when it is a JSON
  object or array (bytes otherwise, as before: a binary upload under ``*/*`` is judged
  as bytes still). Only the deserializer is supplied; the schema judges the value.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from specload import read_file

FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def drop_null_from_form_types(doc: dict[str, Any]) -> None:
    """``type: [T, "null"]`` -> ``type: T`` on inline form/multipart body properties."""
    for item in (doc.get("paths") or {}).values():
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            op = item.get(method)
            body = op.get("requestBody") if isinstance(op, dict) else None
            content = body.get("content") if isinstance(body, dict) else None
            for media, entry in (content or {}).items():
                if media.split(";")[0].strip().lower() in FORM_TYPES and isinstance(entry, dict):
                    _drop_null(entry.get("schema"))


def _drop_null(schema: Any) -> None:
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    for prop in (schema.get("properties") or {}).values():
        kinds = prop.get("type") if isinstance(prop, dict) else None
        if isinstance(kinds, list) and "null" in kinds:
            rest = [k for k in kinds if k != "null"]
            if len(rest) == 1:
                prop["type"] = rest[0]


def explode_deep_objects(doc: dict[str, Any]) -> None:
    """``style: deepObject`` without ``explode`` -> ``explode: true``, wherever declared."""
    for param in _parameters(doc):
        if param.get("style") == "deepObject" and "explode" not in param:
            param["explode"] = True


def _parameters(doc: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(((doc.get("components") or {}).get("parameters") or {}).values())
    for item in (doc.get("paths") or {}).values():
        if not isinstance(item, dict):
            continue
        found += item.get("parameters") or []
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                found += op.get("parameters") or []
    return [p for p in found if isinstance(p, dict)]


def file_handler(uri: str) -> Any:
    """jsonschema-path's handler for ``file:`` references, with property maps inlined
    (and the form-body JSON fields of a path item kept in another file spelled out)."""
    path = Path(unquote(urlsplit(uri).path))
    content = read_file(path)
    mark_form_json(content, path)
    return inline_property_maps(content, path)


def mark_form_json(root: Any, here: Path) -> None:
    """``encoding: {field: {contentType: application/json}}`` for each object field of
    a form-urlencoded body that has no ``style``/``explode``/``allowReserved`` (nor a
    content type) in its encoding: what OpenAPI 3.0.4/3.1.1 say such a field is."""
    for node in _every_dict(root):
        media = node.get(FORM_TYPES[1])
        if isinstance(media, dict) and "schema" in media:
            _form_json_fields(media, root, here)


def _every_dict(root: Any) -> Iterator[dict[str, Any]]:
    """Every dict in a JSON tree, depth first (the caller may change a dict's values
    before its children are visited)."""
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            yield node
            stack.extend(node.values())


def _form_json_fields(media: dict[str, Any], root: Any, here: Path) -> None:
    schema, at, where = _resolve(media["schema"], root, here)
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return
    encoding = media.get("encoding") if isinstance(media.get("encoding"), dict) else {}
    for name, prop in props.items():
        entry = encoding.get(name) if isinstance(encoding.get(name), dict) else {}
        if any(k in entry for k in ("style", "explode", "allowReserved", "contentType")):
            continue
        target = _resolve(prop, at, where)[0]
        if isinstance(target, dict) and target.get("type") == "object":
            encoding = {**encoding, name: {**entry, "contentType": "application/json"}}
            media["encoding"] = encoding


def _resolve(node: Any, root: Any, here: Path) -> tuple[Any, Any, Path]:
    """``node`` with ``$ref``s followed, local ones in ``root`` (the file ``here``)."""
    for _ in range(8):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str) or ("://" in ref and not ref.startswith("file:")):
            break
        if ref.startswith("file:"):
            target, pointer = Path(unquote(urlsplit(ref).path)), urlsplit(ref).fragment
        else:
            target, pointer = _target(ref, here)
        if target != here:
            root, here = read_file(target), target
        node = root
        for raw in [p for p in pointer.split("/") if p]:
            node = node.get(raw.replace("~1", "/").replace("~0", "~")) \
                if isinstance(node, dict) else None
    return node, root, here


def inline_property_maps(node: Any, here: Path) -> Any:
    """``properties: {"$ref": "f.yml#/p"}`` replaced by the map it points to."""
    if isinstance(node, list):
        return [inline_property_maps(v, here) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: inline_property_maps(v, here) for k, v in node.items()}
    props = node.get("properties")
    if isinstance(props, dict) and list(props) == ["$ref"] and isinstance(props["$ref"], str):
        target, pointer = _target(props["$ref"], here)
        value = read_file(target)
        for raw in [p for p in pointer.split("/") if p]:
            value = value[raw.replace("~1", "/").replace("~0", "~")]
        out["properties"] = _absolute(inline_property_maps(value, target), target)
    return out


def _target(ref: str, here: Path) -> tuple[Path, str]:
    file_part, _, pointer = ref.partition("#")
    return ((here.parent / file_part).resolve() if file_part else here), pointer


def _absolute(node: Any, source: Path) -> Any:
    """References of content moved out of ``source`` still point where they did."""
    if isinstance(node, list):
        return [_absolute(v, source) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _absolute(v, source) for k, v in node.items()}
    ref = node.get("$ref")
    if isinstance(ref, str) and "://" not in ref:
        target, pointer = _target(ref, source)
        out["$ref"] = f"{target.as_uri()}#{pointer}"
    return out


def _local(doc: dict[str, Any], node: Any) -> dict[str, Any]:
    """``node`` with local ``#/...`` references followed (the object itself, not a copy)."""
    for _ in range(16):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        target: Any = doc
        for raw in ref[2:].split("/"):
            target = target.get(raw.replace("~1", "/").replace("~0", "~"), {}) \
                if isinstance(target, dict) else {}
        node = target
    return node if isinstance(node, dict) else {}


def drop_parameter_read_only(doc: dict[str, Any]) -> None:
    """A parameter's schema without readOnly at its top (a copy where it was shared)."""
    for param in _parameters(doc):
        if isinstance(param.get("schema"), dict):
            param["schema"] = _without_read_only(doc, param["schema"], 0)


def _without_read_only(doc: dict[str, Any], schema: dict[str, Any], depth: int) -> Any:
    if depth > 4:
        return schema
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**copy.deepcopy(_local(doc, schema)), **rest}
    out = {k: v for k, v in schema.items() if k != "readOnly"}
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(out.get(key), list):
            out[key] = [_without_read_only(doc, s, depth + 1) if isinstance(s, dict) else s
                        for s in out[key]]
    return out


ACCESS_FLAGS = ("readOnly", "writeOnly")


def mark_inherited_access(doc: dict[str, Any]) -> None:
    """Properties readOnly/writeOnly through a local ``$ref`` or ``allOf`` part say so
    beside it; ``items`` lose a readOnly at their top (a copy). Every schema of the
    document, at any depth (a dict that is not a schema is left as it is unless it has
    the same keys, which changes no verdict: examples are not judged)."""
    for node in _every_dict(doc):
        _mark_union_required(doc, node)
        props = node.get("properties")
        if isinstance(props, dict):
            for prop in props.values():
                if isinstance(prop, dict):
                    for flag in ACCESS_FLAGS:
                        if flag not in prop and _says(doc, prop, flag, 0):
                            prop[flag] = True
        items = node.get("items")
        if isinstance(items, dict) and _top_read_only(doc, items, 0):
            node["items"] = _without_read_only(doc, items, 0)


def _mark_union_required(doc: dict[str, Any], node: dict[str, Any]) -> None:
    """A name required beside allOf/oneOf/anyOf parts, declared only inside them and
    readOnly (writeOnly) wherever declared: a ``{readOnly: true}`` property beside it,
    which refuses a written value as the parts do and lets the required-skip see it."""
    required = node.get("required")
    if not isinstance(required, list) or not any(k in node for k in ("allOf", "oneOf",
                                                                      "anyOf")):
        return
    own = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    for name in required:
        if not isinstance(name, str) or name in own:
            continue
        found = [d for key in ("allOf", "oneOf", "anyOf")
                 for part in (node.get(key) if isinstance(node.get(key), list) else [])
                 for d in _declaring(doc, part, name, 0)]
        for flag in ACCESS_FLAGS:
            if found and all(_says(doc, d, flag, 0) for d in found):
                node.setdefault("properties", {})[name] = {flag: True}
                own = node["properties"]


def _declaring(doc: dict[str, Any], schema: Any, name: str, depth: int) -> list[Any]:
    """The property schemas called ``name`` in ``schema`` and its parts."""
    if depth > 8 or not isinstance(schema, dict):
        return []
    if isinstance(schema.get("$ref"), str):
        return _declaring(doc, _local(doc, schema), name, depth + 1)
    props = schema.get("properties")
    found = [props[name]] if isinstance(props, dict) and name in props else []
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key) if isinstance(schema.get(key), list) else []:
            found += _declaring(doc, part, name, depth + 1)
    return found


def _says(doc: dict[str, Any], schema: Any, flag: str, depth: int) -> bool:
    """``schema`` is ``flag`` itself, through local references, or in an allOf part."""
    if depth > 8 or not isinstance(schema, dict):
        return False
    if flag in schema:
        return schema[flag] is True
    if isinstance(schema.get("$ref"), str):
        return _says(doc, _local(doc, schema), flag, depth + 1)
    parts = schema.get("allOf")
    return isinstance(parts, list) and any(_says(doc, p, flag, depth + 1) for p in parts)


def _top_read_only(doc: dict[str, Any], schema: Any, depth: int) -> bool:
    """readOnly where ``_without_read_only`` would drop it."""
    if depth > 4 or not isinstance(schema, dict):
        return False
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        schema = {**_local(doc, schema), **{k: v for k, v in schema.items() if k != "$ref"}}
    if schema.get("readOnly") is True:
        return True
    return any(_top_read_only(doc, s, depth + 1) for key in ("anyOf", "oneOf", "allOf")
               for s in (schema.get(key) if isinstance(schema.get(key), list) else []))


def json_family_deserializers(doc: dict[str, Any]) -> dict[str, Any]:
    """Deserializers for the document's ``+json`` and ``*/*`` body media types."""
    found: dict[str, Any] = {}
    for media in _body_media_types(doc):
        if media == "*/*":
            found[media] = _json_object_or_bytes
        elif media.split(";")[0].strip().endswith("+json"):
            found[media] = _json
    return found


def _body_media_types(doc: dict[str, Any]) -> set[str]:
    bodies = list(((doc.get("components") or {}).get("requestBodies") or {}).values())
    for item in (doc.get("paths") or {}).values():
        if isinstance(item, dict):
            bodies += [op.get("requestBody") for op in item.values() if isinstance(op, dict)]
    return {media for body in bodies if isinstance(body, dict)
            and isinstance(body.get("content"), dict) for media in body["content"]}


def _json(value: bytes, **parameters: str) -> Any:
    return json.loads(value)


def _json_object_or_bytes(value: bytes, **parameters: str) -> Any:
    try:
        parsed = json.loads(value)
    except ValueError:
        return value
    return parsed if isinstance(parsed, (dict, list)) else value
