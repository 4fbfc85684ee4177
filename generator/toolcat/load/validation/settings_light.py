"""The validator libraries' settings modules, answered without pydantic-settings.

openapi-spec-validator and openapi-schema-validator each read a few settings from
environment variables through a pydantic-settings class. Importing pydantic-settings
(and, through it, pydantic) is 0.19 s of the 0.27 s the validating child spends
importing the validator, a quarter of its CPU on GitHub's description, for values
that, in toolcat's child, are the defaults and the backend toolcat sets itself.

``install()`` puts a stand-in for each settings module in ``sys.modules`` before the
libraries are first imported. A stand-in answers its own settings only when the
environment leaves nothing to interpret: no variable with the module's prefix (in any
case: pydantic-settings matches names case-insensitively), or, for
openapi-spec-validator, only the backend variable with a value its own normaliser
accepts as written (trimmed, lower-cased). Any other environment is handed to the
original module (loaded from its file under a private name), so every answer,
warning and error is the original's. ``tests/validation/test_validator_settings.py``
holds each stand-in to the original over a matrix of environments.

A stand-in, once the libraries are imported with it, stays for the life of the
process (in toolcat, the forked child that validates): it answers as the original
would, so nothing can tell. It is installed only against the exact versions it
mirrors, and only where neither library has been imported yet.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from functools import cache, lru_cache
from types import ModuleType, SimpleNamespace
from typing import Any

from ... import identity

SPEC_MODULE = "openapi_spec_validator.settings"
SCHEMA_MODULE = "openapi_schema_validator.settings"
WRITTEN_FOR = {"openapi-spec-validator": "0.9.0", "openapi-schema-validator": "0.9.0",
               "pydantic-settings": "2.16.3"}

# openapi_spec_validator/settings.py, 0.9.0
SPEC_PREFIX = "OPENAPI_SPEC_VALIDATOR_"
RESOLVED_CACHE_MAXSIZE_DEFAULT = 128
SCHEMA_VALIDATOR_BACKEND_DEFAULT = "auto"
SCHEMA_VALIDATOR_BACKEND_ALLOWED = {"auto", "jsonschema", "jsonschema-rs"}
BACKEND_VARIABLE = SPEC_PREFIX + "SCHEMA_VALIDATOR_BACKEND"
# openapi_schema_validator/settings.py, 0.9.0
SCHEMA_PREFIX = "OPENAPI_SCHEMA_VALIDATOR_"
COMPILED_VALIDATOR_CACHE_MAX_SIZE_DEFAULT = 128


def _prefixed(prefix: str) -> list[tuple[str, str]]:
    """Every environment variable pydantic-settings could read for ``prefix``."""
    low = prefix.lower()
    return [(k, v) for k, v in os.environ.items() if k.lower().startswith(low)]


@cache
def original(name: str) -> ModuleType:
    """The settings module ``name`` as the library ships it, loaded from its file under
    a private name (the real name is the stand-in's)."""
    package, _, leaf = name.rpartition(".")
    found = importlib.util.find_spec(package)
    where = found.submodule_search_locations if found is not None else None
    spec = importlib.machinery.PathFinder.find_spec(name, where)
    if spec is None or spec.loader is None:
        raise ImportError(f"no {name} to stand in for")
    module_spec = importlib.util.spec_from_file_location(
        f"toolcat_original_{package}_{leaf}", spec.origin)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {spec.origin}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def spec_settings() -> Any:
    """``OpenAPISpecValidatorSettings()``: its two fields, as the original finds them."""
    found = _prefixed(SPEC_PREFIX)
    backend = SCHEMA_VALIDATOR_BACKEND_DEFAULT
    if found:
        key, value = found[0]
        normalized = value.strip().lower()
        if (len(found) > 1 or key.lower() != BACKEND_VARIABLE.lower()
                or normalized not in SCHEMA_VALIDATOR_BACKEND_ALLOWED):
            return original(SPEC_MODULE).OpenAPISpecValidatorSettings()
        backend = normalized
    return SimpleNamespace(resolved_cache_maxsize=RESOLVED_CACHE_MAXSIZE_DEFAULT,
                           schema_validator_backend=backend)


def get_resolved_cache_maxsize() -> int:
    return int(spec_settings().resolved_cache_maxsize)


def get_schema_validator_backend() -> str:
    return str(spec_settings().schema_validator_backend)


def schema_settings() -> Any:
    """``OpenAPISchemaValidatorSettings()``, as the original finds it."""
    if _prefixed(SCHEMA_PREFIX):
        return original(SCHEMA_MODULE).OpenAPISchemaValidatorSettings()
    return SimpleNamespace(
        compiled_validator_cache_max_size=COMPILED_VALIDATOR_CACHE_MAX_SIZE_DEFAULT)


@lru_cache(maxsize=1)
def get_settings() -> Any:
    return schema_settings()


def _module(name: str, members: dict[str, Any]) -> ModuleType:
    module = ModuleType(name, f"toolcat's stand-in for {name} (see {__name__})")
    vars(module).update(members)
    return module


def applicable() -> bool:
    """The stand-ins mirror these exact versions, and only a first import takes them."""
    if any(m in sys.modules for m in ("openapi_spec_validator", "openapi_schema_validator",
                                      SPEC_MODULE, SCHEMA_MODULE)):
        return False
    return all(identity.installed_version(d) == v for d, v in WRITTEN_FOR.items())


def install() -> bool:
    """Register both stand-ins if ``applicable()``; whether they were."""
    if not applicable():
        return False
    sys.modules[SPEC_MODULE] = _module(SPEC_MODULE, {
        "ENV_PREFIX": SPEC_PREFIX,
        "RESOLVED_CACHE_MAXSIZE_DEFAULT": RESOLVED_CACHE_MAXSIZE_DEFAULT,
        "SCHEMA_VALIDATOR_BACKEND_DEFAULT": SCHEMA_VALIDATOR_BACKEND_DEFAULT,
        "SCHEMA_VALIDATOR_BACKEND_ALLOWED": set(SCHEMA_VALIDATOR_BACKEND_ALLOWED),
        "OpenAPISpecValidatorSettings": spec_settings,
        "get_resolved_cache_maxsize": get_resolved_cache_maxsize,
        "get_schema_validator_backend": get_schema_validator_backend})
    sys.modules[SCHEMA_MODULE] = _module(SCHEMA_MODULE, {
        "OpenAPISchemaValidatorSettings": schema_settings,
        "get_settings": get_settings,
        "reset_settings_cache": get_settings.cache_clear})
    return True
