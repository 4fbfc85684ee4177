"""`make soak` (scripts/soak_serve.py) in small: every call answered, the server ends cleanly,
the stub API saw exactly the calls that are sent, and the RSS figures are read."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

from helpers.paths import REPO

SCRIPT = REPO / "scripts" / "soak_serve.py"
CALLS = 300


def test_soak_in_small() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT), "--calls", str(CALLS), "--json"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import soak_serve  # a script, importable only from scripts/
    finally:
        sys.path.remove(str(SCRIPT.parent))
    sent = [c for c in itertools.islice(itertools.cycle(soak_serve.CALLS), 200 + CALLS)
            if c[0] != "no_such_tool" and c[1] != {"channelId": "not a number"}]
    assert figures["api_requests"] == len(sent)
    assert figures["calls"] == CALLS
    assert figures["exit"] == 0
    assert 10 < figures["rss_start_mib"] < 2000
    assert 10 < figures["rss_end_mib"] < 2000
