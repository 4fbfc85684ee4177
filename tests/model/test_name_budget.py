"""Tool names: ``^[A-Za-z0-9_-]{1,64}$``, readable, stable, within the configured budget.

* With an operationId the name is its snake_case; without one (sonarr's 235
  operations, overseerr's 170) it is spelled from the route: method, the path's
  words, ``by_<param>`` for templated segments, ``api``/version prefixes skipped.
* A name over the budget (64, or ``name_budget`` in the config, down to 16) keeps
  its leading whole words and ends in six hex digits of the full name's sha256: the
  result depends on that name alone, never on spec order or on other names.
"""

from __future__ import annotations

import re

import pytest
from helpers.fixtures import real_catalog
from toolcat.model.naming import argument_name, name_from_route, shorten, tool_name

NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
LONG = "get_organizations_by_org_id_projects_by_project_id_columns_by_column_id_cards"


@pytest.mark.parametrize(("method", "path", "name"), [
    ("GET", "/api/v3/series/{id}/episodes", "get_series_by_id_episodes"),
    ("GET", "/api", "get_api"),
    ("GET", "/", "get_root"),
    ("GET", "/{path}", "get_by_path"),
    ("PUT", "/api/v3/qualityprofile/{id}", "put_qualityprofile_by_id"),
    ("GET", "/feed/v3/calendar/sonarr.ics", "get_feed_calendar_sonarr_ics"),
    ("POST", "/user/{userId}/settings/notifications",
     "post_user_by_user_id_settings_notifications"),
])
def test_name_from_route(method: str, path: str, name: str) -> None:
    assert name_from_route(method, path) == name


@pytest.mark.parametrize("budget", [64, 40, 30, 16])
def test_shorten(budget: int) -> None:
    short = shorten(LONG, budget)
    assert len(short) <= budget
    assert NAME.match(short)
    assert short == shorten(LONG, budget)          # deterministic
    assert short.startswith("get_organ")           # readable: leading words kept
    assert re.search(r"_[0-9a-f]{6}$", short)      # the full name's digest
    assert shorten(LONG + "_x", budget) != short   # a shared prefix does not collide


def test_shorten_ends_on_a_word_and_leaves_fitting_names() -> None:
    assert shorten(LONG, 40) == "get_organizations_by_org_id_" + "23fbc5"
    assert shorten("get_pets", 16) == "get_pets"
    # The prefix is part of the name the budget counts.
    assert tool_name("acme_", "listAllPetsWithTheirOwners", "GET", "/pets", 24) == (
        "acme_list_all_" + shorten("acme_list_all_pets_with_their_owners", 24)[-6:])


def test_argument_names() -> None:
    assert argument_name("$ref") == "ref"
    assert argument_name("X-Plex-Client-Identifier") == "X-Plex-Client-Identifier"
    assert argument_name("filter[status]") == "filter_status"
    assert len(argument_name("a" * 100)) == 64


@pytest.mark.parametrize(("spec", "names"), [
    (("sonarr", "openapi.json"), {"get_api", "get_root", "get_by_path",
                                  "get_series_by_id", "put_series_by_id",
                                  "delete_episodefile_bulk"}),
    (("overseerr", "overseerr-api.yml"), {"delete_issue_by_issue_id", "get_discover_movies",
                                          "delete_user_by_user_id_push_subscription_by_key"}),
])
def test_made_up_names(spec: tuple[str, str], names: set[str]) -> None:
    catalog = real_catalog("corpus", *spec)
    made = [e["tool"]["name"] for e in catalog["tools"]]
    assert all(e["binding"]["operationId"] is None for e in catalog["tools"])
    assert names <= set(made)
    assert len(set(made)) == len(made)
    assert all(NAME.match(n) for n in made)


@pytest.mark.parametrize("budget", [64, 32, 20])
def test_github_within_budget(budget: int) -> None:
    catalog = real_catalog("corpus", "github", "api.github.com.json", name_budget=budget)
    names = [e["tool"]["name"] for e in catalog["tools"]]
    assert max(map(len, names)) <= budget
    assert len(set(names)) == len(names) == 623
    if budget < 64:
        assert sum(1 for n in names if re.search(r"_[0-9a-f]{6}$", n)) > 10
