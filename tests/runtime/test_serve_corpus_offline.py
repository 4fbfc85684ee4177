"""The corpus, offline: requests built by toolcat's runtime (what `toolcat serve` sends),
judged against the ORIGINAL documents by the independent oracle (tests/oracle, its own venv).

A fixed-seed slice runs here: every tool of a Swagger 2.0 multi-file document and of a 3.1
one, and, from the larger documents, the named tools that taught the oracle and the runtime
a class of their own (each also has a fixture test, tests/test_serve_oracle_*.py and
tests/runtime/test_serve_wildcard_body_type.py). The whole corpus is `make serve-oracle`
(scripts/serve_oracle.py). A request the oracle rejects fails the test unless it is pinned
(tests/oracle/exceptions.py: the document's fault or the validator's) or one of the catalog
gaps below, by tool and phrase; a pin or gap that no longer shows turns the test red too.
"""

from __future__ import annotations

import pytest
from helpers.fixtures import real_catalog
from helpers.paths import SHARED
from helpers.runtime_oracle import judge_runtime
from oracle.exceptions import PINNED

PETSTORE_SEPARATE = "corpus/oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml"
SLICE = (PETSTORE_SEPARATE, "corpus/oai-examples/v3.1/tictactoe.yaml")
PLEX = "corpus/plex/plex-api-spec.yaml"
JELLYFIN = "corpus/jellyfin/openapi.json"
KRATOS = "corpus/kratos/api.json"
LICHESS = "corpus/lichess/doc/specs/lichess-api.yaml"
# Tools by document: each a class found on the whole corpus (fixed, pinned or a gap).
NAMED: dict[str, tuple[str, ...]] = {
    PLEX: ("get_server_resources",        # operation-level servers
           "update_items",                # a query name declared with brackets
           "add_section",                 # deepObject without explode
           "modify_playlist_generator",   # an object inside a deepObject: the bracket convention
           "get_first_characters"),       # pinned: the document's colliding names
    JELLYFIN: ("post_user_image",),       # image/* body, base64 drawn as base64
    "corpus/discord/openapi.json": ("create_guild_sticker",),   # multipart [string, null]
    # A discriminator branch's own enum narrowed to its mapped values (issue 11): the
    # {"method": "link"} calls that the API dispatched to another branch are gone.
    KRATOS: ("update_recovery_flow", "update_verification_flow"),
    "corpus/sonarr/openapi.json": ("get_root", "post_login"),      # pinned
    # The judge: readOnly reached through $ref/allOf counts for openapi-core's
    # required-skip, and readOnly array items are no reason to refuse
    # (test_serve_oracle_read_only_required.py). The catalog: a union body admits only
    # the names it declares, a readOnly name required beside a oneOf is not required
    # (test_fidelity_whole_body_names.py), and a dropped readOnly name stays `false`.
    "corpus/cloudflare/openapi.json": ("dns_firewall_update_dns_firewall_cluster",
                                       "vectorize_get_vectors_by_id",
                                       "dns_records_for_a_zone_create_dns_record",
                                       "create_zone_ruleset_rule"),
    # A required form field cannot be empty (test_fidelity_form_required_empty.py).
    # Nested deepObject values, lists indexed, in a query (`expand[0]`, `created[gte]` or
    # `created=5`) and a form body (`line_items[0][price_data][currency]`), judged by the
    # bracket convention (test_oracle_deep_object_reader.py): 365 of 760 calls counted
    # apart before.
    "corpus/stripe/spec3.yaml": ("post_account_sessions", "post_treasury_financial_accounts",
                                 "get_charges", "post_checkout_sessions"),
    # A form object field without style is its JSON text (test_serve_oracle_form_json.py):
    # `grouping` was spread into its members, unserialisable.
    LICHESS: ("broadcast_tour_create",),
}
# Catalog gaps (the inputSchema admits a call the API refuses), by tool and phrase, for
# generator/ to close. The int32 gap (find_pets) closed when input schemas gained the
# bounds of int32/int64 (issue 11).
KNOWN_GAPS: dict[str, set[tuple[str, str]]] = {
    # None open on the named tools. Closed by issue 11's catalog rules: Kratos'
    # discriminator branches (update_recovery_flow, update_verification_flow: "'email' is
    # a required property") and Plex's required object query parameter admitting {}.
}


# Tools whose arguments hypothesis-jsonschema cannot draw, by name (none on this slice).
UNDRAWABLE: dict[str, tuple[str, ...]] = {}


def _unexplained(doc: str, tools: tuple[str, ...] | None, count: int) -> None:
    catalog = real_catalog(*doc.split("/"))
    tally = judge_runtime(SHARED / doc, catalog, count=count, tools=tools)
    expected = len(catalog["tools"]) if tools is None else len(tools)
    # A tool whose arguments cannot be drawn is never judged: named, not filtered away.
    assert sorted(tally.undrawable) == sorted(UNDRAWABLE.get(doc, ())), "undrawable tools"
    assert tally.requests >= expected - len(tally.undrawable)
    pinned = set(PINNED.get(doc, {})) & set(tools or ())
    unexplained, gaps, pins = [], set(), set()
    for tool, args, verdict in tally.failures:
        gap = next((g for g in KNOWN_GAPS.get(doc, set())
                    if g[0] == tool and any(g[1] in e for e in verdict["errors"])), None)
        if gap is not None:
            gaps.add(gap)
        elif tool in pinned:
            pins.add(tool)
        else:
            unexplained.append((tool, args, verdict))
    assert unexplained == []
    wanted = {g for g in KNOWN_GAPS.get(doc, set()) if tools is None or g[0] in tools}
    assert gaps == wanted, "a catalog gap no longer shows"
    assert pins == pinned, "a pinned exception no longer shows"
    # Plex's modify_playlist_generator (nested deepObject) and Lichess'
    # broadcast_tour_create (`grouping`, a form field as JSON) were counted apart once.
    assert tally.unserialisable == 0
    assert tally.accepted > 0


@pytest.mark.parametrize("doc", SLICE)
def test_runtime_requests_are_accepted_by_the_oracle(doc: str) -> None:
    _unexplained(doc, None, count=2)


@pytest.mark.parametrize("doc", sorted(NAMED))
def test_named_corpus_tools(doc: str) -> None:
    # Kratos' gap needs the second plain draw ({"method": "link"} without an email).
    _unexplained(doc, NAMED[doc], count=2 if doc == KRATOS else 1)
