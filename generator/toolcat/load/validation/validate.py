"""Validate the bundled document with openapi-spec-validator, offline.

The validator fetches remote ``$ref``s by default; here every URL scheme is
denied, so a reference that escaped bundling fails instead of touching the
network. Its errors are turned into problems with a JSON pointer.
"""

from __future__ import annotations

import ast
import ctypes
import gc
import os
import pickle
import re
import signal
import threading
import time
from collections.abc import Callable, Generator
from contextlib import nullcontext
from typing import Any
from urllib.parse import unquote

from ...errors import Problem, ToolcatError
from ...identity import installed_version
from ...vocab.pointers import pointer, split_pointer
from . import settings_light
from .bounds import BOUNDS
from .false_positives import pinned
from .findings import Findings, refusal
from .locate import Locator
from .order import DEFAULT_OF, ORDER, SCHEMA
from .speedups import speedups

RESOLVED_CACHE = 4096
FIX = ("correct the document at that location (for a document you do not own, keep the fix "
       "in an overlay beside it)")


# openapi-spec-validator checks the document against the OpenAPI schema with
# jsonschema-rs whenever jsonschema-rs is installed, and with jsonschema otherwise:
# messages differ, and so could verdicts. toolcat requires jsonschema-rs and always
# asks for it, so a verdict depends only on the versions named in validator_id().
BACKEND_SETTING = "OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND"
BACKEND = "jsonschema-rs"


def validator_id() -> str:
    """Name and version of the validator: part of what a validation verdict depends on."""
    return (f"openapi-spec-validator=={installed_version('openapi-spec-validator')},"
            f"{BACKEND}=={installed_version(BACKEND)}")


def verdict(spec_sha: str, validator: str | None = None) -> str:
    """'<spec digest> <validator>': the one spelling of a validation verdict."""
    return f"{spec_sha} {validator_id() if validator is None else validator}"


class _DenyEveryScheme(dict[str, Callable[[str], Any]]):
    """Resolver handlers that refuse every URI scheme, not only the ones listed.

    jsonschema-path hands a scheme it has no handler for to urlopen (ftp:, data:):
    with this mapping every scheme has one, and it refuses.
    """

    def __contains__(self, scheme: object) -> bool:
        return True

    def __getitem__(self, scheme: str) -> Callable[[str], Any]:
        return _deny


def _deny(uri: str) -> Any:
    raise ToolcatError([Problem(uri, "", "reference not resolvable offline",
                                "make every $ref local or a relative file path")])


def _errors(document: dict[str, Any]) -> Generator[Any, None, None]:
    # Imported here: slow to import, and `check` on an unchanged spec never validates.
    os.environ[BACKEND_SETTING] = BACKEND  # read when the backend is first used
    from jsonschema_path import SchemaPath  # noqa: PLC0415
    from openapi_spec_validator.schemas import get_validator_backend  # noqa: PLC0415
    from openapi_spec_validator.shortcuts import get_validator_cls  # noqa: PLC0415

    if get_validator_backend() != BACKEND:
        raise RuntimeError(f"openapi-spec-validator would not use {BACKEND}")
    handlers = _DenyEveryScheme()
    # Without a resolved-$ref cache the validator resolves every reference anew:
    # Stripe takes 5.5 s instead of 3.
    path = SchemaPath.from_dict(document, handlers=handlers,
                                resolved_cache_maxsize=RESOLVED_CACHE)
    validator = get_validator_cls(document)(path)
    schema_keyword: Any = validator.keyword_validators_registry["schema"]
    # The validator remembers visited schemas in lists, so each membership test
    # scans them all: quadratic, 14 s of GitHub's 39. Same answers, from a set.
    schema_keyword.visited_schema_ids = _IdList()
    schema_keyword.meta_checked_schema_ids = _IdList()
    yield from validator.iter_errors()


class _IdList(set[int]):
    """The validator's list of visited ids as a set: it only appends and tests membership."""

    append = set.add


def validate_document(document: dict[str, Any], file: str) -> None:
    """Raise ToolcatError with what the validator found (strict mode's refusal)."""
    findings = find_problems(document, file)
    if findings.counted:
        raise refusal(findings)


def find_problems(document: dict[str, Any], file: str) -> Findings:
    """Every problem the validator finds, counted once each."""
    if not any(k in document for k in ("openapi", "swagger")):
        raise ToolcatError([Problem(file, "", "not an OpenAPI document: no 'openapi' or "
                                    "'swagger' field", "point toolcat at an OpenAPI file")])
    return Findings.of(file, _problems(document, file, None))


