"""The real documents the corpus tests read, and what is known about each one.

Paths are relative to ``../shared/corpus`` (see its INDEX.md) or, for ErsatzTV, to
``../shared/specs``. Sets are pinned by name: a document that starts or stops
failing shows up as a failing test, not as a silently different count.
"""

from __future__ import annotations

from pathlib import Path

from helpers.paths import SHARED, ref_root_for

SPECS = SHARED / "specs"

# Every root in INDEX.md, the JSON/YAML twins of the OAI examples, the ErsatzTV specs.
DOCUMENTS = (
    "corpus/github/api.github.com.json",
    "corpus/stripe/spec3.yaml",
    "corpus/cloudflare/openapi.json",
    "corpus/kubernetes/swagger.json.unprocessed",
    "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml",
    "corpus/openai/openapi.yaml",
    "corpus/discord/openapi.json",
    "corpus/plex/plex-api-spec.yaml",
    "corpus/sonarr/openapi.json",
    "corpus/jellyfin/openapi.json",
    "corpus/train-travel/openapi.yaml",
    "corpus/museum/openapi.yaml",
    "corpus/oai-examples/v3.0/petstore.yaml",
    "corpus/oai-examples/v3.0/petstore.json",
    "corpus/oai-examples/v3.0/petstore-expanded.json",
    "corpus/oai-examples/v3.0/petstore-expanded.yaml",
    "corpus/oai-examples/v3.0/api-with-examples.yaml",
    "corpus/oai-examples/v3.0/api-with-examples.json",
    "corpus/oai-examples/v3.0/callback-example.yaml",
    "corpus/oai-examples/v3.0/callback-example.json",
    "corpus/oai-examples/v3.0/link-example.yaml",
    "corpus/oai-examples/v3.0/link-example.json",
    "corpus/oai-examples/v3.0/uspto.json",
    "corpus/oai-examples/v3.0/uspto.yaml",
    "corpus/oai-examples/v3.1/webhook-example.yaml",
    "corpus/oai-examples/v3.1/webhook-example.json",
    "corpus/oai-examples/v3.1/tictactoe.json",
    "corpus/oai-examples/v3.1/tictactoe.yaml",
    "corpus/oai-examples/v3.1/non-oauth-scopes.yaml",
    "corpus/oai-examples/v3.1/non-oauth-scopes.json",
    "corpus/oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml",
    "corpus/lichess/doc/specs/lichess-api.yaml",
    "corpus/swagger-petstore/master/src/main/resources/openapi.yaml",
    "corpus/swagger-petstore/v31/src/main/webapp/design-first/petstore.yaml",
    "corpus/overseerr/overseerr-api.yml",
    "corpus/kratos/api.json",
    "specs/ersatztv/v1.json",
    "specs/ersatztv/v1-453737a5.json",
    "specs/ersatztv/scripted-schedule.json",
    "specs/ersatztv/v1-pr2735-89e78ffe.json",
)

# Documents openapi-spec-validator rejects, with a phrase of the first problem. They
# break a rule of OpenAPI that does not touch what a tool needs, so the catalog is
# generated in `validation: warn` mode, and checked like any other.
VALIDATOR_REJECTS = {
    "corpus/cloudflare/openapi.json": "'4xx' was unexpected",
    "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml":
        "None is not valid under any of the given schemas",
    "corpus/openai/openapi.yaml": "None is not of type 'object'",
    "corpus/plex/plex-api-spec.yaml": "Duplicate parameter",
    "corpus/sonarr/openapi.json": "Path parameter 'path' for 'get' operation in '/'",
    "specs/ersatztv/v1-pr2735-89e78ffe.json": "\"Option`1\" does not match",
}

