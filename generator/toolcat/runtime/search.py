"""Find a catalog's tools by words: the search behind discovery mode (`discover.py`).

Each tool is a bag of words taken from its name, title, description, operationId, HTTP
method and path template (and tags, when the binding records them), each field weighted.
Words are split at case changes, digits and punctuation, lower-cased and folded to a stem
(plural and a few verb endings), so `listZones`, `/zones/{zone_id}` and "List zones" share
`zone`. Ranking is BM25 over the weighted counts; ties go to the name, so the same query
gives the same page on every run and machine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Field -> weight: words of a tool's name and title say what it is; the description also
# says what it touches. Path words carry the resource names.
WEIGHTS = (("name", 3.0), ("title", 3.0), ("operationId", 2.0), ("path", 2.0),
           ("tags", 2.0), ("method", 1.0), ("description", 1.0))
K1, B = 1.2, 0.75
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_STOP = frozenset(("a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in",
                   "into", "is", "it", "its", "of", "on", "or", "the", "this", "that", "to",
                   "with"))


def stem(word: str) -> str:
    """A crude English stem: enough that `zones`/`zone` and `listing`/`list` meet."""
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + keep
    return word


def words(text: str) -> list[str]:
    """The searchable words of `text`, in order, stop words dropped."""
    found = (w.lower() for w in _WORD.findall(text))
    return [stem(w) for w in found if w not in _STOP]


def _fields(tool: dict[str, Any], binding: dict[str, Any]) -> dict[str, str]:
    tags = binding.get("tags")
    return {"name": str(tool.get("name", "")), "title": str(tool.get("title") or ""),
            "description": str(tool.get("description") or ""),
            "operationId": str(binding.get("operationId") or ""),
            "path": str(binding.get("path") or ""), "method": str(binding.get("method") or ""),
            "tags": " ".join(map(str, tags)) if isinstance(tags, list) else ""}


@dataclass(frozen=True)
class Hit:
    name: str
    score: float


class SearchIndex:
    """BM25 over catalog entries (`{"tool": ..., "binding": ...}`), built once per server."""

    def __init__(self, entries: Iterable[dict[str, Any]]) -> None:
        self.names: list[str] = []
        self.counts: list[dict[str, float]] = []
        for entry in entries:
            fields = _fields(entry["tool"], entry.get("binding") or {})
            counts: dict[str, float] = {}
            for field, weight in WEIGHTS:
                for word in words(fields[field]):
                    counts[word] = counts.get(word, 0.0) + weight
            self.names.append(str(entry["tool"]["name"]))
            self.counts.append(counts)
        self.lengths = [sum(c.values()) for c in self.counts]
        self.average = sum(self.lengths) / len(self.lengths) if self.lengths else 1.0
        # word -> (tool index, weighted count) of every tool that has it
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, counts in enumerate(self.counts):
            for word, count in counts.items():
                self.postings.setdefault(word, []).append((i, count))
        total = len(self.counts)
        self.idf = {w: math.log(1 + (total - len(p) + 0.5) / (len(p) + 0.5))
                    for w, p in self.postings.items()}

    def search(self, query: str) -> list[Hit]:
        """Every tool that shares a word with `query`, best first (the tool whose name the
        query is, before all); an empty query (no searchable word) lists every tool by
        name."""
        terms = sorted(set(words(query)))
        if not terms:
            return [Hit(name, 0.0) for name in sorted(self.names)]
        scores: dict[int, float] = {}
        for term in terms:   # sorted: the sums are made in the same order on every run
            for i, tf in self.postings.get(term, []):
                norm = tf + K1 * (1 - B + B * self.lengths[i] / self.average)
                scores[i] = scores.get(i, 0.0) + self.idf[term] * tf * (K1 + 1) / norm
        hits = [Hit(self.names[i], round(score, 6)) for i, score in scores.items()]
        ranked = sorted(hits, key=lambda h: (-h.score, h.name))
        exact = [h for h in ranked if h.name == query.strip()]
        return exact + [h for h in ranked if h not in exact]   # a tool's own name: first
