"""black's formatting of the Python toolcat writes, and the key that names its output.

black's output is a pure function of its input text, its version and its mode:
``black_key`` names all three, so a formatter may remember black's answers by that key
(cache/formatted.py) without ever reading a module back from disk.
"""

from __future__ import annotations

import re

from ..identity import installed_version
from ..vocab.digests import sha256_hex as _sha256
from .escape import Escaped

# black's mode, spelled out once: it is both what black runs with and part of the
# rendered digest, so changing it here re-formats every module.
TARGET_VERSION = "PY311"
LINE_LENGTH = 88


def black_key(text: str) -> str:
    """Digest of everything black's output depends on: version, mode, input (the
    version as the folder's record names it, without importlib.metadata's 2 ms)."""
    key = f"black=={installed_version('black')}\0{TARGET_VERSION}\0{LINE_LENGTH}\0{text}"
    return _sha256(key.encode())


def black_format(text: str) -> str:
    # Imported here: black takes 0.3 s to import, and a check that reuses the
    # module on disk never needs it.
    import black  # noqa: PLC0415
    from black.mode import TargetVersion  # noqa: PLC0415

    mode = black.Mode(target_versions={TargetVersion[TARGET_VERSION]}, line_length=LINE_LENGTH)
    return black.format_str(text, mode=mode)


class NotBlackStyle(Exception):
    """A value whose spelling in black's style ``black_literal`` does not know."""


# Printable ASCII but quotes and backslash: black writes such a string "like this".
_PLAIN = re.compile(r"[ !#-&(-\[\]-~]*")


def black_literal(value: object) -> Escaped:
    """``pyrepr`` as black spells it, for strings whose spelling is known for sure
    (printable ASCII without quotes or backslashes: in double quotes, as black's string
    normalisation writes them); anything else raises ``NotBlackStyle``, so that black
    decides."""
    if isinstance(value, str) and _PLAIN.fullmatch(value) is not None:
        return Escaped(f'"{value}"')
    raise NotBlackStyle(repr(value))


def fits(text: str) -> bool:
    """Every line of ``text`` within black's line length."""
    return all(len(line) <= LINE_LENGTH for line in text.splitlines())


def ruff_prepared(text: str) -> str:
    """``text`` as ruff's formatter writes it in black's mode, for black to check.

    ruff formats in black's style, ~100 times faster: where its output is black's (nearly
    always: tests/models/test_models_formatting.py), black's first pass leaves it
    unchanged and black skips its second pass; where it is not, black reformats it to
    its own. black decides the bytes either way. Where ruff fails or is missing, ``text``."""
    # Imported here: only models.py, the one big module black formats, needs it.
    import subprocess  # noqa: PLC0415

    try:
        from ruff import find_ruff_bin  # noqa: PLC0415

        command = [find_ruff_bin(), "format", "--isolated", "--quiet",
                   f"--line-length={LINE_LENGTH}",
                   f"--target-version={TARGET_VERSION.lower()}", "-"]
        done = subprocess.run(command, input=text.encode(), capture_output=True,
                              check=False)
    except (ImportError, OSError):   # not installed, or its binary missing
        return text
    return done.stdout.decode() if done.returncode == 0 else text
