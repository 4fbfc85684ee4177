"""What an ``isError`` result of a read-only call says the API answered. Pure.

A server in front of an API (``toolcat serve`` among them) says the API's HTTP
status in its error text. That status decides what the error means for verify:

* 2xx: the API answered, and the server still failed the call (its output check,
  its own parsing): drift between the server and the API, an ``error``.
* 401/403: the API refused the call, so nothing was really checked; most often the
  credential never reached the server. A ``warning`` (``--fail-on warning`` fails
  on it), never a silent "OK".
* anything else, or no status: an API failure for the arguments sent (404 for a
  generated id), a note.
"""

from __future__ import annotations

import re

from .findings import Finding, Note

_STATUS = re.compile(r"\bHTTP[ /]?(?:\d(?:\.\d)? )?([1-5]\d\d)\b")
_EXCERPT = 160


def judge_error(tool: str, texts: list[str]) -> tuple[list[Finding], list[Note]]:
    """``texts``: the result's text blocks."""
    text = " ".join(texts)
    excerpt = text[:_EXCERPT]
    status = _status(text)
    if status is not None and 200 <= status < 300:
        return [Finding("error", tool, "output", "error-on-success",
                        message=f"the API answered HTTP {status} but the server returned "
                        f"isError: {excerpt}", expected="a result", actual="isError")], []
    if status in (401, 403):
        return [Finding("warning", tool, "output", "api-refused",
                        message=f"the API refused the call (HTTP {status}), so its output was "
                        "not checked: did the credential reach the server? (--command passes "
                        "your environment; --env NAME passes only NAME)",
                        expected="an authorised call", actual=f"HTTP {status}")], []
    return [], [Note(tool, f"read-only call returned isError (output not checked): {excerpt}")]


def _status(text: str) -> int | None:
    match = _STATUS.search(text)
    return int(match.group(1)) if match else None