def _problems(document: dict[str, Any], file: str, limit: int | None,
              fast: bool = True) -> list[Problem]:
    """The validator's first ``limit`` problems (all: None), sped up unless not ``fast``."""
    problems: list[Problem] = []
    settings_light.install()   # before the validator is first imported (bounds do)
    # The bounds always: without them small documents validate for minutes; the order
    # always: without it the findings depend on PYTHONHASHSEED.
    with speedups(BOUNDS + ORDER), speedups() if fast else nullcontext():
        errors = _errors(document)
        locator = Locator(document)
        try:
            for err in errors:
                problem = _problem(err, locator, file)
                if pinned(problem, document) is None:   # the specification allows it
                    problems.append(problem)
                if limit is not None and len(problems) >= limit:
                    break
        except ToolcatError:
            raise
        except Exception as exc:  # the validator raises on dangling refs instead of yielding
            problems.append(_raised(exc, document, file, problems))
        finally:
            errors.close()  # before the patches go: nothing runs patched code later
    return problems


def _problem(err: Any, locator: Locator, file: str) -> Problem:
    message = _in_order(str(getattr(err, "message", err)).splitlines()[0])
    path = list(getattr(err, "absolute_path", []) or [])
    instance = getattr(err, "instance", None)
    holder = getattr(err, DEFAULT_OF, None)
    where = None if holder is None else locator.in_default(holder, path, instance)
    if where is None:
        where = locator.locate(message, path, instance, getattr(err, SCHEMA, None))
    if len(message) > 300:
        message = message[:300] + "..."
    if where is None:
        return Problem(file, "/", f"invalid OpenAPI: {message} (the validator gives no "
                       "location)", "search the document for the value named")
    return Problem(file, where, f"invalid OpenAPI: {message}", FIX)


_EXTRA_REQUIRED = re.compile(r"^(Required list has not defined properties: )(\[.*\])$")


def _in_order(message: str) -> str:
    """The message with the names it lists in a set's order (openapi-spec-validator's
    required names that no property defines) sorted: the same whatever the hash seed."""
    match = _EXTRA_REQUIRED.match(message)
    if match is None:
        return message
    try:
        names = ast.literal_eval(match[2])
    except (ValueError, SyntaxError):
        return message
    if not isinstance(names, list):
        return message
    return match[1] + repr(sorted(names, key=repr))


def _raised(exc: Exception, document: dict[str, Any], file: str,
            found: list[Problem]) -> Problem:
    """A problem for what the validator raised instead of yielding, always located.

    It raises on a dangling ``$ref`` (located by ``_unresolvable``), recurses
    without end on a cycle of bare references (located by ``_ref_cycle``), and its
    semantic pass trips over documents its structural pass already faulted
    (``KeyError: 'name'`` for a parameter without one): then the problems found
    so far are the reason, and the note says the list stops there.
    """
    if isinstance(getattr(exc, "ref", None), str) and getattr(exc, "ref", None):
        return _unresolvable(exc, document, file)
    cycle = _ref_cycle(document)
    if cycle is not None:
        through = sorted({k for p in cycle for k in (*_SAME_INSTANCE, "not")
                          if f"/{k}/" in p or p.endswith(f"/{k}")})
        kind = (f"through {'/'.join(through)} with no property or item in between"
                if through else "with no schema in between")
        refs = [p for p in cycle if isinstance(_at(document, p), dict)
                and isinstance(_at(document, p).get("$ref"), str)]
        return Problem(file, refs[0] if refs else cycle[0], f"invalid OpenAPI: $ref cycle "
                       f"{kind}: {' -> '.join(cycle)}", "make one of them a schema with "
                       "properties or items, not only a reference or composition")
    if found:
        return Problem(file, found[-1].location, "the validator stopped after the "
                       f"problems above ({type(exc).__name__})", "fix those first")
    return Problem(file, "/", f"the validator failed on this document "
                   f"({type(exc).__name__}: {str(exc)[:200]})",
                   "report this to toolcat with the document")


# Keywords through which a schema is its subschemas, at the same instance: a cycle of
# references through these alone never reaches a property or item, so the
# validator's walk of it has no end.
_SAME_INSTANCE = ("allOf", "anyOf", "oneOf")


def _ref_cycle(document: dict[str, Any]) -> list[str] | None:
    """Pointers of a cycle of ``$ref``s (each local) joined only by allOf/anyOf/oneOf/not,
    if any; one depth-first walk, each node finished once."""
    done: set[str] = set()
    for start in _ref_holders(document):
        cycle = _cycle_from(document, start, done)
        if cycle is not None:
            return cycle
    return None


