"""The corpus scenario: the files of a Hermes home and its workspaces, and the
sessions to drive through Hermes.  The same scenario is used for every build.

Everything here is our own test content.  Nothing in this module imports
Hermes; the orchestrator (generate.py) writes the files and the worker
(worker.py) drives one session per process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Callable, Dict, List, Optional

# ---------------------------------------------------------------------------
# Files of the default profile (paths relative to home/).

SOUL_MD = """\
# Ada — the careful pair programmer

You are Ada, a calm and exacting engineering partner. You read before you write, you say what you checked and what you did not, and you prefer a small verified change to a large hopeful one. When a request is ambiguous you name the ambiguity in one sentence and pick the most reasonable reading.

You write plainly: short paragraphs, concrete nouns, no filler. You keep the user's vocabulary — if they say "café" you don't correct it to "cafe", and if they name a function you quote it exactly. You never pretend a command ran when it did not.

Outside of code you are warm but brief. You like good tea, well-kept changelogs, and résumés that fit on one page — and you say so only when asked.
"""

CONFIG_YAML = """\
# Hermes configuration for the corpus home (default profile).
model:
  default: anthropic/claude-sonnet-4.6
  provider: openrouter
  base_url: https://openrouter.ai/api/v1
  context_length: 200000

timezone: Europe/Berlin

agent:
  max_turns: 60
  reasoning_effort: medium

terminal:
  backend: local
  cwd: "."
  timeout: 180

memory:
  memory_enabled: true
  user_profile_enabled: true

compression:
  enabled: true
  threshold: 0.5

display:
  compact: false
  streaming: false
  show_reasoning: false

security:
  # No network in this home: tirith would try to download its scanner.
  tirith_enabled: false

platforms:
  telegram:
    enabled: true

skills:
  # Hermes applies a per-platform list only where it knows the session's platform: the gateway's
  # telegram session loses changelog-writer (matched by its folder name), the CLI keeps k8s-debug.
  platform_disabled:
    telegram: [release-notes]
    cli: [k8s-debug]
  # A team's skills folder beside the home (a relative path is read from the Hermes home): its
  # rollback and pager skills join the index, its deploy loses to the profile's own.
  external_dirs:
    - ../work/team-skills
"""

MEMORY_MD = "\n§\n".join([
    "The corpus monorepo lives in work/repo-a; its Go services build with `make build` and the Python tools with `uv run`.",
    "CI runs on every push to main; flaky test test_sync_retry is quarantined — do not re-enable without asking.",
    "Deploys go through the devops/deploy skill; staging is eu-west-1, production is eu-central-1.",
])

USER_MD = "\n§\n".join([
    "Name: Jordan Müller. Timezone Europe/Berlin. Prefers answers in English, short and direct.",
    "Uses VS Code with the Hermes Prompt Lens extension; likes diffs over prose.",
])

CATEGORY_DEVOPS = """\
---
description: Deployment, infrastructure and cluster debugging workflows.
---
# DevOps

Skills for shipping and operating the services.
"""

CATEGORY_RESEARCH = """\
---
description: Finding, reading and citing papers and technical sources.
---
# Research
"""

SKILL_DEPLOY = """\
---
name: deploy
description: Deploy a service to staging or production with the release checklist.
version: 1.2.0
---
# Deploy

1. Check that CI on main is green.
2. Run `make release TAG=<version>` and push the tag.
3. Watch the rollout with `kubectl rollout status`.
"""

SKILL_K8S = """\
---
name: k8s-debug
description: Diagnose crashing pods, pending scheduling and failing probes in Kubernetes clusters without changing them.
---
# Kubernetes debugging

Start with `kubectl get pods -A | grep -v Running`, then describe the pod and
read its previous logs. Never delete a pod to "fix" it before you know why it
failed.

If the pod is Pending, check node capacity and taints before anything else.
If it is CrashLoopBackOff, the previous container's logs usually say why.

Write down what you found in the incident channel, even when it was nothing.
"""

SKILL_ARXIV = """\
---
name: arxiv-search
description: Search arXiv and summarise the most relevant recent papers.
---
# arXiv search

Query the arXiv API, keep the five most relevant results, and cite them with
their arXiv ids.
"""

SKILL_SCRATCHPAD = """\
---
name: scratchpad
description: Keep a running scratchpad of findings in NOTES.md.
---
# Scratchpad

Append findings to NOTES.md in the workspace root, newest first.
"""

# The directory is "release-notes", the frontmatter name is "changelog-writer".
SKILL_CHANGELOG = """\
---
name: changelog-writer
description: Draft release notes from merged pull requests.
---
# Changelog writer

