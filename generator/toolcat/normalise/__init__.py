"""Stage 2: OpenAPI schemas -> self-contained JSON Schema 2020-12, per tool."""
