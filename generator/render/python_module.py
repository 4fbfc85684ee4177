"""The Python module of a catalog: rendered from a template, formatted with black.

The module stays small whatever the catalog size: tool data is loaded from
``catalog.json`` beside it, and the module adds the types (a ``Literal`` of tool
names) and accessors a Python MCP server needs.

black is the slowest step of ``toolcat check`` on a big catalog (2 s for the
1,223 names of the GitHub spec), and its output is a pure function of its input
text, its version and its mode. So the module's first two lines record a digest
of that input (``rendered``) and a digest of black's output (``formatted``, the
rest of the file). Given the module already on disk, a render whose input digest
matches and whose on-disk body still hashes to the recorded output digest reuses
those bytes instead of formatting again; any other case runs black. The header
is part of the deterministic output: it changes only when the body does, or when
black's pinned version does (which may change the body too).
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

from generator.model.types import Catalog
from generator.render.templates import environment
from generator.vocab.digests import sha256_hex as _sha256

TEMPLATE = "python_module.py.jinja"
# black's mode, spelled out once: it is both what black runs with and part of the
# rendered digest, so changing it here re-formats every module.
TARGET_VERSION = "PY311"
LINE_LENGTH = 88
RENDERED = "# toolcat-rendered: "
FORMATTED = "# toolcat-formatted: "


def render_python(catalog: Catalog, templates: Path | None = None,
                  previous: bytes | None = None, regenerate: str = "") -> bytes:
    """The module's bytes; ``previous``: the module now on disk, if any (see above);
    ``regenerate``: the command that regenerates it in its project."""
    env = environment(templates)
    text = env.get_template(TEMPLATE).render(
        name=catalog.name,
        regenerate=regenerate or f"toolcat generate {catalog.name}",
        spec=catalog.source.spec,
        tool_names=[t.name for t in catalog.tools],
    )
    rendered = rendered_digest(text)
    if previous is not None:
        reused = reuse(previous, rendered)
        if reused is not None:
            return reused
    body = _black(text).encode()
    return _header(rendered, _sha256(body)) + body


def read_previous(path: Path) -> bytes | None:
    """The module on disk, or None when there is none to reuse."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def rendered_digest(text: str) -> str:
    """Digest of everything black's output depends on: version, mode, input."""
    key = f"black=={version('black')}\0{TARGET_VERSION}\0{LINE_LENGTH}\0{text}"
    return _sha256(key.encode())


def reuse(previous: bytes, rendered: str) -> bytes | None:
    """``previous`` when black already formatted exactly this input into it."""
    first, _, rest = previous.partition(b"\n")
    second, _, body = rest.partition(b"\n")
    header = _header(rendered, _sha256(body))
    if first + b"\n" + second + b"\n" == header:
        return previous
    return None


def _header(rendered: str, formatted: str) -> bytes:
    return f"{RENDERED}{rendered}\n{FORMATTED}{formatted}\n".encode()


def _black(text: str) -> str:
    # Imported here: black takes 0.3 s to import, and a check that reuses the
    # module on disk never needs it.
    import black  # noqa: PLC0415
    from black.mode import TargetVersion  # noqa: PLC0415

    mode = black.Mode(target_versions={TargetVersion[TARGET_VERSION]}, line_length=LINE_LENGTH)
    return black.format_str(text, mode=mode)