def _ref_holders(document: dict[str, Any]) -> list[str]:
    found: list[str] = []
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                found.append(pointer(*path))
            stack.extend((v, (*path, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(node))))
    return found


def _cycle_from(document: dict[str, Any], start: str, done: set[str]) -> list[str] | None:
    path: list[str] = []
    on_path: set[str] = set()
    stack: list[tuple[str, bool]] = [(start, False)]
    while stack:
        ptr, leaving = stack.pop()
        if leaving:
            path.pop()
            on_path.discard(ptr)
            done.add(ptr)
            continue
        if ptr in on_path:
            return [*path[path.index(ptr):], ptr]
        if ptr in done:
            continue
        path.append(ptr)
        on_path.add(ptr)
        stack.append((ptr, True))
        stack.extend((child, False) for child in reversed(_same_instance(document, ptr)))
    return None


def _same_instance(document: dict[str, Any], ptr: str) -> list[str]:
    """Where the schema at ``ptr`` continues at the same instance: its local ``$ref``'s
    target, its allOf/anyOf/oneOf members, its ``not``."""
    node = _at(document, ptr)
    if not isinstance(node, dict):
        return []
    found: list[str] = []
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        found.append(unquote(ref[1:]))
    for key in _SAME_INSTANCE:
        if isinstance(node.get(key), list):
            found += [f"{ptr}/{key}/{i}" for i in range(len(node[key]))]
    if isinstance(node.get("not"), dict):
        found.append(f"{ptr}/not")
    return found


def _at(document: Any, ptr: str) -> Any:
    try:
        for token in split_pointer(ptr):
            document = document[int(token) if isinstance(document, list) else token]
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    return document


def _unresolvable(exc: Exception, document: dict[str, Any], file: str) -> Problem:
    ref = getattr(exc, "ref", None)
    if not isinstance(ref, str) or not ref:
        return Problem(file, "/", f"invalid OpenAPI: {str(exc).splitlines()[0][:300]}",
                       "fix or remove the reference")
    # The exception knows the target, not where the reference is written: find it.
    found = _find_ref(document, {ref, "#" + ref, "#/" + ref.lstrip("/")})
    where, written = found if found else ("", ref)
    return Problem(file, where, f"invalid OpenAPI: $ref '{written}' does not resolve",
                   "point the reference at an existing object, or remove it")


def _find_ref(document: Any, wanted: set[str]) -> tuple[str, str] | None:
    """(pointer of the first ``$ref`` in document order whose value is wanted, value)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref in wanted:
                return pointer(*path, "$ref"), ref
            stack.extend((v, (*path, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(node))))
    return None


def _die_with(parent: int) -> None:
    """Make this forked child end when ``parent`` does, even by SIGKILL.

    Linux's PR_SET_PDEATHSIG does it at once; elsewhere a thread watches for the
    child being handed to another parent. Either way no validator outlives a
    killed toolcat (a minute of CPU on a big spec, for nobody).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass   # no prctl here: the watcher below is the only guard

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    if os.getppid() != parent:   # the parent died before the guard was in place
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


_PR_SET_PDEATHSIG = 1


def validate_in_background(document: dict[str, Any], file: str) -> Callable[[], Findings]:
    """Start validating in a forked process; return the function that waits for it.

    Validation and generation are independent pure functions of the document, so on
    a machine with two cores they run side by side. The child only reads the
    document it inherited and sends back its findings; where ``fork`` is missing,
    validation runs here, first. A problem that is not about the document (it is
    no OpenAPI file, the validator broke) is raised by the waiting function.
    """
    if not hasattr(os, "fork"):
        findings = find_problems(document, file)
        return lambda: findings
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: validate, report, leave without running any cleanup
        _die_with(parent)
        # What it inherited (the document, the parent's modules) is never garbage
        # here: the collector need not walk it (GitHub: 0.12 -> 0.02 s of the child's
        # CPU) nor write to its pages, which the parent still shares.
        gc.freeze()
        os.close(read_end)
        # Findings, or the problems of an error (an exception does not pickle whole).
        result: Findings | tuple[Problem, ...]
        try:
            result = find_problems(document, file)
        except ToolcatError as exc:
            result = exc.problems
        except BaseException as exc:
            result = (Problem(file, "/", f"the validator failed: {exc!r}"[:300],
                              "report this with the document"),)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(pickle.dumps(result))
        os._exit(0)
    os.close(write_end)

    def wait() -> Findings:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        result = pickle.loads(data) if data else (
            Problem(file, "/", "the validation process died", "run again"),)
        if isinstance(result, tuple):
            raise ToolcatError(result)
        findings: Findings = result
        return findings

    return wait
