"""Find a catalog's tools by words: the search behind discovery mode (`discover.py`).

Each tool is a set of fields of words: its name (and operationId), title (the operation's
summary; without one, the description's first sentence), the rest of its description, the
HTTP route (path words and what the method does), the names of its arguments (parameters
and request body properties, as sent), the title of its response schema, and tags when the
binding records them. Words are split at case changes, digits and punctuation, lower-cased,
stop words dropped, and stemmed with the Snowball English stemmer (`snowballstemmer`), so
`listZones`, `/zones/{zone_id}` and "List zones" share `zone`.

Ranking is BM25F: each field's count of a word is weighted and normalised by that field's
length, so a word of a short title weighs more than the same word deep in a long
description; a word's rarity counts the tools whose name, title, tags or response title
have it. A query word also matches its common synonyms (get/retrieve/fetch/..., a
fifth less). Ties go to the name, so the same query gives the same page on every run and
machine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import snowballstemmer

# Field -> (weight, length normalisation b). The name and title say what a tool is; the
# route and the response's title name the resource; argument names and the description say
# what it touches. Tuned on Cloudflare, checked on DigitalOcean and GitHub
# (scripts/large_apis.py --largest).
FIELDS = (("name", 2.0, 0.75), ("title", 4.0, 0.75), ("tags", 2.0, 0.5), ("route", 1.0, 0.75),
          ("output", 1.0, 0.5), ("arguments", 0.5, 0.75), ("description", 1.0, 0.75))
K1 = 1.2
IDENTITY = ("name", "title", "tags", "output")   # the fields that say what a tool is
SYNONYM_WEIGHT = 0.8   # a synonym of a query word counts for this share of the word itself
_TAG = re.compile(r"<[^>]+>")   # Stripe's descriptions are HTML
_SENTENCE = re.compile(r"(?<=[.!?])\s")
_RUN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_STOP = frozenset(("a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in",
                   "into", "is", "it", "its", "of", "on", "or", "the", "this", "that", "to",
                   "with"))
# Verbs an agent uses for the same operation (the first is the group's own word); what an
# HTTP method does, in those words.
SYNONYMS = (("get", "retrieve", "fetch", "show", "read", "list"),
            ("create", "add", "new"),
            ("update", "modify", "edit", "patch", "change"),
            ("delete", "remove", "destroy"))
METHOD_VERBS = {"GET": "get", "HEAD": "get", "POST": "create", "PUT": "update",
                "PATCH": "update", "DELETE": "delete"}
_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) English stem of a lower-case word: `zones`/`zone`,
    `listing`/`list`, `series`/`seri`."""
    return str(_STEMMER.stemWord(word))


def words(text: str) -> list[str]:
    """The searchable words of `text`, in order: stems, stop words dropped. A run of
    letters and digits that case changes split (`mTLS`, `V2`, `listZones`) also gives
    itself whole, after its parts: `m_tls`/`mtls` and `v_2`/`v2` meet."""
    found: list[str] = []
    for run in _RUN.findall(text):
        parts = [w.lower() for w in _WORD.findall(run)]
        found += parts + ([run.lower()] if 1 < len(parts) <= 3 else [])
    return [stem(w) for w in found if w not in _STOP]


def _variants() -> dict[str, tuple[str, ...]]:
    groups = [tuple(dict.fromkeys(stem(w) for w in group)) for group in SYNONYMS]
    return {word: group for group in groups for word in group}


VARIANTS = _variants()   # stem -> the stems of its synonym group


def _fields(tool: dict[str, Any], binding: dict[str, Any]) -> dict[str, str]:
    title = str(tool.get("title") or "")
    description = str(tool.get("description") or "")
    if not title:   # no summary: the description's first sentence says what a summary would
        title, _, description = _TAG.sub("", description).strip().partition("\n")
        if (end := _SENTENCE.search(title)) is not None:
            title, description = title[:end.start()], title[end.end():] + " " + description
    elif description.startswith(title):   # the summary opens the description
        description = description[len(title):]
    method = str(binding.get("method") or "").upper()
    tags = binding.get("tags")
    output = tool.get("outputSchema")
    arguments = binding.get("arguments")
    return {
        "name": f"{tool.get('name', '')} {binding.get('operationId') or ''}",
        "title": title, "description": description,
        "route": f"{METHOD_VERBS.get(method, method)} {binding.get('path') or ''}",
        "tags": " ".join(map(str, tags)) if isinstance(tags, list) else "",
        "output": str(output.get("title") or "") if isinstance(output, dict) else "",
        "arguments": " ".join(str(a.get("name", k)) for k, a in sorted(arguments.items())
                              if isinstance(a, dict)) if isinstance(arguments, dict) else "",
    }


