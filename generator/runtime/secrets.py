"""Redaction: no form of a configured credential leaves `toolcat serve`.

An API may echo what it received: the token in a JSON body, the decoded Basic password in an
error page, the query API key URL-decoded in a 401 body. So each configured secret is expanded
into every form it can take on the way there and back (raw, percent- and form-encoded, decoded,
JSON-escaped, base64 of `user:pass` with and without padding, the password of `user:pass`
alone), and every string that leaves the server (structured content, member names included,
text blocks, reports, excerpts, log lines) has each form replaced by `***`, case-insensitively.

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
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

MASK = "***"
MIN_FORM = 4


def _encoded(value: str) -> set[str]:
    forms = {value, unquote(value), unquote_plus(value)}
    for safe in ("", "/:@!$&'()*+,;="):
        forms |= {quote(value, safe=safe, errors="replace"),
                  quote_plus(value, safe=safe, errors="replace")}
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
        self._pattern = (re.compile("|".join(map(re.escape, ordered)), re.IGNORECASE)
                         if ordered else None)

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        return text if self._pattern is None else self._pattern.sub(MASK, text)

    def value(self, value: Any) -> Any:
        """A copy of a JSON value with every string (and member name) redacted."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value


def redact(value: Any, secrets: Iterable[str]) -> Any:
    """`value` (text or JSON) with every form of every secret in `secrets` replaced by `***`."""
    return Redactor(secrets).value(value)