Group merged PRs by area and write one line per user-visible change.
"""

SKILL_MAC = """\
---
name: mac-screenshots
description: Capture and annotate macOS screenshots with screencapture.
platforms: [macos]
---
# macOS screenshots

Use `screencapture -i` and annotate with Preview.
"""

HOME_FILES: Dict[str, str] = {
    "SOUL.md": SOUL_MD,
    "config.yaml": CONFIG_YAML,
    "memories/MEMORY.md": MEMORY_MD,
    "memories/USER.md": USER_MD,
    "skills/devops/DESCRIPTION.md": CATEGORY_DEVOPS,
    "skills/devops/deploy/SKILL.md": SKILL_DEPLOY,
    "skills/devops/k8s-debug/SKILL.md": SKILL_K8S,
    "skills/devops/release-notes/SKILL.md": SKILL_CHANGELOG,
    "skills/research/DESCRIPTION.md": CATEGORY_RESEARCH,
    "skills/research/papers/arxiv-search/SKILL.md": SKILL_ARXIV,
    "skills/scratchpad/SKILL.md": SKILL_SCRATCHPAD,
    "skills/apple/mac-screenshots/SKILL.md": SKILL_MAC,
}

# ---------------------------------------------------------------------------
# The named profile "work" (paths relative to home/profiles/work/).

WORK_SOUL_MD = """\
# Work mode

You are Hermes in work mode: terse, ticket-driven, and careful with production. Every answer names the ticket it belongs to, if any.

Prefer checklists to prose, and stop to ask before touching anything shared.
"""

WORK_CONFIG_YAML = """\
# Hermes configuration for the "work" profile.
model:
  default: anthropic/claude-opus-4.8
  provider: openrouter
  base_url: https://openrouter.ai/api/v1
  context_length: 200000

timezone: Europe/Berlin

memory:
  memory_enabled: true
  user_profile_enabled: true

display:
  streaming: false

security:
  tirith_enabled: false

agent:
  # Focus mode: a coding session's index lists non-coding categories (productivity) by name only.
  coding_context: focus
"""

WORK_MEMORY_MD = "\n§\n".join([
    "Tickets live in the ACME Jira project; branch names are ACME-<number>-<slug>.",
    "Production changes need a second reviewer from the platform team.",
])

WORK_USER_MD = "Works on the platform team; on call every other week."

WORK_SKILL_TICKET = """\
---
name: ticket-triage
description: Triage an incoming Jira ticket and propose labels and an owner.
---
# Ticket triage

Read the ticket, find the owning service, propose labels and one owner.
"""

WORK_SKILL_ONCALL = """\
---
name: oncall-handover
description: Write the weekly on-call handover note.
---
# On-call handover

List open incidents, noisy alerts and follow-ups.
"""

WORK_FILES: Dict[str, str] = {
    "SOUL.md": WORK_SOUL_MD,
    "config.yaml": WORK_CONFIG_YAML,
    "memories/MEMORY.md": WORK_MEMORY_MD,
    "memories/USER.md": WORK_USER_MD,
    "skills/ops/ticket-triage/SKILL.md": WORK_SKILL_TICKET,
    "skills/oncall-handover/SKILL.md": WORK_SKILL_ONCALL,
    "skills/productivity/standup-notes/SKILL.md": """\
---
name: standup-notes
description: Turn the day's tickets into three standup lines.
---

Steps.
""",
}

# ---------------------------------------------------------------------------
# Workspaces (paths relative to work/).

WORK_TREE: Dict[str, str] = {
    "repo-a/AGENTS.md": """\
# repo-a

Monorepo for the corpus services. Run `make test` before proposing a change.
Keep commits small; one concern per commit.
""",
    "repo-a/pkg/AGENTS.md": """\
# pkg

Shared Go packages. Exported functions need doc comments; no new dependencies
without a note in DEPENDENCIES.md.
""",
    "repo-a/pkg/util.go": "package pkg\n\n// Clamp limits v to [lo, hi].\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n",
    "repo-a/README.md": "# repo-a\n\nCorpus monorepo.\n",
    "repo-b/.hermes.md": """\
---
owner: platform
review: required
---
# repo-b (Hermes instructions)

This is the billing service. Never print customer data in answers; use the
fixtures in testdata/ instead. Migrations go through `make migrate-check`.
""",
    "repo-b/AGENTS.md": """\
# repo-b AGENTS

Generic agent notes. Hermes should load .hermes.md instead of this file.
""",
    "repo-b/README.md": "# repo-b\n\nBilling service.\n",
    "repo-c/CLAUDE.md": """\
