"""Discovery mode's search (`runtime/search.py`): what an agent's words may match beyond the
tool's name, and the rules that make a page the same on every run."""

from __future__ import annotations

from typing import Any

from toolcat.runtime.search import SearchIndex, words


def entry(name: str, title: str = "", description: str = "", method: str = "GET",
          path: str = "/", arguments: tuple[str, ...] = (), output_title: str = "",
          operation: str = "") -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"}}
    if title:
        tool["title"] = title
    if description:
        tool["description"] = description
    if output_title:
        tool["outputSchema"] = {"type": "object", "title": output_title}
    return {"tool": tool, "binding": {
        "method": method, "path": path, "operationId": operation or name,
        "arguments": {a: {"in": "query", "name": a} for a in arguments}}}


# A small API whose names say little: the other fields must carry the agent's words.
CATALOG = [
    entry("zones_get", "Zone details", "Zone details\n\nReturns one zone.", "GET",
          "/zones/{zone_id}", ("zone_id",), "Zone"),
    entry("zones_list", "List zones", "List zones\n\nEvery zone of the account.", "GET",
          "/zones", ("page", "per_page")),
    entry("zones_post", "Create zone", "Create zone", "POST", "/zones", ("name", "jump_start")),
    entry("zones_delete", "Delete zone", "Delete zone", "DELETE", "/zones/{zone_id}",
          ("zone_id",)),
    entry("zones_patch", "Edit zone", "Edit zone", "PATCH", "/zones/{zone_id}", ("paused",)),
    entry("records_purge", "Purge records", "Purge records", "POST",
          "/zones/{zone_id}/purge_cache", ("zone_id", "files")),
    entry("access_mtls_list", "List mTLS certificates", "List mTLS certificates", "GET",
          "/access/certificates"),
    entry("registry_repositories", "List All Registry Repositories",
          "List All Registry Repositories\n\nSee /v2/registry.", "GET", "/v2/registry"),
    entry("registry_repositories_v2", "List All Registry Repositories (V2)",
          "List All Registry Repositories (V2)\n\nSee /v2/registry.", "GET",
          "/v2/registry/v2"),
    entry("customers_create", description="<p>Creates a new customer object.</p><p>Long.</p>",
          method="POST", path="/v1/customers", arguments=("email",)),
]


def first(query: str) -> str:
    return SearchIndex(CATALOG).search(query)[0].name


def test_words_are_snowball_stems_with_case_runs_kept_whole() -> None:
    assert words("Lists of Zones") == ["list", "zone"]
    assert words("autonomous Series") == ["autonom", "seri"]
    # A run split by case changes also gives itself whole: `mTLS` meets the name's `mtls`.
    assert words("mTLS V2") == ["m", "tls", "mtls", "v", "2", "v2"]
    assert "mtls" in words("access_mtls_list")


def test_argument_names_and_the_response_title_are_searched() -> None:
    # `jump_start` is only an argument of zones_post; "Zone" only zones_get's response title.
    assert first("jump start") == "zones_post"
    assert first("paused") == "zones_patch"
    index = SearchIndex([entry("a_one", "Read it", output_title="Invoice"),
                         entry("b_two", "Read it")])
    assert [h.name for h in index.search("invoice")] == ["a_one"]


def test_common_verbs_meet_their_synonyms() -> None:
    assert first("fetch zone details") == "zones_get"
    assert first("remove zone") == "zones_delete"
    assert first("modify zone") == "zones_patch"
    assert first("add zone") == "zones_post"
    # The word itself beats its synonym: "purge" is records_purge's, not any delete's.
    assert first("purge") == "records_purge"
    # A synonym counts less than the word: "delete" finds the DELETE route's tool first.
    assert first("delete zone") == "zones_delete"


def test_a_synonym_counts_a_fifth_less_than_the_word() -> None:
    fillers = [entry(f"filler_{i:02}", f"Filler {i}", method="POST") for i in range(20)]
    index = SearchIndex([entry("thing_delete", "Delete thing", method="POST"),
                         entry("thing_remove", "Remove thing", method="POST"), *fillers])
    remove, delete = index.search("remove")
    assert (remove.name, delete.name) == ("thing_remove", "thing_delete")
    # 0.8 of the word, and the group's rarity (below the word's own) on top of that.
    assert delete.score < 0.7 * remove.score


def test_a_summary_less_tool_is_titled_by_its_first_sentence() -> None:
    index = SearchIndex(CATALOG)
    assert index.search("creates a new customer object")[0].name == "customers_create"
    # The first sentence weighs as a title: more than the same words further on, even in a
    # shorter description.
    later = entry("later", description="Nothing. Creates a customer.")
    opening = entry("opening", description="<p>Creates a customer.</p> Then " + "more " * 30)
    index = SearchIndex([later, opening])
    assert [h.name for h in index.search("creates customer")] == ["opening", "later"]


def test_boilerplate_in_every_description_still_tells_tools_apart_by_name() -> None:
    # `/v2/` is in every description; `V2` in one tool's name and title only, and that
    # tool's longer description must not bury it.
    see = "See /v2/registry."
    tools = [entry("registry_repositories", "List Registry Repositories", see),
             entry("registry_repositories_v2", "List Registry Repositories (V2)",
                   see + " Deprecated: the old listing stays for clients that call it."),
             *(entry(f"other_{i}", f"Other {i}", see) for i in range(6))]
    hits = SearchIndex(tools).search("List Registry Repositories (V2)")
    assert hits[0].name == "registry_repositories_v2"


def test_the_same_query_gives_the_same_page_whatever_the_order() -> None:
    forward = SearchIndex(CATALOG).search("zone")
    backward = SearchIndex(list(reversed(CATALOG))).search("zone")
    assert forward == backward
    scores = [h.score for h in forward]
    assert scores == sorted(scores, reverse=True)
    tied = [h.name for h in forward if h.score == forward[-1].score]
    assert tied == sorted(tied)   # ties go to the name


def test_a_name_comes_first_and_no_word_lists_every_tool() -> None:
    assert first("zones_delete") == "zones_delete"
    assert [h.name for h in SearchIndex(CATALOG).search("the of")] == sorted(
        e["tool"]["name"] for e in CATALOG)
    assert SearchIndex([]).search("zone") == []
