"""A small project on disk (config, spec, optional templates) for CLI tests of models."""

from __future__ import annotations

import json
from pathlib import Path

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Widgets", "version": "1"},
    "paths": {
        "/widgets": {"post": {
            "operationId": "createWidget",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NewWidget"}}}},
            "responses": {"201": {"description": "made", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Widget"}}}}}}},
        "/widgets/{id}": {"delete": {
            "operationId": "deleteWidget",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"204": {"description": "gone"}}}},
    },
    "components": {"schemas": {
        "NewWidget": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "size": {"$ref": "#/components/schemas/Size"}}},
        "Widget": {"type": "object", "required": ["id", "name"], "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
            "size": {"$ref": "#/components/schemas/Size"}}},
        "Size": {"type": "string", "enum": ["S", "M", "L"]},
    }},
}


def make_project(root: Path, *, models: bool = True, templates: dict[str, str] | None = None,
                 ) -> Path:
    """``root/toolcat.yaml`` naming ``root/api/spec.json``; returns the config path."""
    (root / "api").mkdir(parents=True, exist_ok=True)
    (root / "api" / "spec.json").write_text(json.dumps(SPEC, indent=2))
    lines = ["catalogs:", "  widgets:", "    spec: api/spec.json", "    output: out/widgets",
             f"    models: {'true' if models else 'false'}"]
    if templates is not None:
        folder = root / "templates"
        folder.mkdir(exist_ok=True)
        for name, text in templates.items():
            (folder / name).write_text(text)
        lines.append("    templates: templates")
    config = root / "toolcat.yaml"
    config.write_text("\n".join(lines) + "\n")
    return config