def _bags(entry: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per field, each word's count. The name's words count once however the name and
    the operationId repeat them."""
    bags: dict[str, dict[str, int]] = {}
    for field, text in _fields(entry["tool"], entry.get("binding") or {}).items():
        bag: dict[str, int] = {}
        for word in words(text):
            bag[word] = 1 if field == "name" else bag.get(word, 0) + 1
        bags[field] = bag
    return bags


def _idf(total: int, having: int) -> float:
    return math.log(1 + (total - having + 0.5) / (having + 0.5))


@dataclass(frozen=True)
class Hit:
    name: str
    score: float


def _postings(bags: list[dict[str, dict[str, int]]]) -> dict[str, list[tuple[int, float]]]:
    """word -> (tool index, BM25F's count: per field weighted and normalised by the field's
    length against its average) of every tool that has the word."""
    average = {f: sum(sum(b[f].values()) for b in bags) / len(bags) or 1.0
               for f, _, _ in FIELDS}
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, tool in enumerate(bags):
        weighted: dict[str, float] = {}
        for field, weight, b in FIELDS:
            norm = 1 - b + b * sum(tool[field].values()) / average[field]
            for word, count in tool[field].items():
                weighted[word] = weighted.get(word, 0.0) + weight * count / norm
        for word in sorted(weighted):
            postings.setdefault(word, []).append((i, weighted[word]))
    return postings


class SearchIndex:
    """BM25F over catalog entries (`{"tool": ..., "binding": ...}`), built once per server."""

    def __init__(self, entries: Iterable[dict[str, Any]]) -> None:
        self.names: list[str] = []
        bags: list[dict[str, dict[str, int]]] = []
        for entry in entries:
            self.names.append(str(entry["tool"]["name"]))
            bags.append(_bags(entry))
        self.postings = _postings(bags) if bags else {}
        # How rare a word is: among the tools whose IDENTITY fields have it, when any has
        # (boilerplate such as DigitalOcean's `/v2/` in every description says nothing).
        naming: dict[str, int] = {}
        for tool in bags:
            for word in {w for f in IDENTITY for w in tool[f]}:
                naming[word] = naming.get(word, 0) + 1
        total = len(bags)
        self.idf = {w: _idf(total, naming.get(w) or len(p)) for w, p in self.postings.items()}
        # A synonym group's idf: of the tools that have any of its words (below any one's).
        self.group_idf = {group: _idf(total, len({i for w in group
                                                  for i, _ in self.postings.get(w, [])}))
                          for group in set(VARIANTS.values())}

    def _term(self, term: str) -> dict[int, float]:
        """Each tool's score for one query word: its own match, or a synonym's at
        SYNONYM_WEIGHT, whichever is more (a word and its synonym do not add up)."""
        best: dict[int, float] = {}
        group = VARIANTS.get(term, (term,))
        for variant in group:
            share, idf = ((1.0, self.idf.get(term, 0.0)) if variant == term else
                          (SYNONYM_WEIGHT, self.group_idf[group]))
            for i, tf in self.postings.get(variant, []):
                score = share * idf * tf * (K1 + 1) / (tf + K1)
                if score > best.get(i, 0.0):
                    best[i] = score
        return best

    def search(self, query: str) -> list[Hit]:
        """Every tool that shares a word (or a synonym) with `query`, best first (the tool
        whose name the query is, before all); an empty query (no searchable word) lists
        every tool by name."""
        terms = sorted(set(words(query)))
        if not terms:
            return [Hit(name, 0.0) for name in sorted(self.names)]
        scores: dict[int, float] = {}
        for term in terms:   # sorted: the sums are made in the same order on every run
            for i, score in sorted(self._term(term).items()):
                scores[i] = scores.get(i, 0.0) + score
        hits = [Hit(self.names[i], round(score, 6)) for i, score in scores.items()]
        ranked = sorted(hits, key=lambda h: (-h.score, h.name))
        exact = [h for h in ranked if h.name == query.strip()]
        return exact + [h for h in ranked if h not in exact]   # a tool's own name: first
