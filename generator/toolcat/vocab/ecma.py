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
``search``, so the keywords' logic and messages stay jsonschema's own. It is built on
first use: ``generate`` compiles patterns only, and jsonschema's imports (about 0.1 s)
stay out of its start-up.
"""

from __future__ import annotations

import copy
import types
from functools import lru_cache
from typing import Any

import regress

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
    from jsonschema import _keywords, _utils  # type: ignore[import-untyped]  # noqa: PLC0415

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
    from jsonschema import Draft202012Validator  # noqa: PLC0415

    checker = copy.deepcopy(Draft202012Validator.FORMAT_CHECKER)
    checker.checks("regex", raises=EcmaPatternError)(_is_regex)
    return checker


def _is_regex(instance: object) -> bool:
    """The ``regex`` format: an ECMA-262 regular expression (JSON Schema 7.3.8)."""
    return not isinstance(instance, str) or compile_pattern(instance) is not None


ECMAValidator: Any   # built by __getattr__ on first use


def __getattr__(name: str) -> Any:
    """``ECMAValidator``, built once, when first imported or read."""
    if name != "ECMAValidator":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from jsonschema import Draft202012Validator, validators  # noqa: PLC0415

    validator = validators.extend(Draft202012Validator, _keywords_with_engine(),
                                  format_checker=_format_checker())
    globals()["ECMAValidator"] = validator
    return validator


def python_spelling(pattern: str) -> str:
    """``pattern`` with ECMA-262's spellings of named groups and their backreferences
    (``(?<name>...)``, ``\\k<name>``) respelled as Python's ``re`` and Rust's ``regex``
    (pydantic's two engines) write them (``(?P<name>...)``, ``(?P=name)``); everything
    else as it is. For generated pydantic models, which check a value after the
    inputSchema (ECMA-262) has."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            name = _backreference(pattern, i)
            if name is not None and not in_class:
                out.append(f"(?P={name})")
                i += len(name) + 4
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif not in_class and pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in (
                "=", "!"):
            out.append("(?P<")
            i += 3
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _backreference(pattern: str, at: int) -> str | None:
    """The group name of a ``\\k<name>`` at ``at``, else None."""
    if not pattern.startswith("\\k<", at):
        return None
    end = pattern.find(">", at + 3)
    return pattern[at + 3:end] if end > at + 3 else None
