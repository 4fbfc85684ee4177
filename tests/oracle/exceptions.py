"""Rejections that are the document's fault or the validator's, pinned by document and tool.

scripts/oracle_table.py counts these apart ("pinned") and names every other rejection;
a pinned tool that starts passing, or a new rejection, shows up in the table.
"""

from __future__ import annotations

from typing import Any

SPEC = "the document's fault"
VALIDATOR = "the validator's fault"
BYTES = (VALIDATOR, "openapi-core 0.23 reads a binary body (or a multipart part) as bytes and "
                    "refuses it as 'not of type string'")

# document -> tool -> (whose fault, why)
PINNED: dict[str, dict[str, tuple[str, str]]] = {
    "corpus/lichess/doc/specs/lichess-api.yaml": dict.fromkeys(
        ("api_board_seek", "broadcast_round_create", "broadcast_round_update"),
        (VALIDATOR, "openapi-core 0.23 cannot read a form-urlencoded body whose schema is a "
                    "oneOf/anyOf: it deserialises no field and fills defaults")),
    "corpus/cloudflare/openapi.json": {
        "dlp_datasets_upload_version": BYTES,
        "custom_hostname_for_a_zone_list_custom_hostnames": (
            SPEC, "query parameter ssl's default '0' is not one of its enum [0, 1]; the "
                  "validator fills the default when the parameter is absent"),
        "radar_get_attacks_layer3_timeseries_by_bytes": (
            SPEC, "query parameter metric's default 'bytes' is not one of its enum "
                  "['BYTES', 'BYTES_OLD']; the validator fills the default when absent"),
        **dict.fromkeys(
            ("namespace_worker_script_upload_worker_module", "worker_script_upload_worker_module"),
            (VALIDATOR, "openapi-core 0.23 picks a multipart body's oneOf branch by validating "
                        "the raw parts (text parts as bytes, JSON parts undecoded): no branch "
                        "matches, so it decodes no field (or only one branch's) and judges "
                        "`{}`, which both open branches admit ('valid under each of')")),
    },
    "corpus/digitalocean/specification/DigitalOcean-public.v2.yaml": {
        **dict.fromkeys(
            ("ssh_keys_get", "ssh_keys_update", "ssh_keys_delete"),
            (VALIDATOR, "path parameter ssh_key_identifier is anyOf two readOnly schemas; "
                        "readOnly concerns properties only (OpenAPI 3.0), but openapi-core "
                        "0.23 refuses any value of it in a request")),
    },
    "corpus/github/api.github.com.json": {
        "repos_upload_release_asset": BYTES,
    },
    "corpus/openai/openapi.yaml": {
        **dict.fromkeys(
            ("add_upload_part", "create_file", "create_image_variation", "create_realtime_call",
             "create_transcription", "create_translation", "create_video_character",
             "create_voice", "create_voice_consent", "createcontentprovenancecheck"),
            (VALIDATOR, "openapi-core 0.23 reads multipart parts as bytes (and does not cast "
                        "number or JSON parts): 'b\"...\" is not of type string'")),
        **dict.fromkeys(
            ("accept_realtime_call", "create_completion", "create_fine_tuning_job",
             "create_image", "create_run", "create_thread_and_run", "modify_vector_store"),
            (SPEC, "an OpenAPI 3.1 document using 3.0's `nullable: true`, which 3.1 does not "
                   "know: the inputSchema follows the intent (null allowed), the letter refuses "
                   "null")),
        **dict.fromkeys(
            ("beta_compactconversation", "compactconversation", "create_chat_completion",
             "create_container", "create_vector_store_file", "create_vector_store_file_batch",
             "search_vector_store"),
            (SPEC, "a discriminator without a mapping whose values (`function`, `user`, "
                   "`inline`, `static`, `message`, `eq`) name no schema, as an unmapped "
                   "value must: openapi-core resolves '#/components/schemas/<value>' and "
                   "fails")),
        # the same class, seen with --tools 120 (Tool's `web_search_2025_08_26`, `computer`)
        **dict.fromkeys(
            ("create_response", "beta_create_response"),
            (SPEC, "a discriminator without a mapping whose values (`web_search_2025_08_26`, "
                   "`computer`) name no schema, as an unmapped value must")),
    },
    "corpus/plex/plex-api-spec.yaml": {
        **dict.fromkeys(
            ("set_preferences", "set_section_preferences"),
            (VALIDATOR, "a required free-form object query parameter, form/exploded (each "
                        "member is its own name=value); openapi-core 0.23 looks for a "
                        "parameter named 'prefs' and reports it missing")),
        "get_first_characters": (SPEC, "query parameter mediaQuery (form, exploded object) "
                                       "writes `type` and `sort`, names the operation also "
                                       "declares as integer parameters: its string `sort` "
                                       "lands on the integer one"),
    },
    "corpus/stripe/spec3.yaml": {
        "post_files": BYTES,
    },
    "corpus/sonarr/openapi.json": {
        "get_root": (SPEC, "GET / declares a path parameter 'path' its template does not "
                           "have (openapi-spec-validator rejects the document for it)"),
        "post_login": (VALIDATOR, "openapi-core 0.23 reads multipart text parts as bytes and "
                                  "rejects them as 'not of type string'"),
    },
}


def pinned(document: str, tool: str) -> tuple[str, str] | None:
    return PINNED.get(document, {}).get(tool)


UNTYPED_OBJECT = (SPEC, "the response schema lists `properties` but no `type` (openai's "
                        "OpenAIFile, plex's download queue): JSON Schema's letter admits any "
                        "non-object too (null was drawn); the document means an object (its "
                        "title and description say so), and toolcat's outputSchema is that "
                        "object, at the root as MCP wants")
_COMBINATORS = ("oneOf", "anyOf", "allOf", "not", "enum", "const", "$ref")


def response_pin(schema: Any, instance: Any) -> tuple[str, str] | None:
    """Pinned by class (any document): a response the spec's schema admits only by the
    letter of an untyped schema with ``properties``, and which is not an object."""
    if isinstance(instance, dict) or not isinstance(schema, dict):
        return None
    if "type" in schema or "properties" not in schema or schema.get("nullable") is True:
        return None
    if any(k in schema for k in _COMBINATORS):
        return None
    return UNTYPED_OBJECT
