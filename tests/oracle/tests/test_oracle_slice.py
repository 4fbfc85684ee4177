"""The fidelity oracle on a small fixed-seed slice of real documents (issue 11).

Every tool of ErsatzTV's v1 document and of Redocly's museum example: drawn calls
must all be requests the original document accepts, and spec-valid responses must
all pass outputSchema. The whole corpus runs under ``make oracle``
(scripts/oracle_table.py), whose table is in the README.
"""

from __future__ import annotations

import pytest
from helpers.fixtures import real, real_catalog
from oracle.responses import check
from oracle.sample import run

SLICE = (("specs", "ersatztv", "v1.json"), ("corpus", "museum", "openapi.yaml"))


@pytest.mark.parametrize("parts", SLICE, ids="/".join)
def test_slice_is_fully_accepted(parts: tuple[str, ...]) -> None:
    spec = real(*parts)
    catalog = real_catalog(*parts)
    requests = run(spec, catalog, count=1, seed_value=11)
    assert requests.requests >= len(catalog["tools"])
    assert requests.undrawable == []
    assert [(n, v["errors"]) for n, _, v in requests.failures] == []
    responses = check(spec, catalog, count=1, seed_value=11)
    assert responses.instances > 0
    assert responses.failures == []


def test_nested_deep_object_calls_are_judged_and_accepted() -> None:
    """Stripe's nested deepObject values (``created[gte]`` or ``created=5``, ``expand[0]``
    in a query; ``line_items[0][price_data][currency]`` in a form body) were counted
    "unserialisable" by this oracle, never judged: 28 of 58 calls of the README sample.
    The test's own builder writes them by the bracket convention and the judge reads it
    (tests/oracle/deep_object.py)."""
    parts = ("corpus", "stripe", "spec3.yaml")
    tools = ["get_charges", "post_checkout_sessions", "post_subscriptions"]
    tally = run(real(*parts), real_catalog(*parts), count=2, seed_value=11, tools=tools)
    assert tally.requests >= 2 * len(tools)
    assert [(n, v["errors"]) for n, _, v in tally.failures] == []
    assert tally.unserialisable == 0
    assert tally.accepted == tally.requests
