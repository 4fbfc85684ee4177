"""Patches that make the validator's findings a function of the document alone.

Unlike ``speedups`` (same answers, sooner) these change what the validator says,
never whether a document is valid: without them the same document gave other
findings from run to run (``PYTHONHASHSEED``). Each is installed only for the exact
versions it was written against (``speedups.speedups`` does the installing).

* ``property-order``: jsonschema's and openapi-schema-validator's
  ``additionalProperties`` visit an object's extra members in the order of a
  ``set`` of their names, which depends on the string hash seed. The OpenAPI
  validator keeps only the first error of a schema's metaschema check, so a schema
  with two bad properties (``exclusiveMinimum: true`` on two of them) was reported
  at one or the other; a default's errors came in varying order, and the "were
  unexpected" message listed names in varying order. The same members are visited
  in the object's own order.
* ``schema-of-error``: the metaschema check's error carries a path relative to the
  schema checked, often one reached through a ``$ref``, and no trace of where that
  schema is. The schema object checked is written on the error (``SCHEMA``), so
  ``locate.Locator`` finds it in the document by identity instead of searching for
  the first node from which the path reaches an equal value.
* ``default-of-error``: likewise a default's error carries a path relative to the
  default and nothing else: the object holding the ``default`` is written on it
  (``DEFAULT_OF``), so each bad default is located where it is, not at the first
  default of the document with the same value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .speedups import Patch, Undo, _set_attribute

SCHEMA = "toolcat_schema"   # the attribute naming the schema a metaschema error is about
DEFAULT_OF = "toolcat_default_of"   # ... the object whose ``default`` an error is about


def _install_property_order() -> Undo | None:
    import jsonschema._keywords as plain  # type: ignore[import-untyped] # noqa: PLC0415
    from jsonschema import validators  # noqa: PLC0415
    from openapi_schema_validator import _keywords as oas_keywords  # noqa: PLC0415
    from openapi_schema_validator import validators as oas  # noqa: PLC0415

    replacements = {plain.additionalProperties: _ordered(sorted_message=True),
                    oas_keywords.additionalProperties: _ordered(sorted_message=False)}
    classes = {*vars(validators).get("_VALIDATORS", {}).values(),
               *(c for c in vars(oas).values() if isinstance(getattr(c, "VALIDATORS", None), dict))}
    undos: list[Undo] = []
    for cls in classes:
        table: dict[str, Any] = cls.VALIDATORS
        original = table.get("additionalProperties")
        if original in replacements:
            table["additionalProperties"] = replacements[original]
            undos.append(_restore(table, original))
    if not undos:
        return None

    def undo() -> None:
        for each in undos:
            each()

    return undo


def _restore(table: dict[str, Any], original: Any) -> Undo:
    return lambda: table.update(additionalProperties=original)


def _ordered(sorted_message: bool) -> Any:
    """``additionalProperties`` of jsonschema 4.26.0 (``sorted_message``) or of
    openapi-schema-validator 0.9.0, the extra members taken in the instance's order."""
    from jsonschema._utils import (  # type: ignore[import-untyped] # noqa: PLC0415
        extras_msg,
        find_additional_properties,
    )
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped] # noqa: PLC0415

    def additional_properties(validator: Any, ap: Any, instance: Any,
                              schema: Mapping[str, Any]) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        extras = list(dict.fromkeys(find_additional_properties(instance, schema)))
        if validator.is_type(ap, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], ap, path=extra)
        elif sorted_message and not ap and extras:
            if "patternProperties" in schema:
                verb = "does" if len(extras) == 1 else "do"
                joined = ", ".join(repr(each) for each in sorted(extras))
                patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
                yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
            else:
                yield ValidationError(_unexpected(*extras_msg(sorted(extras, key=str))))
        elif not sorted_message and validator.is_type(ap, "boolean") and not ap and extras:
            yield ValidationError(_unexpected(*extras_msg(extras)))

    return additional_properties


def _unexpected(joined: str, verb: str) -> str:
    return f"Additional properties are not allowed ({joined} {verb} unexpected)"


def _install_schema_of_error() -> Undo | None:
    from openapi_spec_validator.validation.keywords import SchemaValidator  # noqa: PLC0415

    checked = SchemaValidator.__dict__.get("_validate_schema_meta")
    if not callable(checked):
        return None

    def _validate_schema_meta(self: Any, schema: Any, schema_value: Any) -> Any:
        err = checked(self, schema, schema_value)
        if err is not None:
            setattr(err, SCHEMA, schema_value)
        return err

    return _set_attribute(SchemaValidator, "_validate_schema_meta", _validate_schema_meta)


def _install_default_of_error() -> Undo | None:
    from openapi_spec_validator.validation.exceptions import (  # noqa: PLC0415
        OpenAPIValidationError,
    )
    from openapi_spec_validator.validation.keywords import ValueValidator  # noqa: PLC0415

    checked = ValueValidator.__dict__.get("__call__")
    if not callable(checked):
        return None

    def __call__(self: Any, schema: Any, value: Any) -> Iterator[Any]:
        holder = schema.read_value()
        for raw in checked(self, schema, value):
            # What the library's wraps_errors makes of it further up, made here so
            # that the mark is on the error that arrives.
            err = (raw if isinstance(raw, OpenAPIValidationError)
                   else OpenAPIValidationError.create_from(raw))
            setattr(err, DEFAULT_OF, holder)
            yield err

    return _set_attribute(ValueValidator, "__call__", __call__)


ORDER: tuple[Patch, ...] = (
    Patch("property-order", {"jsonschema": "4.26.0", "openapi-schema-validator": "0.9.0"},
          _install_property_order),
    Patch("schema-of-error", {"openapi-spec-validator": "0.9.0"}, _install_schema_of_error),
    Patch("default-of-error", {"openapi-spec-validator": "0.9.0"},
          _install_default_of_error),
)