# How many problems the validator reports for each (repeats included): warn mode
# records this number in catalog.json's source.problems.
VALIDATOR_PROBLEMS = {
    # 78: its ECMA named-group pattern is valid once jsonschema checks `regex` with the
    # regex package (installed for jsonpath-rfc9535); 79 with Python's re.
    "corpus/cloudflare/openapi.json": 78,
    "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml": 1,
    "corpus/openai/openapi.yaml": 25,
    "corpus/plex/plex-api-spec.yaml": 16,
    "corpus/sonarr/openapi.json": 1,
    "specs/ersatztv/v1-pr2735-89e78ffe.json": 5,
}

# Documents that are broken where a tool needs them. The CLI stops with exit 2 and
# the validator's words (first string); with validation skipped, the generator
# itself stops at this JSON pointer with this message (second and third).
BROKEN = {
    "corpus/swagger-petstore/v31/src/main/webapp/design-first/petstore.yaml": (
        "petDetails/$ref: invalid OpenAPI: None is not of type 'string'",
        "/components/schemas/Pet/properties/petDetails/$ref",
        "$ref must be a string, found None"),
}

# Operation counts from INDEX.md (operations under `paths`; webhooks are not tools).
OPERATIONS = {
    "corpus/github/api.github.com.json": 623, "corpus/stripe/spec3.yaml": 468,
    "corpus/cloudflare/openapi.json": 1533, "corpus/kubernetes/swagger.json.unprocessed": 1123,
    "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml": 659,
    "corpus/openai/openapi.yaml": 288, "corpus/discord/openapi.json": 242,
    "corpus/plex/plex-api-spec.yaml": 241, "corpus/sonarr/openapi.json": 235,
    "corpus/jellyfin/openapi.json": 408, "corpus/train-travel/openapi.yaml": 7,
    "corpus/museum/openapi.yaml": 8, "corpus/lichess/doc/specs/lichess-api.yaml": 190,
    "corpus/swagger-petstore/master/src/main/resources/openapi.yaml": 19,
    "corpus/overseerr/overseerr-api.yml": 170, "corpus/kratos/api.json": 60,
    "corpus/oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml": 4,
    "specs/ersatztv/v1.json": 18, "specs/ersatztv/v1-453737a5.json": 18,
    "specs/ersatztv/scripted-schedule.json": 28, "specs/ersatztv/v1-pr2735-89e78ffe.json": 215,
}

# Big enough that generating twice for the determinism check costs real time; one
# generation (with the second pass skipping validation) is still compared.
LARGE = frozenset({"corpus/stripe/spec3.yaml", "corpus/cloudflare/openapi.json",
                   "corpus/kubernetes/swagger.json.unprocessed",
                   "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml"})

# The size policy: whole catalogs and single tools (indented, as written).
MAX_CATALOG_BYTES = {"corpus/stripe/spec3.yaml": 10 * 1024 * 1024}
MAX_TOOL_BYTES = 256 * 1024
# Tools whose *input* schema alone is over the tool budget. Inputs are exact by
# policy, and Kubernetes' pod-shaped bodies reach 130+ definitions.
TOOLS_OVER_BUDGET: dict[str, frozenset[str]] = {
    "corpus/kubernetes/swagger.json.unprocessed": frozenset({
        "create_apps_v1_namespaced_stateful_set", "create_batch_v1_namespaced_cron_job",
        "create_batch_v1_namespaced_job", "create_core_v1_namespaced_pod",
        "replace_apps_v1_namespaced_stateful_set",
        "replace_apps_v1_namespaced_stateful_set_status",
        "replace_batch_v1_namespaced_cron_job", "replace_batch_v1_namespaced_cron_job_status",
        "replace_batch_v1_namespaced_job", "replace_batch_v1_namespaced_job_status",
        "replace_core_v1_namespaced_pod", "replace_core_v1_namespaced_pod_ephemeralcontainers",
        "replace_core_v1_namespaced_pod_resize", "replace_core_v1_namespaced_pod_status"}),
    "corpus/openai/openapi.yaml": frozenset({"beta_create_response"}),
}


def path_of(doc: str) -> Path:
    return SHARED / doc


def ref_root_of(doc: str) -> Path | None:
    return ref_root_for(path_of(doc))