# repo-c

Static site. Build with `npm run build`; the output goes to dist/ and is never
committed.
""",
    "plain/AGENTS.md": """\
# plain

A scratch folder that is not a git repository. Anything here is disposable.
""",
    "empty/notes.txt": "Nothing to see here.\n",
    # A git root with AGENTS.md whose sub-folder has none: builds before the AGENTS.md chain load
    # nothing there, later ones load ../AGENTS.md.
    "repo-d/AGENTS.md": """\
# repo-d

Command-line tool. Every flag needs a line in docs/flags.md.
""",
    "repo-d/src/main.py": "def main() -> None:\n    print(\"repo-d\")\n",
    # A git root with AGENTS.md and a personal AGENTS.override.md: releases from 0.20.3 load the
    # override instead, earlier ones AGENTS.md alone; the fork loads both.
    "repo-e/AGENTS.md": """\
# repo-e

Payments gateway. Every change needs a ticket number in its commit message.
""",
    # skills.external_dirs of the default profile.
    "team-skills/devops/DESCRIPTION.md": """\
---
description: The team's shipping workflows (the profile's own description wins).
---
""",
    "team-skills/devops/deploy/SKILL.md": """\
---
name: deploy
description: The team's deploy, shadowed by the profile's own skill of that name.
---

Steps.
""",
    "team-skills/devops/rollback/SKILL.md": """\
---
name: rollback
description: Roll a release back to the previous version.
---

Steps.
""",
    "team-skills/oncall/DESCRIPTION.md": """\
---
description: On-call duty.
---
""",
    "team-skills/oncall/pager/SKILL.md": """\
---
name: pager
description: Answer a page within five minutes and post in the incident channel.
---

Steps.
""",
    "repo-e/AGENTS.override.md": """\
# repo-e (my override)

