"""Tool names in acronym-aware snake case; catalog names from the spec's title.

``CreateFFmpegProfile`` must not become ``create_f_fmpeg_profile``, nor ``IDs``
``i_ds``. Digits stay with the word before them (``v2``, ``ipv4``, ``http2``).
A change of name is a removal plus an addition for callers, so the table pins
every rule; two operations that still share a name stay an error naming both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import run_cli
from toolcat.model.naming import catalog_name, snake, tool_name

TABLE = [
    ("CreateFFmpegProfile", "create_ffmpeg_profile"),
    ("GetFFmpegProfiles", "get_ffmpeg_profiles"),
    ("getHTTPSUrl", "get_https_url"),
    ("listUserIDs", "list_user_ids"),
    ("floatingIPs_list", "floating_ips_list"),
    ("listDVRs", "list_dvrs"),
    ("getID", "get_id"),
    ("getAPIKey", "get_api_key"),
    ("XMLHttpRequest", "xml_http_request"),
    ("getV2Items", "get_v2_items"),
    ("HTTP2Settings", "http2_settings"),
    ("base64Encode", "base64_encode"),
    ("reservedIPv6_create", "reserved_ipv6_create"),
    ("getIPv4Address", "get_ipv4_address"),
    ("OAuth2Token", "oauth2_token"),
    ("GetETag", "get_etag"),
    ("getOAuthToken", "get_oauth_token"),
    ("iOSApps", "ios_apps"),
    ("radiOS", "radi_os"),            # a known word only where it stands as a word
    ("ETagged", "e_tagged"),
    ("get-user_by.name", "get_user_by_name"),
    ("already_snake_case", "already_snake_case"),
    ("ABC", "abc"),
]


@pytest.mark.parametrize(("operation_id", "expected"), TABLE)
def test_snake_table(operation_id: str, expected: str) -> None:
    assert snake(operation_id) == expected


def test_prefix_and_budget_apply_after_snake() -> None:
    assert tool_name("etv_", "CreateFFmpegProfile", "POST", "/x") == "etv_create_ffmpeg_profile"


@pytest.mark.parametrize(("title", "expected"), [
    ("ErsatzTV API", "ersatz_tv_api"),
    ("Swagger Petstore - OpenAPI 3.0", "swagger_petstore_openapi_3_0"),
    ("3D Printing", "api_3_d_printing"),
    ("", "my_folder"),
    (None, "my_folder"),
    ("!!!", "my_folder"),
    ("A very long title that goes on and on past forty characters",
     "a_very_long_title_that_goes_on_and_on"),
])
def test_catalog_name_from_title(title: object, expected: str) -> None:
    assert catalog_name(title, "my-folder") == expected


def _spec(tmp_path: Path, ops: dict[str, str], title: str = "Media Server API") -> Path:
    paths = {f"/{oid}": {"get": {"operationId": oid, "responses": {"200": {
        "description": "ok"}}}} for oid in ops}
    spec = tmp_path / "spec" / "openapi.json"
    spec.parent.mkdir()
    spec.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": title, "version": "1"},
                                "paths": paths}))
    return spec


def test_generated_names_and_default_catalog_name(tmp_path: Path) -> None:
    spec = _spec(tmp_path, {"CreateFFmpegProfile": "", "listUserIDs": ""})
    out = tmp_path / "out"
    result = run_cli("generate", "--spec", spec, "--out", out)
    assert result.returncode == 0, result.stderr
    catalog = json.loads((out / "catalog.json").read_text())
    assert catalog["name"] == "media_server_api"
    assert [t["tool"]["name"] for t in catalog["tools"]] == [
        "create_ffmpeg_profile", "list_user_ids"]


def test_collision_names_both_operations(tmp_path: Path) -> None:
    # Two operationIds that differ only where snake case cannot see it.
    spec = _spec(tmp_path, {"getUserIDs": "", "getUserIds": ""})
    result = run_cli("generate", "--spec", spec, "--out", tmp_path / "out")
    assert result.returncode == 2, result.stdout
    assert "tool name 'get_user_ids' is given to both" in result.stderr
    assert "'GET /getUserIDs'" in result.stderr
    assert "'GET /getUserIds'" in result.stderr
    assert "Traceback" not in result.stderr
