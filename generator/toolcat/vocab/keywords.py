"""JSON Schema keywords whose values are schemas (2020-12, with the older spellings
OpenAPI documents still use). Loading, normalising and diffing all walk subschemas
by these sets; Swagger 2.0's smaller dialect keeps its own in load/swagger2.py."""

from __future__ import annotations

# Keys whose value is one schema / a map of name -> schema / a list of schemas.
SUBSCHEMA_ONE = frozenset({
    "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then",
    "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
})
SUBSCHEMA_MAP = frozenset({"properties", "patternProperties", "dependentSchemas"})
SUBSCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
# Where a document keeps named schemas for ``$ref`` (2020-12's and draft 7's).
DEFINITIONS = frozenset({"$defs", "definitions"})
# Keys whose value is data (examples, defaults, enumerations), never read as keywords:
# a tuple ``items`` there is no schema to repair (load/repairs.py, and the read's walk
# that answers its question first, parse/limits.py).
LITERAL_VALUES = frozenset({"example", "examples", "default", "enum", "const", "value"})