Payments gateway. I work on the sandbox only: never call the live endpoints.
""",
}

# Git roots (relative to the generation root).  The generator runs `git init`
# in each before driving sessions; the .git folders are not committed.
GIT_ROOTS: List[str] = ["work/repo-a", "work/repo-b", "work/repo-d", "work/repo-e"]

# ---------------------------------------------------------------------------
# Conversation text.

SHORT_TURNS = [
    ("What does the Clamp helper in this package do?",
     "Clamp limits an int to the closed range [lo, hi]: values below lo become lo, values above hi become hi."),
    ("Does it handle lo > hi?",
     "No. With lo > hi it returns lo for small values and hi for large ones, so the result is not monotonic. A guard or a panic would make that explicit."),
    ("Add a note about that to the doc comment, please.",
     "Done in my head only — I have not edited the file. The doc comment would read: \"Clamp limits v to [lo, hi]; lo must not exceed hi.\""),
]


def long_turns(topic: str, n: int) -> List[tuple]:
    """Turns for a session that gets compacted.

    Hermes keeps the first three and the last six messages verbatim and only
    summarises what lies between, and it refuses a compaction whose summary
    (about 3 kB with its fixed preamble) would not shrink the conversation.  So
    only the messages in that middle window are long; the rest stay short to
    keep the databases small.
    """
    turns = []
    long_reply = (f"For the {topic} review: the change touches the request path, the retry policy and "
                  f"the metrics emitted on failure. The edge cases are an empty payload, a payload at the "
                  f"size limit, and a timeout during the second retry. The unit tests cover the first two; "
                  f"the third is only covered by the integration suite, which I would run once more before "
                  f"merging. ") * 5
    for i in range(1, n + 1):
        user = f"Step {i} of the {topic} review: what changes here, and what still needs checking?"
        reply = f"Step {i} of the {topic} review looks fine; nothing else to check for this part."
        if i == 3:
            user = (user + " Please go through the edge cases and the tests in detail. ") * 4
        if i in (2, 3):
            reply = f"Step {i}. " + long_reply
        turns.append((user.strip(), reply.strip()))
    return turns


SUMMARY_TEXT = (
    "Earlier in this session the user and the assistant reviewed a change step by step: the request "
    "path, the retry policy and the failure metrics. Edge cases named: empty payload, payload at the "
    "size limit, timeout during the second retry. Open item: rerun the integration suite before merging."
)

# ---------------------------------------------------------------------------
# Sessions.  Each spec is driven in its own Python process (like a real
# `hermes` launch).  Times are local (Europe/Berlin); "day" is 0 or 1,
# counted from the build's first scenario day.

SESSIONS: List[dict] = [
    {"key": "a-pkg", "profile": "default", "kind": "cli", "cwd": "work/repo-a/pkg",
     "day": 0, "time": "09:12:05", "role": "live", "turns": SHORT_TURNS,
     "title": "Clamp helper edge cases"},
    {"key": "a-root", "profile": "default", "kind": "cli", "cwd": "work/repo-a",
     "day": 0, "time": "09:40:31", "role": "live",
     "turns": [("Which make targets does this repo have?",
                "From AGENTS.md I only know `make test`; I would read the Makefile to list the rest."),
               ("Fine, that's enough for now.", "OK.")],
     "title": "Repo-a make targets"},
    {"key": "b-hermes", "profile": "default", "kind": "cli", "cwd": "work/repo-b",
     "day": 0, "time": "10:05:47", "role": "live",
     "turns": [("How do I check a migration before applying it?",
                "Run `make migrate-check`; it dry-runs the pending migrations against the fixtures in testdata/."),
               ("And where are the fixtures?", "In testdata/, next to the migrations.")],
     "title": "Billing migration check"},
    {"key": "c-claude", "profile": "default", "kind": "cli", "cwd": "work/repo-c",
     "day": 0, "time": "11:20:13", "role": "ended",
     "turns": [("Build the site and tell me where the output goes.",
                "`npm run build` writes to dist/, which is not committed."),
               ("Thanks, that's all.", "You're welcome.")],
     "end": "cli_close", "title": "Static site build output"},
    {"key": "rotation", "profile": "default", "kind": "cli", "cwd": "work/repo-a",
     "day": 0, "time": "14:02:09", "role": "rotation-parent",
     "turns": long_turns("retry-policy", 6),
     "compress": {"in_place": False, "summary": SUMMARY_TEXT},
     "after_turns": [("Let's continue: rerun the integration suite plan.",
                      "Plan: run `make test-integration` with the retry fault injector on, then compare the failure metrics."),
                     ("Good. Anything else before merge?", "Only the changelog entry.")],
     "title": "Retry policy review"},
    {"key": "plain", "profile": "default", "kind": "cli", "cwd": "work/plain",
     "day": 1, "time": "08:55:40", "role": "live",
     "turns": [("Is this folder under version control?",
                "No — there is no git repository here, and AGENTS.md says everything in it is disposable."),
               ("Ok, keep it that way.", "Understood.")],
     "title": "Plain folder version control"},
    {"key": "compact", "profile": "default", "kind": "cli", "cwd": "work/repo-b",
     "day": 1, "time": "09:30:18", "role": "compacted-in-place",
     "turns": long_turns("billing-export", 6),
     "compress": {"in_place": True, "summary": SUMMARY_TEXT},
     "after_turns": [("Continue with the export format question.",
                      "The export stays CSV with a header row; the new column goes last so old readers keep working.")],
     "title": "Billing export review"},
    {"key": "model", "profile": "default", "kind": "cli", "cwd": "work/empty",
     "day": 1, "time": "10:45:02", "role": "model-switched",
     "turns": [("Give me a one-line summary of what a prefix cache is.",
                "A prefix cache reuses the model's work on a prompt prefix it has already seen.")],
     "model_switch": "openai/gpt-5.5",
     "after_turns": [("Same question, one line, from the new model.",
                      "It stores the computed state of an already-seen prompt prefix so it is not recomputed.")],
     "title": "Prefix cache one-liner"},
    {"key": "d-sub", "profile": "default", "kind": "cli", "cwd": "work/repo-d/src",
     "day": 1, "time": "11:30:21", "role": "live",
     "turns": [("What does main print?", "It prints `repo-d`."),
               ("Ok.", "Anything else?")],
     "title": "Repo-d main output"},
    {"key": "e-override", "profile": "default", "kind": "cli", "cwd": "work/repo-e",
     "day": 1, "time": "11:50:37", "role": "live",
     "turns": [("Which endpoints may I call here?", "The sandbox ones only."),
               ("Ok.", "Anything else?")],
     "title": "Repo-e endpoints"},
    {"key": "telegram", "profile": "default", "kind": "telegram", "cwd": None,
     "day": 1, "time": "12:15:55", "role": "live",
     "turns": [("remind me what the staging region is",
                "Staging runs in eu-west-1."),
               ("and prod?", "Production is eu-central-1.")],
     "chat_id": "424242", "user_id": "424242", "user_name": "Jordan",
     "title": "Staging and production regions"},
    # The named profile "work".
    {"key": "work-a", "profile": "work", "kind": "cli", "cwd": "work/repo-a/pkg",
     "day": 0, "time": "16:10:44", "role": "live",
     "turns": [("ACME-1412: is Clamp used anywhere outside pkg?",
                "I have not searched yet; `grep -rn Clamp --include=*.go` from the repo root would answer it."),
               ("Do that next time.", "Noted for ACME-1412.")],
     "title": "ACME-1412 Clamp usages"},
    {"key": "work-c", "profile": "work", "kind": "cli", "cwd": "work/repo-c",
     "day": 1, "time": "15:20:09", "role": "ended",
     "turns": [("ACME-1500: where does the site build output go?", "dist/, per CLAUDE.md; it is not committed.")],
     "end": "cli_close", "title": "ACME-1500 site build output"},
    {"key": "work-empty", "profile": "work", "kind": "cli", "cwd": "work/empty",
     "day": 1, "time": "16:02:27", "role": "live",
     "turns": [("Draft the on-call handover skeleton.", "Open incidents: none. Noisy alerts: none. Follow-ups: none.")],
     "title": "On-call handover skeleton"},
]

# Sessions the newer build adds on top of the older build's home in the
# mixed folder.  Their days are counted from the newer build's first day.
MIXED_EXTRA_SESSIONS: List[dict] = [
    {"key": "mixed-a-pkg", "profile": "default", "kind": "cli", "cwd": "work/repo-a/pkg",
     "day": 0, "time": "09:05:00", "role": "live", "turns": SHORT_TURNS[:2],
     "title": "Clamp helper after upgrade"},
    {"key": "mixed-b-hermes", "profile": "default", "kind": "cli", "cwd": "work/repo-b",
     "day": 0, "time": "10:10:10", "role": "ended",
     "turns": [("Migration check again after the upgrade?", "Still `make migrate-check`.")],
     "end": "cli_close", "title": "Migration check after upgrade"},
    {"key": "mixed-telegram", "profile": "default", "kind": "telegram", "cwd": None,
     "day": 1, "time": "08:30:00", "role": "live",
     "turns": [("staging region again?", "eu-west-1.")],
     "chat_id": "515151", "user_id": "515151", "user_name": "Jordan",
     "title": "Staging region again"},
    {"key": "mixed-work", "profile": "work", "kind": "cli", "cwd": "work/plain",
     "day": 1, "time": "09:45:00", "role": "live",
     "turns": [("ACME-1600: can I delete this folder?", "AGENTS.md says it is disposable, so yes.")],
     "title": "ACME-1600 delete plain folder"},
]


# ---------------------------------------------------------------------------
# Scenarios: which files each profile's folder holds, the workspaces, the sessions.

@dataclass(frozen=True)
class Scenario:
    name: str
    # Files of each profile, by profile name ("default" is the Hermes home itself), relative to its folder.
    profiles: Dict[str, Dict[str, str]]
    work_tree: Dict[str, str]
    git_roots: List[str]
    sessions: List[dict]
    # The SOUL.md each profile's prompts open with (verify.py).
    souls: Dict[str, str]
    # What the scenario adds to the manifest, from its sessions' manifest entries and stored prompts.
    extra: Optional[Callable[[List[dict], Dict[str, str]], dict]] = field(default=None)

    def manifest_extra(self, sessions: List[dict], prompts: Dict[str, str]) -> dict:
        return self.extra(sessions, prompts) if self.extra else {}


STANDARD = Scenario(
    name="standard",
    profiles={"default": HOME_FILES, "work": WORK_FILES},
    work_tree=WORK_TREE,
    git_roots=GIT_ROOTS,
    sessions=SESSIONS,
    souls={"default": SOUL_MD, "work": WORK_SOUL_MD},
)


# ---------------------------------------------------------------------------
# Prefix families: profiles that share their files, on several platforms.
#
# `default` and `work` hold the same SOUL.md, config, skills and memory: whatever parts their
# prompts is Hermes' own doing (the profile line, with the profile's path).  `lean` holds them too,
# but disables one toolset: its requests carry another tool list.  Every session runs on one day,
# so the trailer's date is the same everywhere.

FAMILY_CONFIG_YAML = """\
# Hermes configuration shared by the profiles of the prefix-families home.
model:
  default: anthropic/claude-sonnet-4.6
  provider: openrouter
  base_url: https://openrouter.ai/api/v1
  context_length: 200000

