"""The indexed ``Locator`` answers every question as a walk of the whole document does.

``locate.Locator`` walks a document once and keeps indexes; before it, each error
walked the document anew (``reference_*`` below are those walks, kept as the
specification: the first node in document order that fits). Every corpus document
is asked, with a fixed seed, where values found in it are: a wrong ``default`` (the
validator's errors without a path) and a path relative to some schema (its errors
from validating a schema inside the document), both answered by the reference and
by one ``Locator``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from corpus.docs import DOCUMENTS, path_of, ref_root_of
from toolcat.errors import ToolcatError
from toolcat.load.bundle import bundle
from toolcat.load.validation.locate import Locator, _follow, wrong_default
from toolcat.vocab.pointers import pointer

Path = tuple[Any, ...]
SAMPLE = 6   # questions of each kind per document: each asks the reference to walk it


def reference_nodes(document: Any) -> Iterator[tuple[Any, Path]]:
    """Every node with its path, in document order (the walk each error used to take)."""
    stack: list[tuple[Any, Path]] = [(document, ())]
    while stack:
        node, path = stack.pop()
        yield node, path
        if isinstance(node, dict):
            stack.extend((v, (*path, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(node))))


def reference_relative(nodes: list[tuple[Any, Path]], path: Sequence[Any],
                       instance: Any) -> str | None:
    if _follow(nodes[0][0], path)[0]:   # a path from the root
        return pointer(*path)
    container = isinstance(instance, dict | list)
    for node, where in nodes:
        found, value = _follow(node, path)
        if found and (value is instance if container else value == instance):
            return pointer(*where, *path)
    return None


def reference_bad_default(nodes: list[tuple[Any, Path]], value: Any) -> str | None:
    for node, where in nodes:
        if isinstance(node, dict) and "default" in node and wrong_default(node, value):
            return pointer(*where, "default")
    return None


def questions(nodes: list[tuple[Any, Path]], seed: str) -> Iterator[tuple[Path, Any]]:
    """(relative path, instance) pairs: tails of real paths (many start at an array
    index), each with the value there, and some with a value found nowhere there."""
    deep = [(node, where) for node, where in nodes if len(where) >= 2]
    rng = random.Random(seed)
    for node, where in rng.sample(deep, min(SAMPLE, len(deep))):
        cut = rng.randrange(1, len(where))
        yield where[cut:], node
        if rng.random() < 0.2:
            yield where[cut:], {"not": "there"}
    for _node, where in [n for n in deep if isinstance(n[1][-1], int)][:5]:
        yield where[-2:], nodes[0][0]   # no node reaches the root: no answer


def assert_same_answers(name: str, document: Any) -> int:
    nodes = list(reference_nodes(document))
    locator = Locator(document)
    asked = 0
    defaults = [n["default"] for n, _ in nodes if isinstance(n, dict) and "default" in n]
    rng = random.Random(name)
    for value in [*rng.sample(defaults, min(SAMPLE, len(defaults))), "no such default"]:
        expected = reference_bad_default(nodes, value)
        assert locator.locate("x is not of type 'y'", [], value) == expected, (
            f"{name}: a wrong default {value!r}: expected {expected}")
        asked += 1
    for path, instance in questions(nodes, name):
        expected = reference_relative(nodes, path, instance)
        assert locator.locate("x is not valid", list(path), instance) == expected, (
            f"{name}: relative path {list(path)}: expected {expected}")
        asked += 1
    return asked


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_corpus_document_located_as_by_walking_it(doc: str) -> None:
    path = path_of(doc)
    if not path.exists():
        pytest.skip(f"shared test data absent: {path}")
    try:
        document = bundle(path, ref_root_of(doc)).document
    except ToolcatError:
        pytest.skip(f"{doc} does not bundle")
    assert assert_same_answers(doc, document) > 0


def test_keys_that_are_not_strings_and_shared_objects() -> None:
    """YAML keys that are ints and booleans (``True`` is a key ``1`` finds), arrays
    reached by an index, one object at two places, a root that
    is an array: answered as the walk answers."""
    shared = {"type": "integer", "default": "seven"}
    document: Any = [
        {1: {"type": "string", "default": 3}, "a": [shared, {"b": shared}]},
        {True: {"x": [5, 6]}, "s": shared, "list": [[{"default": None, "type": "object"}]]},
        [{"x": [7]}, {"default": [], "type": ["string", "null"]}],
    ]
    nodes = list(reference_nodes(document))
    locator = Locator(document)
    relative = [([1, "default"], 3), ([1, "x", 1], 6), ([True, "x", 0], 5),
                ([0, "x", 0], 7), ([0, "type"], "integer"), (["b", "default"], "seven"),
                ([0, 0, "default"], None), ([1, "x"], document[1][True]["x"]),
                (["s"], shared), ([0], shared), ([1.0, "x", 1], 6), ([0, 0], shared)]
    for path, instance in relative:
        assert locator.locate("m", path, instance) == reference_relative(
            nodes, path, instance), path
    for value in ("seven", 3, None, [], True, 1):
        assert locator.locate("m", [], value) == reference_bad_default(nodes, value), value
    assert locator.locate("m", [0, "x", 0], 7) == "/2/0/x/0"
    assert locator.locate("m", [], "seven") == "/0/a/0/default"


def test_a_root_that_is_no_container_locates_nothing() -> None:
    assert Locator("openapi").locate("m", ["a"], 1) is None
    assert Locator("openapi").locate("m", [], 1) is None
