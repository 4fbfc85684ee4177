"""Redaction: no form of a configured credential leaves `toolcat serve`.

An API may echo what it received: the token in a JSON body, the decoded Basic password in an
error page, the query API key URL-decoded in a 401 body. So each configured secret is expanded
into every form it can take on the way there and back (raw, percent- and form-encoded, decoded,
JSON-escaped, base64 of `user:pass` with and without padding, the password of `user:pass`
alone), and every string that leaves the server (structured content, member names included,
text blocks, reports, excerpts, log lines) has each form replaced by `***`, ignoring the case
of ASCII letters.

Forms shorter than `MIN_FORM` characters are not redacted (a 2-character password would blank
every word it occurs in); `toolcat serve` warns at start about a secret that short.

    redact = Redactor(["alice:s3cret", "tok-123"])
    redact.text("Basic YWxpY2U6czNjcmV0 / s3cret")       # 'Basic *** / ***'
    redact.value({"echo": "tok-123"})                     # {'echo': '***'}
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

import orjson

MASK = "***"
MIN_FORM = 4


def _encoded(value: str) -> set[str]:
    forms = {value, unquote(value), unquote_plus(value)}
    for safe in ("", "/:@!$&'()*+,;="):
        forms |= {quote(value, safe=safe, errors="replace"),
                  quote_plus(value, safe=safe, errors="replace")}
    forms |= {f.replace(" ", "+") for f in list(forms)}   # decoded, but space as `+`
    forms |= {json.dumps(f)[1:-1] for f in list(forms)}
    forms |= {json.dumps(f, ensure_ascii=False)[1:-1] for f in list(forms)}
    return forms


def _base64(value: str) -> set[str]:
    raw = value.encode("utf-8", "surrogatepass")
    forms = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        text = encode(raw).decode()
        forms |= {text, text.rstrip("=")}
    return forms


def _folded(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass").lower()


def secret_forms(secret: str) -> set[str]:
    """Every form of one configured secret, short ones included (callers filter)."""
    forms = _encoded(secret) | _base64(secret)
    # A token configured with its scheme word ("Bearer abc", "token abc"): the token alone.
    if " " in secret:
        forms |= _encoded(secret.split(" ", 1)[1])
    # Basic `user:pass`: the password alone (the user name is not a secret).
    if ":" in secret:
        forms |= _encoded(secret.split(":", 1)[1])
    return {f for f in forms if f}


class Redactor:
    """Replace every form of every secret in text and in JSON values (keys included)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[str] = set()
        self.short: list[str] = []
        for secret in secrets:
            if not secret:
                continue
            every = secret_forms(secret)
            forms |= {f for f in every if len(f) >= MIN_FORM}
            if len(secret.split(":", 1)[-1]) < MIN_FORM:
                self.short.append(secret)
        ordered = sorted(forms, key=lambda f: (-len(f), f))   # longest first
        # Found by a bytes search first (UTF-8, ASCII letters folded): a regex of many
        # alternatives costs seconds on a few megabytes, the search milliseconds.
        self._forms: dict[bytes, list[str]] = {}
        for form in ordered:
            self._forms.setdefault(_folded(form), []).append(form)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def _pattern(self, data: bytes) -> re.Pattern[str] | None:
        """A regex of the forms that occur in `data`, longest first; None if none does."""
        lower = data.lower()
        found = [f for folded, forms in self._forms.items() if folded in lower for f in forms]
        if not found:
            return None
        return re.compile("|".join(map(re.escape, found)), re.IGNORECASE)

    def text(self, text: str) -> str:
        pattern = self._pattern(_folded(text)) if self._forms else None
        return text if pattern is None else pattern.sub(MASK, text)

    def value(self, value: Any) -> Any:
        """A copy of a JSON value with every string (and member name) redacted."""
        if not self._forms:
            return value
        try:
            blob = orjson.dumps(value)
        except (TypeError, ValueError, RecursionError):   # lone surrogates, deep nesting
            return self._walk(value, self.text)
        pattern = self._pattern(blob)
        if pattern is None:
            return value
        return self._walk(value, lambda s: pattern.sub(MASK, s))

    def _walk(self, value: Any, clean: Callable[[str], str]) -> Any:
        if isinstance(value, str):
            return clean(value)
        if isinstance(value, dict):
            return {clean(k): self._walk(v, clean) for k, v in value.items()}
        if isinstance(value, list):
            return [self._walk(v, clean) for v in value]
        return value


def redact(value: Any, secrets: Iterable[str]) -> Any:
    """`value` (text or JSON) with every form of every secret in `secrets` replaced by `***`."""
    return Redactor(secrets).value(value)
