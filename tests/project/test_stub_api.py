"""The tests' stub API (tests/helpers/stub_api.py) records what really arrived: the request
target and header lines exactly as the bytes carried them (no `//` collapsed, no dot segment
removed, name case and repeats kept), the body by Content-Length, and a second request on a
kept-alive connection. Every wire-level assertion of the serve and verify tests rests on it.
"""

from __future__ import annotations

import ast
import socket
from pathlib import Path

from helpers.paths import REPO
from helpers.stub_api import Arrived, StubApi, replying, shape

RAW = (b"POST //a/./b/../c?x=%2e&y HTTP/1.1\r\nHost: h\r\nX-Key: one\r\nx-key: two\r\n"
       b"Content-Length: 5\r\n\r\nhello"
       b"GET /next HTTP/1.1\r\nHost: h\r\n\r\n")


def _exchange(api: StubApi, data: bytes, answers: int) -> bytes | None:
    """What came back once `answers` JSON answers did; None for a connection reset."""
    with socket.create_connection(("127.0.0.1", int(api.url.rsplit(":", 1)[1]))) as sock:
        sock.sendall(data)
        received = b""
        while received.count(b"HTTP/1.1 ") < answers or not received.endswith(b"}"):
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return None
            if not chunk:
                break
            received += chunk
    return received


def test_the_bytes_as_sent_are_recorded_and_a_kept_alive_request_too() -> None:
    with StubApi(replying(201, {"ok": True})) as api:
        received = _exchange(api, RAW, 2)
    assert received is not None
    assert api.seen == [
        Arrived("POST", "//a/./b/../c?x=%2e&y",
                (("Host", "h"), ("X-Key", "one"), ("x-key", "two"), ("Content-Length", "5")),
                b"hello"),
        Arrived("GET", "/next", (("Host", "h"),), b"")]
    assert api.seen[0].headers["x-key"] == "two"
    assert received.count(b"HTTP/1.1 201 Created\r\n") == 2
    assert b"Connection: close" not in received


def test_a_hostile_shape_closes_the_connection_after_its_answer() -> None:
    with StubApi(shape("reset")) as api:
        received = _exchange(api, RAW, 1)
    assert received is None
    assert [a.target for a in api.seen] == ["//a/./b/../c?x=%2e&y"]



def _binds_port_zero(node: ast.AST) -> bool:
    """``x.bind((host, 0))``: asking the system for a free port."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "bind" and len(node.args) == 1
            and isinstance(node.args[0], ast.Tuple) and len(node.args[0].elts) == 2
            and isinstance(node.args[0].elts[1], ast.Constant)
            and node.args[0].elts[1].value == 0)


def free_port_loops(paths: list[Path]) -> list[str]:
    """Where a module other than the helper finds a free port by itself."""
    helper = REPO / "tests" / "helpers" / "stub_api.py"
    texts = {path: path.read_text(encoding="utf-8") for path in paths if path != helper}
    return [f"{path.name}:{node.lineno}" for path, text in texts.items() if ".bind(" in text
            for node in ast.walk(ast.parse(text)) if _binds_port_zero(node)]


def test_scripts_and_tests_take_a_free_port_from_the_one_helper(tmp_path: Path) -> None:
    """helpers.stub_api.free_port is the project's only free-port loop (scripts import
    it, as scripts/conformance.py does): a second copy is one more to keep right."""
    paths = sorted([*(REPO / "scripts").rglob("*.py"), *(REPO / "tests").rglob("*.py")])
    assert free_port_loops(paths) == [], "use helpers.stub_api.free_port"
    copy = tmp_path / "own_port.py"
    copy.write_text('import socket\nwith socket.socket() as s:\n    s.bind(("127.0.0.1", 0))\n')
    assert free_port_loops([copy, REPO / "tests" / "helpers" / "stub_api.py"]) == [
        "own_port.py:3"]
