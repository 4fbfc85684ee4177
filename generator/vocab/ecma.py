"""JSON Schema patterns as ECMA-262 regular expressions, which is what they are.

JSON Schema 2020-12 (6.3.3, 4.3.1) says a ``pattern`` (and a ``patternProperties`` key)
is an ECMA-262 regular expression. Python's ``re`` is another dialect: it refuses
ECMA's named groups (cloudflare's ``^(?<token_config_id>[a-z0-9\\-]{32,36}):...``
raised ``re.error`` at call time and ended the stdio server), reads ``\\d`` and ``\\w``
as Unicode classes (``"١٢"`` matched ``^\\d+$``) and lets ``$`` match before a final
newline. So every pattern toolcat compiles (generate-time check, ``serve``'s argument
and output validation, ``verify``) goes through ``regress``, a Rust implementation of
the ECMA-262 engine (the one behind Boa), rather than through a translation of ours.

Flags: with ``u`` (Unicode mode, what JSON Schema validators such as ajv use) when the
pattern compiles so, else without (ECMA-262 Annex B, the web-compatible grammar every
JavaScript engine accepts: ``\\:`` is an identity escape there, a syntax error with
``u``). A pattern neither compiles is an ``EcmaPatternError``.

``ECMAValidator`` is jsonschema's Draft 2020-12 validator with this engine in every
keyword that matches a pattern (``pattern``, ``patternProperties``, and
``additionalProperties``/``unevaluatedProperties``, which consult
``patternProperties``) and in the ``regex`` format. jsonschema (pinned exactly) calls
``re.search`` from those functions; they are rebound to an engine object with the same
``search``, so the keywords' logic and messages stay jsonschema's own.
"""

from __future__ import annotations

import copy
import types
from functools import lru_cache
from typing import Any

import regress
from jsonschema import Draft202012Validator, _keywords, _utils, validators  # type: ignore[import-untyped]

__all__ = ["ECMAValidator", "EcmaPatternError", "compile_pattern", "search"]


class EcmaPatternError(ValueError):
    """A pattern that is not an ECMA-262 regular expression (the message says why)."""


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> regress.Regex:
    """``pattern`` compiled as ECMA-262: Unicode mode if it can, else Annex B."""
    try:
        return regress.Regex(pattern, "u")
    except regress.RegressError:
        pass
    try:
        return regress.Regex(pattern)
    except regress.RegressError as exc:
        raise EcmaPatternError(f"not an ECMA-262 regular expression: {exc}") from exc


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (ECMA-262 semantics).

    A lone surrogate (valid in a JSON string, not in UTF-8) is matched as U+FFFD: the
    engine reads UTF-8, and a value must never crash validation."""
    try:
        return compile_pattern(pattern).find(text) is not None
    except UnicodeEncodeError:
        clean = text.encode("utf-8", "replace").decode("utf-8")
        return compile_pattern(pattern).find(clean) is not None


class _Engine:
    """What jsonschema's keyword functions use of ``re``: ``search`` (and ``error``)."""

    error = EcmaPatternError

    @staticmethod
    def search(pattern: str, text: str) -> bool:
        return search(pattern, text)


def _rebound(function: Any, names: dict[str, Any]) -> Any:
    """``function`` with ``names`` in place of the module globals it reads."""
    scope = {**function.__globals__, **names}
    out = types.FunctionType(function.__code__, scope, function.__name__,
                             function.__defaults__, function.__closure__)
    scope[function.__name__] = out   # recursion reaches the rebound function
    return out


def _keywords_with_engine() -> dict[str, Any]:
    engine = {"re": _Engine}
    additional = _rebound(_utils.find_additional_properties, engine)
    evaluated = _rebound(_utils.find_evaluated_property_keys_by_schema, engine)
    return {
        "pattern": _rebound(_keywords.pattern, engine),
        "patternProperties": _rebound(_keywords.patternProperties, engine),
        "additionalProperties": _rebound(_keywords.additionalProperties,
                                         {"find_additional_properties": additional}),
        "unevaluatedProperties": _rebound(
            _keywords.unevaluatedProperties,
            {"find_evaluated_property_keys_by_schema": evaluated}),
    }


def _format_checker() -> Any:
    checker = copy.deepcopy(Draft202012Validator.FORMAT_CHECKER)
    checker.checks("regex", raises=EcmaPatternError)(_is_regex)
    return checker


def _is_regex(instance: object) -> bool:
    """The ``regex`` format: an ECMA-262 regular expression (JSON Schema 7.3.8)."""
    return not isinstance(instance, str) or compile_pattern(instance) is not None


ECMAValidator: Any = validators.extend(Draft202012Validator, _keywords_with_engine(),
                                       format_checker=_format_checker())
