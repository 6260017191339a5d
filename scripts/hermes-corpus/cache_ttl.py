#!/usr/bin/env python3
"""What Hermes makes of `prompt_caching.cache_ttl` in config.yaml, asked of Hermes' own code.

For each case below, a config.yaml holding it is written into a fresh HERMES_HOME and Hermes'
own readers answer, in a fresh interpreter: `prompt_caching_disabled_from_config()` (caching
off) and, where the build has it, `configured_cache_ttl()` (the tier it uses), with the value
Hermes' config loader hands them (`load_config_readonly()`). The answers go to a JSON file the
lens's tests compare its own reading with.

    /usr/bin/python3 scripts/hermes-corpus/cache_ttl.py --git-dir PATH/TO/hermes-agent.git \\
        --out test/fixtures/hermes-builds/cache-ttl.json

Needs the apt packages the corpus generator needs (see the fixtures README).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import archive_checkout  # noqa: E402

BUILDS = {"0.19.1": "41cc4a13fe8494652451225cdc6af3c279de3543", "0.20.3": "7339f5f160db5c96657a3bab60151227cc61f66c"}

# The `prompt_caching:` section of each case, as a user would write it (None: no section at all).
CASES = [
    None,
    "prompt_caching: {}",
    "prompt_caching:\n  cache_ttl: 5m",
    "prompt_caching:\n  cache_ttl: 1h",
    "prompt_caching:\n  cache_ttl: 1H",
    "prompt_caching:\n  cache_ttl: 2h",
    "prompt_caching:\n  cache_ttl: auto",
    "prompt_caching:\n  cache_ttl: 0",
    "prompt_caching:\n  cache_ttl:",
    "prompt_caching:\n  cache_ttl: null",
    "prompt_caching:\n  cache_ttl: false",
    "prompt_caching:\n  cache_ttl: off",
    "prompt_caching:\n  cache_ttl: \"off\"",
    "prompt_caching:\n  cache_ttl: no",
    "prompt_caching:\n  cache_ttl: \"No\"",
    "prompt_caching:\n  cache_ttl: none",
    "prompt_caching:\n  cache_ttl: Disabled",
    "prompt_caching:\n  cache_ttl: \"false\"",
    "prompt_caching:\n  cache_ttl: \" off \"",
    "prompt_caching:\n  cache_ttl: true",
    "prompt_caching:",
]

# Run in a fresh interpreter per case: Hermes' config loader keeps what it read.
ASK = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from hermes_cli.config import load_config_readonly
import agent.agent_runtime_helpers as helpers
section = load_config_readonly().get("prompt_caching")
raw = (section or {}).get("cache_ttl", "5m")
answer = {"disabled": helpers.prompt_caching_disabled_from_config(), "loaded": raw if raw is None or isinstance(raw, (bool, int, str)) else repr(raw)}
if hasattr(helpers, "configured_cache_ttl"):
    answer["configuredTtl"] = helpers.configured_cache_ttl()
print(json.dumps(answer))
"""


def ask(checkout: Path, case: str | None, scratch: Path) -> dict:
    home = Path(tempfile.mkdtemp(dir=scratch))
    (home / "config.yaml").write_text("model:\n  default: anthropic/claude-sonnet-4.6\n" + (case + "\n" if case else ""), encoding="utf-8")
    env = {**os.environ, "HERMES_HOME": str(home), "HOME": str(home), "HERMES_QUIET": "1"}
    out = subprocess.run(["/usr/bin/python3", "-c", ASK, str(HERE / "stubs"), str(checkout)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    result = {"cases": CASES, "builds": {}}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for version, commit in BUILDS.items():
            checkout = archive_checkout(args.git_dir, commit, scratch / commit[:7])
            result["builds"][version] = {"commit": commit, "answers": [ask(checkout, case, scratch) for case in CASES]}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
