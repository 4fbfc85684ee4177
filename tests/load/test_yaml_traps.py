"""YAML 1.1 traps are disarmed, and JSON is read as JSON.

* Unquoted status codes (``200:``) stay the string keys OpenAPI means, never ints.
* Unquoted dates (``example: 2022-01-01``; digitalocean has 109, overseerr 4) stay
  the text written, never ``datetime`` objects JSON cannot hold.
* YAML 1.2 core scalars, as OpenAPI recommends: ``off``/``yes`` are text
  (digitalocean's droplet status enum has ``off``, lichess has ``const: yes``),
  ``18:00`` is text, not sexagesimal 1080 (museum), ``02134`` is decimal.
* A ``.json`` file is parsed by a JSON parser: real JSON carries escapes
  (surrogate pairs) that PyYAML rejects, and JSON through YAML is 100x slower.
* A syntax error names the file and the line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.fixtures import generate, real_catalog, tool, write_spec
from toolcat.errors import ToolcatError
from toolcat.parse.reader import read_document

YAML = """\
openapi: 3.0.3
info: {title: traps, version: "1.0"}
paths:
  /events:
    get:
      operationId: listEvents
      parameters:
        - in: query
          name: since
          schema: {type: string, format: date, example: 2022-01-01, default: 2021-12-31}
        - in: query
          name: on
          schema: {type: string, enum: [on, off, yes, no]}
        - in: query
          name: at
          schema: {type: string, example: 18:00}
      responses:
        200:
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  at: {type: string, format: date-time, example: 2020-03-02T17:00:49Z}
        404:
          description: missing
"""


def test_yaml_keys_and_dates_stay_text(tmp_path: Path) -> None:
    data, _ = read_document(write_spec(tmp_path, YAML))
    responses = data["paths"]["/events"]["get"]["responses"]
    assert list(responses) == ["200", "404"]
    since = data["paths"]["/events"]["get"]["parameters"][0]["schema"]
    assert since["example"] == "2022-01-01"
    assert since["default"] == "2021-12-31"
    on, at = (p["schema"] for p in data["paths"]["/events"]["get"]["parameters"][1:])
    assert on["enum"] == ["on", "off", "yes", "no"]
    assert at == {"type": "string", "example": "18:00"}
    # .inf is a YAML 1.2 float JSON cannot hold: refused (tests/load/test_values_kept_exactly.py)
    data, _ = read_document(write_spec(tmp_path, "n: [02134, 1e5, 0x1f, 0o17, -1.5, true, ~]\n"))
    assert data["n"] == [2134, 100000.0, 31, 15, -1.5, True, None]


def test_yaml_traps_in_the_catalog(tmp_path: Path) -> None:
    entry = tool(generate(write_spec(tmp_path, YAML)), "list_events")
    props = entry["tool"]["inputSchema"]["properties"]
    assert props["since"]["default"] == "2021-12-31"
    assert props["since"]["examples"] == ["2022-01-01"]
    assert entry["binding"]["arguments"]["on"]["name"] == "on"   # not True
    assert props["on"]["enum"] == ["on", "off", "yes", "no"]
    output = entry["tool"]["outputSchema"]["properties"]["at"]
    assert output["examples"] == ["2020-03-02T17:00:49Z"]


def test_json_is_read_as_json(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    # A surrogate pair escape (an emoji) that PyYAML refuses.
    path.write_bytes(b'{"openapi": "3.1.0", "info": {"title": "\\ud83d\\ude00", "version": "1"}}')
    data, _ = read_document(path)
    assert data["info"]["title"] == "\U0001f600"


def test_json_syntax_error_is_located(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_bytes(b'{\n  "openapi": "3.1.0",\n  "info": {\n}')
    with pytest.raises(ToolcatError) as caught:
        read_document(path)
    assert caught.value.problems[0].location.startswith("line 4")
    assert "invalid JSON" in caught.value.render()


def test_yaml_syntax_error_is_located(tmp_path: Path) -> None:
    with pytest.raises(ToolcatError) as caught:
        read_document(write_spec(tmp_path, "openapi: 3.1.0\ninfo: [unclosed\n"))
    assert caught.value.problems[0].location.startswith("line 3")


def test_overseerr_dates() -> None:
    catalog = real_catalog("corpus", "overseerr", "overseerr-api.yml")
    props = tool(catalog, "get_discover_movies")["tool"]["inputSchema"]["properties"]
    assert props["primaryReleaseDateGte"]["examples"] == ["2022-01-01"]


def test_digitalocean_dates_and_off() -> None:
    catalog = real_catalog("corpus", "digitalocean", "specification",
                           "DigitalOcean-public.v2.yaml")
    output = tool(catalog, "volumes_get")["tool"]["outputSchema"]
    assert "'2020-03-02T17:00:49Z'" in str(output)
    droplet = tool(catalog, "droplets_get")["tool"]["outputSchema"]["$defs"]["droplet"]
    assert droplet["properties"]["status"]["enum"] == ["new", "active", "off", "archive"]


def test_museum_time_and_lichess_yes() -> None:
    museum = real_catalog("corpus", "museum", "openapi.yaml")
    hours = tool(museum, "get_museum_hours")["tool"]["outputSchema"]
    assert "'18:00'" in str(hours)
    assert "1080" not in str(hours)
    lichess = real_catalog("corpus", "lichess", "doc", "specs", "lichess-api.yaml")
    accept = tool(lichess, "board_game_draw")["tool"]["inputSchema"]["properties"]["accept"]
    assert {"type": "string", "const": "yes"} in accept["anyOf"]
