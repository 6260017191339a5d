#!/usr/bin/env python3
"""What Hermes makes of config.yaml keys the lens reads, asked of Hermes' own code.

For each case below, a config.yaml holding it is written into a fresh HERMES_HOME and Hermes'
own readers answer, in a fresh interpreter:

- `prompt_caching.cache_ttl`: `prompt_caching_disabled_from_config()` (caching off) and, where
  the build has it, `configured_cache_ttl()` (the tier it uses), with the value Hermes' config
  loader hands them (`load_config_readonly()`);
- `skills.disabled` and `skills.platform_disabled`: `get_disabled_skill_names()` for no platform
  and for telegram (the names left out of the skills index).

The answers go to a JSON file the lens's tests compare its own reading with.

    /usr/bin/python3 scripts/hermes-corpus/config_readings.py --git-dir PATH/TO/hermes-agent.git \\
        --out test/fixtures/hermes-builds/config-readings.json

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

BUILDS = {
    "0.19.1": "41cc4a13fe8494652451225cdc6af3c279de3543",
    "0.20.3": "7339f5f160db5c96657a3bab60151227cc61f66c",
    # The fork's newest commit that the corpus's fork-0.20.4-schema26 folder was written by.
    "0.20.4 (a fork)": "b15f898e6130ac450c77e3d310ac248c0d269b95",
}

# The `prompt_caching:` section of each case, as a user would write it (None: no section at all).
CACHE_TTL_CASES = [
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

# Each question runs in a fresh interpreter per case (Hermes' config loader keeps what it read),
# with the stubs and the checkout it is given first on its path.
PRELUDE = """import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
"""

ASK_CACHE_TTL = PRELUDE + r"""
from hermes_cli.config import load_config_readonly
import agent.agent_runtime_helpers as helpers
section = load_config_readonly().get("prompt_caching")
raw = (section or {}).get("cache_ttl", "5m")
answer = {"disabled": helpers.prompt_caching_disabled_from_config(), "loaded": raw if raw is None or isinstance(raw, (bool, int, str)) else repr(raw)}
if hasattr(helpers, "configured_cache_ttl"):
    answer["configuredTtl"] = helpers.configured_cache_ttl()
print(json.dumps(answer))
"""

# The `skills:` section of each case (the index's own skills are deploy, k8s-debug, release-notes).
SKILLS_CASES = [
    "skills:\n  disabled: [deploy, \"  k8s-debug \"]",
    "skills:\n  disabled: deploy",
    "skills:\n  disabled: '[\"deploy\", \"k8s-debug\"]'",
    "skills:\n  disabled: \"['deploy']\"",
    "skills:\n  disabled: '  [\"deploy\"]  '",
    "skills:\n  disabled: '[deploy, k8s-debug]'",
    "skills:\n  disabled: ''",
    "skills:\n  disabled:",
    "skills:\n  disabled: [1, true, '']",
    "skills:\n  disabled: {deploy: 1}",
    "skills:\n  platform_disabled:\n    telegram: release-notes",
    "skills:\n  disabled: [k8s-debug]\n  platform_disabled:\n    telegram: '[\"release-notes\", \"deploy\"]'",
    "skills:\n  disabled: [k8s-debug]\n  platform_disabled:\n    telegram:",
    "skills:\n  disabled: [k8s-debug]\n  platform_disabled:\n    telegram: []",
    "skills: []",
]

ASK_SKILLS = PRELUDE + r"""
from agent.skill_utils import get_disabled_skill_names
print(json.dumps({"none": sorted(get_disabled_skill_names(None)), "telegram": sorted(get_disabled_skill_names("telegram"))}))
"""


def ask(question: str, checkout: Path, case: str | None, scratch: Path) -> dict:
    home = Path(tempfile.mkdtemp(dir=scratch))
    (home / "config.yaml").write_text("model:\n  default: anthropic/claude-sonnet-4.6\n" + (case + "\n" if case else ""), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key not in ("HERMES_PLATFORM", "HERMES_SESSION_PLATFORM")}
    env.update({"HERMES_HOME": str(home), "HOME": str(home), "HERMES_QUIET": "1"})
    out = subprocess.run(["/usr/bin/python3", "-c", question, str(HERE / "stubs"), str(checkout)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    result = {"cacheTtl": {"cases": CACHE_TTL_CASES, "builds": {}}, "skills": {"cases": SKILLS_CASES, "builds": {}}}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for version, commit in BUILDS.items():
            checkout = archive_checkout(args.git_dir, commit, scratch / commit[:7])
            result["cacheTtl"]["builds"][version] = {"commit": commit, "answers": [ask(ASK_CACHE_TTL, checkout, case, scratch) for case in CACHE_TTL_CASES]}
            result["skills"]["builds"][version] = {"commit": commit, "answers": [ask(ASK_SKILLS, checkout, case, scratch) for case in SKILLS_CASES]}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