timezone: Europe/Berlin

memory:
  memory_enabled: true
  user_profile_enabled: true

display:
  streaming: false

security:
  tirith_enabled: false

platforms:
  telegram:
    enabled: true
"""

# The same, with one toolset turned off (agent.disabled_toolsets, read by the CLI and the gateway).
FAMILY_LEAN_CONFIG_YAML = FAMILY_CONFIG_YAML + """\
agent:
  # This profile plans without the todo tool: its tool list is one tool shorter.
  disabled_toolsets: [todo]
"""

FAMILY_FILES: Dict[str, str] = {
    "SOUL.md": SOUL_MD,
    "config.yaml": FAMILY_CONFIG_YAML,
    "memories/MEMORY.md": MEMORY_MD,
    "memories/USER.md": USER_MD,
    "skills/devops/DESCRIPTION.md": CATEGORY_DEVOPS,
    "skills/devops/deploy/SKILL.md": SKILL_DEPLOY,
    "skills/devops/k8s-debug/SKILL.md": SKILL_K8S,
    "skills/scratchpad/SKILL.md": SKILL_SCRATCHPAD,
}

FAMILY_WORK_TREE: Dict[str, str] = {
    "repo/AGENTS.md": WORK_TREE["repo-a/AGENTS.md"],
    "repo/pkg/util.go": WORK_TREE["repo-a/pkg/util.go"],
    "empty/notes.txt": WORK_TREE["empty/notes.txt"],
}


def _family_session(key: str, profile: str, kind: str, cwd: Optional[str], time: str, title: str, chat: str = "") -> dict:
    spec = {"key": key, "profile": profile, "kind": kind, "cwd": cwd, "day": 0, "time": time, "role": "live",
            "turns": [("What is the staging region?", "Staging runs in eu-west-1.")], "title": title}
    if kind == "telegram":
        spec.update(chat_id=chat, user_id=chat, user_name="Jordan")
    return spec


FAMILY_SESSIONS: List[dict] = [
    _family_session("d-empty", "default", "cli", "work/empty", "09:00:05", "Staging region (default)"),
    _family_session("d-empty-2", "default", "cli", "work/empty", "09:30:11", "Staging region again (default)"),
    _family_session("w-empty", "work", "cli", "work/empty", "09:10:07", "Staging region (work)"),
    _family_session("l-empty", "lean", "cli", "work/empty", "09:20:09", "Staging region (lean)"),
    _family_session("d-repo", "default", "cli", "work/repo", "10:00:13", "Staging region in repo (default)"),
    _family_session("w-repo", "work", "cli", "work/repo", "10:10:17", "Staging region in repo (work)"),
    _family_session("d-telegram", "default", "telegram", None, "11:00:19", "Staging region on telegram (default)", "616161"),
    _family_session("w-telegram", "work", "telegram", None, "11:10:23", "Staging region on telegram (work)", "626262"),
    _family_session("l-telegram", "lean", "telegram", None, "11:20:29", "Staging region on telegram (lean)", "636363"),
]


def _first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


PREFIX_FAMILIES_NOTE = (
    "A provider reuses a cache entry only for a byte-identical prefix of the same model, up to a cache "
    "breakpoint: the tool schemas (sent first), then Hermes' stable tier (the static system prefix its "
    "prompt caching marks: the request's first system part), then the whole system prompt. `families` "
    "groups the sessions at each breakpoint by the digests of what their last turn sent (each session's "
    "`wire`) and of the stable tier Hermes built (`hermes_tiers`); `stable_tier_alone` groups them by the "
    "stable tier and model only, what they would share if their tool schemas were the same. `partings`: "
    "for every pair of sessions of different profiles on the same platform, folder and model, the tools "
    "whose schemas differ and the first character where their stored prompts differ, with Hermes' tier there.")


def prefix_families(sessions: List[dict], prompts: Dict[str, str]) -> dict:
    """The manifest's `prefix_families` (PREFIX_FAMILIES_NOTE)."""
    def key(s: dict, breakpoint: str) -> str:
        wire, tiers = s["wire"], s["hermes_tiers"]
        parts = [s["prompt_model"] or ""]
        if breakpoint != "stable_tier_alone":
            parts.append(wire["tools_sha256"])
        if breakpoint != "tools":
            parts.append(tiers["stable"]["sha256"])
        if breakpoint == "system":
            parts.append(s["prompt_sha256"])
        return "/".join(parts)

    def prefix_bytes(s: dict, breakpoint: str) -> int:
        tools = s["wire"]["tools_json_bytes"] if breakpoint != "stable_tier_alone" else 0
        system = {"tools": 0, "stable": s["hermes_tiers"]["stable"]["bytes"], "stable_tier_alone": s["hermes_tiers"]["stable"]["bytes"],
                  "system": len(prompts[s["id"]].encode("utf-8"))}[breakpoint]
        return tools + system

    def grouped(breakpoint: str) -> List[dict]:
        groups: Dict[str, List[dict]] = {}
        for s in sessions:
            groups.setdefault(key(s, breakpoint), []).append(s)
        return [{"breakpoint": "stable" if breakpoint == "stable_tier_alone" else breakpoint,
                 "sessions": [m["id"] for m in members],
                 "profiles": sorted({m["profile"] for m in members}),
                 "platforms": sorted({m["source"] for m in members}),
                 "prefix_bytes": prefix_bytes(members[0], breakpoint)} for members in groups.values()]

    partings = []
    for a, b in combinations(sessions, 2):
        if a["profile"] == b["profile"] or (a["source"], a["context_cwd"], a["prompt_model"]) != (b["source"], b["context_cwd"], b["prompt_model"]):
            continue
        pa, pb = prompts[a["id"]], prompts[b["id"]]
        at = _first_difference(pa, pb)
        stable = a["hermes_tiers"]["stable"]["chars"]
        context = a["hermes_tiers"]["context"]["chars"]
        # The tiers are joined by a blank line each, and an empty tier is left out (build_system_prompt).
        context_start = stable + 2 if stable else 0
        volatile_start = context_start + context + 2 if context else context_start
        tier = "stable" if at < context_start else "context" if at < volatile_start else "volatile"
        line_start = pa.rfind("\n", 0, at) + 1
        tools_a = dict(zip(a["wire"]["tool_names"], a["wire"]["tool_sha256"]))
        tools_b = dict(zip(b["wire"]["tool_names"], b["wire"]["tool_sha256"]))
        partings.append({
            "a": a["id"], "b": b["id"], "a_profile": a["profile"], "b_profile": b["profile"],
            "platform": a["source"], "context_cwd": a["context_cwd"],
            "tools_equal": a["wire"]["tools_sha256"] == b["wire"]["tools_sha256"],
            "tools_only_in_a": sorted(set(tools_a) - set(tools_b)),
            "tools_only_in_b": sorted(set(tools_b) - set(tools_a)),
            "tools_differing": sorted(n for n in set(tools_a) & set(tools_b) if tools_a[n] != tools_b[n]),
            "prompt_chars": [len(pa), len(pb)],
            "prompt_bytes": [len(pa.encode("utf-8")), len(pb.encode("utf-8"))],
            "first_difference": {"chars": at, "bytes": len(pa[:at].encode("utf-8")), "tier": tier,
                                 "line_opens": pa[line_start:line_start + 23]},
        })
    return {"prefix_families": {"note": PREFIX_FAMILIES_NOTE,
                                "families": [f for bp in ("tools", "stable", "system") for f in grouped(bp)],
                                "stable_tier_alone": grouped("stable_tier_alone"),
                                "partings": partings}}


