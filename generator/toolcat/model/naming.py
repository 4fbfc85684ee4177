"""Tool names: snake_case, prefixed, ``^[A-Za-z0-9_-]{1,64}$``, order-independent.

A name comes from the operationId, else from the method and path. A name over the
budget is shortened readably and deterministically: it keeps its leading words
and ends with a digest of the full name, so two long names never collide by
truncation. Two operations that still end up with one name are an error naming
both, never a counter that depends on spec order.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from ..vocab.mcp import MAX_NAME

# A word starts at a capital after a lower-case letter or digit, or at the last
# capital of an acronym that runs into a word (HTTPSUrl -> HTTPS Url), except the
# plural of an acronym (IDs, URLs: "s" then no lower-case letter).
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?![a-z]))")
# Words whose capitals are not word starts: without this list FFmpeg reads as
# "F Fmpeg". Matched where they stand as a word: not run on from lower-case
# letters (radiOS is not iOS), optionally plural; digits after stay attached.
_KNOWN = ("FFmpeg", "OAuth", "ETag", "GraphQL", "GitHub", "YouTube", "OpenAPI", "MySQL",
          "PostgreSQL", "IPv4", "IPv6", "MacOS")
_KNOWN_LOWER = ("iOS", "macOS")
_KNOWN_RE = re.compile(r"(?:(" + "|".join(_KNOWN) + r")|(?<![a-z])(" + "|".join(_KNOWN_LOWER)
                       + r"))(s?)(?![a-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_VERSION = re.compile(r"^v\d+(\.\d+)*$", re.IGNORECASE)


def snake(text: str) -> str:
    """Acronym-aware snake case.

    ``CreateFFmpegProfile`` -> ``create_ffmpeg_profile``, ``getHTTPSUrl`` ->
    ``get_https_url``, ``listUserIDs`` -> ``list_user_ids``, ``getV2Items`` ->
    ``get_v2_items`` (digits stay with the word before them).
    """
    text = _KNOWN_RE.sub(lambda m: f"_{(m.group(1) or m.group(2)).lower()}{m.group(3)}", text)
    words = [w for w in _NON_WORD.split(_CAMEL.sub("_", text)) if w]
    return "_".join(w.lower() for w in words)


def name_from_route(method: str, path: str) -> str:
    """``GET /api/v3/series/{id}/episodes`` -> ``get_series_by_id_episodes``.

    ``api`` and version segments are dropped only where more of the path follows,
    so ``GET /api`` stays ``get_api``; the root path is ``root``. The name depends
    on this route alone, never on which other routes the spec has.
    """
    segments = [s for s in path.strip("/").split("/") if s]
    words = [method.lower()]
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if not last and (segment.lower() == "api" or _VERSION.match(segment)):
            continue
        if segment.startswith("{") and segment.endswith("}"):
            words.append("by_" + snake(segment[1:-1]))
        else:
            words.append(snake(segment))
    if not segments:
        words.append("root")
    return "_".join(w for w in words if w)


def shorten(name: str, budget: int) -> str:
    """``name`` if it fits; else its leading whole words, ``_``, six hex of its sha256.

    The digest is of the full name, so the result depends on nothing but the name
    and the budget, and two long names that share their first words still differ.
    """
    if len(name) <= budget:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:6]
    room = budget - len(digest) - 1
    head = name[:room]
    if name[room] not in "_-" and ("_" in head or "-" in head):
        cut = max(head.rfind("_"), head.rfind("-"))
        if cut >= room // 2:
            head = head[:cut]       # end on a whole word when that keeps half the room
    return f"{head.rstrip('_-')}_{digest}"


def tool_name(prefix: str, operation_id: str | None, method: str, path: str,
              budget: int = MAX_NAME) -> str:
    base = snake(operation_id) if operation_id else ""
    return shorten(prefix + (base or name_from_route(method, path)), budget)


_UNKEPT = re.compile(r"[^A-Za-z0-9_.-]+")


@lru_cache(maxsize=4096)   # a catalog repeats its wire names (owner, per_page...) many times
def argument_name(wire: str) -> str:
    """Property keys clients accept: ``[A-Za-z0-9_.-]``, at most 64 characters."""
    clean = _UNKEPT.sub("_", wire).strip("_") or "arg"
    return shorten(clean, MAX_NAME)


CATALOG_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def catalog_name(title: object, fallback: str) -> str:
    """A catalog name from the spec's ``info.title``: ``ErsatzTV API`` -> ``ersatz_tv_api``.

    ``fallback`` (the spec's folder) when the title gives no usable word. At most
    40 characters, whole words, and never starting with a digit (the name is
    also a Python identifier in the generated module).
    """
    for source in (title if isinstance(title, str) else "", fallback):
        words = snake(source).split("_")
        name = ""
        for word in words:
            if name and len(name) + 1 + len(word) > 40:
                break
            name = f"{name}_{word}" if name else word
        name = name[:40].strip("_")
        if name and not name[0].isalpha():
            name = f"api_{name}"
        if CATALOG_NAME_RE.match(name):
            return name
    return "api"
