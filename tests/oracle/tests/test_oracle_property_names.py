"""The response oracle drops OpenAPI-only keywords, never properties that share their names.

Discord's User has a property called ``discriminator``; dropping it with the keyword
made ``discriminator: null`` look spec-valid, and toolcat's (correct) outputSchema
looked wrong for 11 responses.
"""

from __future__ import annotations

from oracle.responses import to_json_schema


def test_a_property_named_like_a_keyword_stays() -> None:
    schema = {"type": "object", "discriminator": {"propertyName": "kind"},
              "properties": {"discriminator": {"type": "string"}, "example": {"type": "integer"}}}
    out = to_json_schema(schema, is_30=False)
    assert "discriminator" not in {k for k in out if k != "properties"}
    assert out["properties"] == {"discriminator": {"type": "string"},
                                 "example": {"type": "integer"}}