FAMILIES = Scenario(
    name="families",
    profiles={"default": FAMILY_FILES, "work": FAMILY_FILES, "lean": dict(FAMILY_FILES, **{"config.yaml": FAMILY_LEAN_CONFIG_YAML})},
    work_tree=FAMILY_WORK_TREE,
    git_roots=["work/repo"],
    sessions=FAMILY_SESSIONS,
    souls={"default": SOUL_MD, "work": SOUL_MD, "lean": SOUL_MD},
    extra=prefix_families,
)

# The builds that also write a prefix-families home: the newest upstream build we have (its profile
# line in the stable tier) and the build derived from it with the line moved to the volatile tier.
FAMILY_BUILDS = ["v0.20.3-schema26", "derived-0.20.3-profile-line-volatile"]


# ---------------------------------------------------------------------------
# Project skills: a git root listed in `skills.trusted_project_dirs` (Hermes from 0.20.3), whose
# `.hermes/skills` and `.agents/skills` the index lists first, each description tagged
# `[project] `, a profile skill of the same name left out.  Older builds read none of it.
#
# The trust list holds the root as an absolute path (as `hermes skills trust` writes it): the
# generator writes GENERATION_ROOT as the folder's generation root, and the manifest's
# `files_naming_generation_root` names the files holding it, for a copy to relocate.

