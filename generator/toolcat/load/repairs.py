"""What warn mode repairs, or marks, before the model reads the document (issue 22 item 4).

* ``items`` given as a list (a draft-4 tuple, which neither Swagger 2.0 nor OpenAPI 3.x
  allows; Gitea's document has one) becomes ``prefixItems``, the same rule in JSON
  Schema 2020-12 (the first items each match their schema, any further item is free),
  with a located warning.
* a server URL (or Swagger 2.0 ``host``/``basePath``) holding text that is not an
  OpenAPI server variable (``{{AppSubUrl | JSONEscape}}``, ``${BASE}``: a template its
  vendor fills at build time) gets a located warning; ``toolcat serve`` refuses to
  send to such a URL without ``--base-url`` (runtime/request.py).

Each is a finding of the validation mode: strict refuses the document with it, warn
generates. The document the validator sees is never changed; repairs go to a copy.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import Problem
from ..vocab.keywords import DEFINITIONS, LITERAL_VALUES, SUBSCHEMA_MAP
from ..vocab.pointers import escape_token, split_pointer
from ..vocab.servers import template_in

# Keys whose value maps names to schemas: an "items" key there is a name.
_NAMES = SUBSCHEMA_MAP | DEFINITIONS | {"schemas"}
_LITERALS = LITERAL_VALUES
_Link = tuple[Any, str] | None   # (the parent's link, this node's token); None: the top

TUPLE = ("'items' is a list (a draft-4 tuple, which OpenAPI does not allow); read as "
         "prefixItems: each item at that position matches its schema, further items are free")
TUPLE_FIX = "write one schema under 'items', or 'prefixItems' in OpenAPI 3.1"
SERVER_FIX = ("serve refuses this URL without a base URL: pass toolcat serve --base-url "
              "(the API's real address); or set the real URL in the document")


def repair(document: dict[str, Any], file: str, maybe: bool | None = None
           ) -> tuple[dict[str, Any], list[Problem]]:
    """The document with tuple ``items`` read as ``prefixItems``, and what was found;
    ``maybe``: whether the read found any (parse/limits.py, ``check_tree_refs``, the
    same rules in its walk; None: not known, so ``_any_tuple`` asks)."""
    tuples: list[str] = []
    if maybe is not False and _any_tuple(document):
        _tuples(document, "", False, tuples)
    notes = [Problem(file, f"{at}/items", TUPLE, TUPLE_FIX) for at in tuples]
    notes += _templates(document, file)
    if not tuples:
        return document, notes
    fixed = copy.deepcopy(document)
    for at in tuples:
        holder = fixed
        for token in split_pointer(at):
            holder = holder[int(token)] if isinstance(holder, list) else holder[token]
        if isinstance(holder.get("items"), list):   # else repaired already: a shared node
            holder["prefixItems"] = holder.pop("items")
    return fixed, notes


def _tuples(node: Any, at: str, names: bool, out: list[str]) -> None:
    """Where ``items`` is a list. Only containers are walked, and a place is spelled as
    a pointer only when it is one (each node holds its parent's link and its own
    token): the walk visits every node of a 13 MB document."""
    stack: list[tuple[Any, _Link, bool]] = [(node, None, names)]
    while stack:
        node, link, names = stack.pop()
        if isinstance(node, list):
            stack += [(v, (link, str(i)), False) for i, v in enumerate(node)
                      if isinstance(v, dict | list)]
            continue
        if not isinstance(node, dict):
            continue
        if not names and isinstance(node.get("items"), list):
            out.append(_pointer(at, link))
        for key, value in node.items():
            if not isinstance(value, dict | list) or (not names and (
                    key in _LITERALS or key.startswith("x-"))):
                continue
            stack.append((value, (link, key), not names and key in _NAMES))
    out.sort()


def _any_tuple(root: Any) -> bool:
    """Whether ``_tuples`` would find anything: the same rules, in a walk that keeps no
    links (the documents have none, or a handful: GitHub's 13 MB, 40 ms where the walk
    with links takes 100). Containers are exactly dict and list (JSON and YAML readers,
    the bundle and the overlays build no other)."""
    plain: list[Any] = [root]   # nodes whose keys may be keywords
    named: list[Any] = []       # nodes whose keys are names (of schemas, properties)
    while plain or named:
        while named:
            node = named.pop()
            for value in (node.values() if type(node) is dict else node):
                if type(value) is dict or type(value) is list:
                    plain.append(value)
        while plain:
            node = plain.pop()
            if type(node) is list:
                plain += [v for v in node if type(v) is dict or type(v) is list]
                continue
            if type(node) is not dict:
                continue
            if isinstance(node.get("items"), list):
                return True
            for key, value in node.items():
                kind = type(value)
                if (kind is dict or kind is list) and key not in _LITERALS \
                        and not key.startswith("x-"):
                    (named if key in _NAMES else plain).append(value)
    return False


def _pointer(at: str, link: _Link) -> str:
    tokens = []
    while link is not None:
        link, token = link
        tokens.append(escape_token(token))
    return at + "".join(f"/{token}" for token in reversed(tokens))


def _templates(document: dict[str, Any], file: str) -> list[Problem]:
    found: list[tuple[str, str]] = []
    for key in ("host", "basePath"):
        if isinstance(document.get(key), str):
            found.append((f"/{key}", document[key]))
    found += _server_urls(document.get("servers"), "/servers")
    paths = document.get("paths")
    for path, item in (paths.items() if isinstance(paths, dict) else ()):
        if not isinstance(item, dict):
            continue
        where = f"/paths/{escape_token(path)}"
        found += _server_urls(item.get("servers"), f"{where}/servers")
        for method, op in item.items():
            if isinstance(op, dict):
                found += _server_urls(op.get("servers"),
                                      f"{where}/{escape_token(method)}/servers")
    return [Problem(file, at, f"the server URL holds {piece!r}, text that is not an OpenAPI "
                    f"server variable: {url!r}", SERVER_FIX)
            for at, url in found if (piece := template_in(url)) is not None]


def _server_urls(servers: Any, at: str) -> list[tuple[str, str]]:
    if not isinstance(servers, list):
        return []
    return [(f"{at}/{i}/url", s["url"]) for i, s in enumerate(servers)
            if isinstance(s, dict) and isinstance(s.get("url"), str)]