GENERATION_ROOT = "@GENERATION_ROOT@"

PROJECT_CONFIG_YAML = CONFIG_YAML.split("\nskills:\n", 1)[0] + """
skills:
  # Hermes from 0.20.3 lists the skills of this git root's .hermes/skills and .agents/skills in the
  # sessions started inside it; work/untrusted has skills too, but is not listed here.
  trusted_project_dirs:
    - """ + GENERATION_ROOT + """/work/trusted
"""

PROJECT_HOME_FILES: Dict[str, str] = {
    "SOUL.md": SOUL_MD,
    "config.yaml": PROJECT_CONFIG_YAML,
    "memories/MEMORY.md": MEMORY_MD,
    "memories/USER.md": USER_MD,
    "skills/devops/DESCRIPTION.md": CATEGORY_DEVOPS,
    "skills/devops/deploy/SKILL.md": SKILL_DEPLOY,
    "skills/scratchpad/SKILL.md": SKILL_SCRATCHPAD,
}

PROJECT_WORK_TREE: Dict[str, str] = {
    "trusted/AGENTS.md": """\
# trusted

Payments CLI. Its own skills live in .hermes/skills and .agents/skills.
""",
    "trusted/src/main.py": "def main() -> None:\n    print(\"trusted\")\n",
    # The project's deploy: in the trusted project's sessions it replaces the profile's own.
    "trusted/.hermes/skills/devops/deploy/SKILL.md": """\
---
name: deploy
description: Deploy this project with its own release script.
---

Run `./release.sh`.
""",
    # A flat skill: its own category, as in skills/.
    "trusted/.hermes/skills/review/SKILL.md": """\
---
name: code-review
description: Review a change against this project's checklist.
---

Read CHECKLIST.md first.
""",
    # Hermes reads no DESCRIPTION.md of a project folder: the category gets none.
    "trusted/.hermes/skills/testing/DESCRIPTION.md": """\
---
description: A project category description Hermes does not read.
---
""",
    "trusted/.hermes/skills/testing/flaky/SKILL.md": """\
---
name: flaky-tests
description: Quarantine a flaky test and open a ticket for it.
---

Steps.
""",
    "trusted/.agents/skills/lint/SKILL.md": """\
---
name: lint
description: Run the project's linters before a commit.
---

Steps.
""",
    # The same name as a skill of .hermes/skills, read first: this one is left out.
    "trusted/.agents/skills/code-review/SKILL.md": """\
---
name: code-review
description: Another harness's review, which .hermes/skills shadows.
---

Steps.
""",
    "untrusted/AGENTS.md": """\
# untrusted

A cloned repository nobody vetted.
""",
    "untrusted/.hermes/skills/ops/rotate-keys/SKILL.md": """\
---
name: rotate-keys
description: Rotate every key in the vault (never listed: not trusted).
---

Steps.
""",
    "empty/notes.txt": WORK_TREE["empty/notes.txt"],
}


def _project_session(key: str, profile: str, cwd: str, day: int, time: str, title: str) -> dict:
    return {"key": key, "profile": profile, "kind": "cli", "cwd": cwd, "day": day, "time": time, "role": "live",
            "turns": [("Which skills does this project bring?", "The index lists them; I would load the one the task needs.")],
            "title": title}


PROJECT_SESSIONS: List[dict] = [
    _project_session("t-root", "default", "work/trusted", 0, "09:10:05", "Trusted project root"),
    _project_session("t-src", "default", "work/trusted/src", 0, "09:40:11", "Trusted project sub-folder"),
    _project_session("u-root", "default", "work/untrusted", 0, "10:10:17", "Untrusted project"),
    _project_session("p-empty", "default", "work/empty", 0, "10:40:23", "No project"),
    # The work profile trusts no project: its session in the same folder lists none of its skills.
    _project_session("w-trusted", "work", "work/trusted", 0, "11:10:29", "Trusted project, other profile"),
]

# What the newer build adds in the mixed folder, on its first day.
PROJECT_MIXED_EXTRA_SESSIONS: List[dict] = [
    _project_session("mixed-t-root", "default", "work/trusted", 0, "09:05:00", "Trusted project after upgrade"),
    _project_session("mixed-p-empty", "default", "work/empty", 0, "09:35:00", "No project after upgrade"),
    # The newer build opens the work profile's database too (its migration), in the trusted folder.
    _project_session("mixed-w-trusted", "work", "work/trusted", 0, "10:05:00", "Trusted project, other profile, after upgrade"),
]

PROJECT_SKILLS = Scenario(
    name="project-skills",
    profiles={"default": PROJECT_HOME_FILES, "work": WORK_FILES},
    work_tree=PROJECT_WORK_TREE,
    git_roots=["work/trusted", "work/untrusted"],
    sessions=PROJECT_SESSIONS,
    souls={"default": SOUL_MD, "work": WORK_SOUL_MD},
)

# The builds that list project skills write a project-skills home of their own; the mixed folder has
# sessions of a build that reads none (0.19.1) and of one that does (0.20.3) in the same home.
PROJECT_SKILL_BUILDS = ["v0.20.3-schema26", "fork-0.20.4-schema26"]
PROJECT_SKILLS_MIXED = ("project-skills-mixed-v0.19.1-then-v0.20.3", "v0.19.1-schema24", "v0.20.3-schema26")
