#!/usr/bin/env python3
"""Generate Hermes homes written by Hermes' own code, for Prompt Lens tests.

Usage (all builds, from a Hermes git directory; checkouts are extracted with
`git archive` into a temporary folder outside this repository):

    /usr/bin/python3 scripts/hermes-corpus/generate.py \\
        --git-dir PATH/TO/hermes-agent.git --out test/fixtures/hermes-builds

Or with checkouts you already have (one build per --build; --mixed makes the
folder written by two builds in turn):

    /usr/bin/python3 scripts/hermes-corpus/generate.py --out test/fixtures/hermes-builds \\
        --build v0.19.1-schema24=/path/to/checkout-41cc4a1 \\
        --build v0.20.3-schema26=/path/to/checkout-7339f5f \\
        --mixed mixed-v0.19.1-then-v0.20.3=v0.19.1-schema24+v0.20.3-schema26

    /usr/bin/python3 scripts/hermes-corpus/generate.py --hermes /path/to/checkout \\
        --build-name my-build --day0 2026-08-18 --out /tmp/corpus

A derived build (KNOWN_BUILDS entries with a "base"; derive.py) is made whenever its base
build's checkout is at hand: a copy of the base with our change applied, never a Hermes release.

Each build folder is deleted and generated anew under a fixed staging root
(--stage, default /tmp/hermes-prompt-lens-corpus) so the absolute paths that
Hermes writes into prompts and session rows are the same on every machine;
the finished folder is then copied to --out/<build>.

Needs Debian's python3 and these apt packages (see the fixtures README):
python3-yaml python3-dotenv python3-fire python3-httpx python3-rich
python3-tenacity python3-ruamel.yaml python3-requests python3-jinja2
python3-prompt-toolkit python3-croniter python3-packaging python3-markdown
python3-certifi python3-jwt python3-psutil python3-websockets python3-pathspec
git sqlite3.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import derive  # noqa: E402
import scenario  # noqa: E402

PYTHON = "/usr/bin/python3"
TZ = ZoneInfo("Europe/Berlin")
DEFAULT_STAGE = "/tmp/hermes-prompt-lens-corpus"

# The builds this corpus covers.  day0 is the first scenario day of the build
# (the day after its commit), so each build's prompts carry dates of its own.  kind: a Hermes
# release (the default), a fork's build, or a build derived by us (derive.py).
KNOWN_BUILDS: Dict[str, dict] = {
    "v0.19.1-schema24": {"commit": "41cc4a13fe8494652451225cdc6af3c279de3543", "day0": "2026-08-04"},
    "v0.20.0-schema25": {"commit": "01a1037d1e6d7b6eb96a786ef282c3aea4818194", "day0": "2026-08-06"},
    "v0.20.3-schema26": {"commit": "7339f5f160db5c96657a3bab60151227cc61f66c", "day0": "2026-08-18"},
    # Not a Hermes release: the newest commit (2026-08-22, pyproject 0.20.4) of a fork that merged
    # upstream 0.20.3 and later upstream work, with about a thousand commits of its own that change
    # the prompt's prose: a derivative build the lens must read by its inputs alike.
    "fork-0.20.4-schema26": {"commit": "b15f898e6130ac450c77e3d310ac248c0d269b95", "day0": "2026-08-23", "kind": "fork"},
    # Not a Hermes release either: upstream 0.20.3 with the change Hermes made on 2026-09-28 (the
    # profile line moved to the end of the volatile tier) applied by derive.py, as no source of that
    # date can be fetched.  Made whenever its base build's checkout is at hand.
    "derived-0.20.3-profile-line-volatile": {"commit": "7339f5f160db5c96657a3bab60151227cc61f66c", "day0": "2026-09-29",
                                             "base": "v0.20.3-schema26", "change": "profile-line-volatile", "kind": "derived"},
}
DEFAULT_MIXED = ("mixed-v0.19.1-then-v0.20.3", "v0.19.1-schema24", "v0.20.3-schema26")

# The homes each build writes: the standard scenario in the build's own folder, and for the builds
# in scenario.FAMILY_BUILDS also a home of profiles that share their files (scenario.FAMILIES).


def log(msg: str) -> None:
    print(msg, flush=True)


# ---------------------------------------------------------------------------
# Checkouts and build facts.

def archive_checkout(git_dir: str, commit: str, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    tar = subprocess.run(["git", f"--git-dir={git_dir}", "archive", commit],
                         check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=tar, check=True)
    return dest


def build_facts(checkout: Path) -> dict:
    pyproject = (checkout / "pyproject.toml").read_text(encoding="utf-8")
    m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject, re.M)
    common = checkout / "hermes_state_common.py"
    src = common.read_text(encoding="utf-8") if common.exists() else (checkout / "hermes_state.py").read_text(encoding="utf-8")
    s = re.search(r"^SCHEMA_VERSION\s*=\s*(\d+)", src, re.M)
    return {"version": m.group(1) if m else None, "schema_version": int(s.group(1)) if s else None}


# ---------------------------------------------------------------------------
# Writing the scenario files.

def write_tree(base: Path, files: Dict[str, str]) -> None:
    for rel, text in files.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def profile_dirs(scn: scenario.Scenario) -> Dict[str, str]:
    """Each profile's folder, relative to the generation root."""
    return {name: "home" if name == "default" else f"home/profiles/{name}" for name in scn.profiles}


def lay_out(root: Path, scn: scenario.Scenario) -> None:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    for name, rel in profile_dirs(scn).items():
        write_tree(root / rel, scn.profiles[name])
    write_tree(root / "work", scn.work_tree)
    (root / "userhome").mkdir()
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    for rel in scn.git_roots:
        subprocess.run(["git", "init", "-q", "-b", "main", str(root / rel)], check=True, env=env)


# ---------------------------------------------------------------------------
# Driving sessions.

def start_epoch(day0: str, spec: dict) -> float:
    d = dt.date.fromisoformat(day0) + dt.timedelta(days=spec["day"])
    t = dt.time.fromisoformat(spec["time"])
    return dt.datetime.combine(d, t, tzinfo=TZ).timestamp()


def clean_env() -> Dict[str, str]:
    """A minimal environment: no API keys, no proxies, no user Hermes settings."""
    keep = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    return keep


def run_worker(script: str, checkout: Path, root: Path, name: str, spec: dict, logs: Path) -> dict:
    """One worker process (worker.py, measure_worker.py) on `spec`, in the clean environment; its result."""
    spec_path = logs / f"{name}.spec.json"
    result_path = logs / f"{name}.result.json"
    spec_path.write_text(json.dumps(spec, indent=2, ensure_ascii=False), encoding="utf-8")
    proc = subprocess.run(
        [PYTHON, str(HERE / script), "--hermes", str(checkout), "--root", str(root),
         "--spec", str(spec_path), "--result", str(result_path)],
        env=clean_env(), capture_output=True, text=True, timeout=900, cwd="/")
    (logs / f"{name}.stderr.txt").write_text(proc.stderr, encoding="utf-8")
    if not result_path.exists():
        raise SystemExit(f"{script} for {name} wrote no result; stderr:\n{proc.stderr[-3000:]}")
    result = json.loads(result_path.read_text(encoding="utf-8"))
    if not result.get("ok"):
        raise SystemExit(f"{script} for {name} failed:\n{result.get('error')}\n{result.get('stdout', '')[-2000:]}")
    return result


def run_session(build: str, checkout: Path, root: Path, day0: str, spec: dict, logs: Path) -> dict:
    full = dict(spec, build=build, start_epoch=start_epoch(day0, spec))
    log(f"  [{build}] {spec['key']} ({spec['profile']}, {spec['kind']}, {spec.get('cwd') or 'no cwd'})")
    result = run_worker("worker.py", checkout, root, spec["key"], full, logs)
    result["build"] = build
    result["spec"] = full
    return result


# ---------------------------------------------------------------------------
# Manifest.

_LABEL_RE = re.compile(r"^## (.+)$", re.M)
_PC_HEAD = "# Project Context\n\nThe following project context files have been loaded and should be followed:\n\n"


def stored_prompt(con: sqlite3.Connection, sid: str) -> Optional[str]:
    cols = {r[1] for r in con.execute("PRAGMA table_info(sessions)")}
    if "system_prompt_hash" in cols:
        row = con.execute(
            "SELECT COALESCE(p.prompt, s.system_prompt) FROM sessions s "
            "LEFT JOIN system_prompts p ON p.hash = s.system_prompt_hash WHERE s.id = ?", (sid,)).fetchone()
    else:
        row = con.execute("SELECT system_prompt FROM sessions WHERE id = ?", (sid,)).fetchone()
    return row[0] if row else None


def context_labels(prompt: str) -> List[str]:
    """The `## <label>` headings of the Project Context block, in order."""
    i = prompt.find(_PC_HEAD)
    if i < 0:
        return []
    block = prompt[i + len(_PC_HEAD):]
    # The block ends where the next prompt block starts; every loaded file's
    # heading is one of the expected labels, so read headings until a line that
    # cannot be a context label (the volatile tier starts with "## Skills" or
    # "<available_skills>" or a memory banner in some builds).
    labels = []
    for m in _LABEL_RE.finditer(block):
        label = m.group(1).strip()
        if re.fullmatch(r"(\.\./)*[\w.\-/]+\.(md|mdc)|\.cursorrules|\.hermes\.md|HERMES\.md", label):
            labels.append(label)
    return labels


def label_to_path(label: str, cwd_rel: Optional[str], root: Path) -> str:
    if not cwd_rel:
        return label
    p = os.path.normpath(os.path.join(cwd_rel, label))
    if (root / p).exists():
        return p
    # .hermes.md found above the cwd is labelled with its bare name.
    cur = Path(cwd_rel)
    while str(cur) not in ("", "."):
        cand = cur / label
        if (root / cand).exists():
            return str(cand)
        cur = cur.parent
    return p


def session_rows(db: Path) -> List[dict]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute("SELECT * FROM sessions ORDER BY started_at")]
    con.close()
    return rows


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hermes_tiers(res: dict, prompt: str) -> Optional[dict]:
    """The tiers Hermes built the stored prompt from (worker.observe_prompt_tiers), matched by digest."""
    digest = _sha256(prompt)
    built = [t for t in res.get("prompt_tiers") or [] if t["prompt_sha256"] == digest]
    if not built:
        return None
    return {name: built[-1][name] for name in ("stable", "context", "volatile")}


def wire_prefix(res: dict, sid: str, per_tool: bool) -> Optional[dict]:
    """What the session's last turn sent before its messages (tools, system message), as the fake LLM
    saw it; each tool's digest only where the scenario compares tool lists (`per_tool`)."""
    turns = [c for c in res.get("llm_calls") or [] if c.get("kind") == "turn" and c.get("session_id") == sid]
    if not turns:
        return None
    last = turns[-1]
    keys = ("tool_names", "tool_sha256", "tools_json_bytes", "tools_sha256", "tools_cache_marked", "system")
    return {k: last[k] for k in keys if k in last and (per_tool or k != "tool_sha256")}


def manifest_sessions(root: Path, scn: scenario.Scenario, results: List[dict],
                      facts_by_build: Dict[str, dict]) -> Tuple[List[dict], Dict[str, str]]:
    """The manifest's session entries, and each session's stored prompt by id."""
    out = []
    prompts: Dict[str, str] = {}
    dbs = {name: root / rel / "state.db" for name, rel in profile_dirs(scn).items()}
    cons = {k: sqlite3.connect(f"file:{v}?mode=ro", uri=True) for k, v in dbs.items() if v.exists()}
    for res in results:
        spec = res["spec"]
        con = cons[spec["profile"]]
        entries = []
        compress = next((e for e in res["events"] if e["event"] == "compress"), None)
        if compress and compress["before"] != compress["after"]:
            entries.append((compress["before"], "rotation-parent"))
            entries.append((compress["after"], "rotation-child"))
        else:
            entries.append((res["final_session_id"], spec["role"]))
        for sid, role in entries:
            row = con.execute("SELECT model, cwd, source, ended_at, end_reason, parent_session_id, "
                              "started_at FROM sessions WHERE id = ?", (sid,)).fetchone()
            if row is None:
                raise SystemExit(f"session {sid} ({spec['key']}) not in the {spec['profile']} state.db")
            model, cwd_abs, source, ended_at, end_reason, parent, started_at = row
            prompt = stored_prompt(con, sid) or ""
            prompts[sid] = prompt
            labels = context_labels(prompt)
            pm = re.search(r"^Model: (.+)$", prompt, re.M)
            cwd_rel = os.path.relpath(cwd_abs, root) if cwd_abs else None
            ctx_cwd = spec.get("cwd")  # where Hermes looked for project context
            out.append({
                "id": sid,
                "scenario_key": spec["key"],
                "profile": spec["profile"],
                "written_by": res["build"],
                "hermes_version": facts_by_build[res["build"]]["version"],
                "source": source,
                "role": role,
                "cwd": cwd_rel,
                "context_cwd": ctx_cwd if ctx_cwd else os.path.relpath(res.get("terminal_cwd") or "", root) if res.get("terminal_cwd") else None,
                "model": model,
                "prompt_model": pm.group(1) if pm else None,
                "started_on": dt.datetime.fromtimestamp(started_at, TZ).date().isoformat(),
                "ended": ended_at is not None,
                "end_reason": end_reason,
                "parent_session_id": parent,
                "context_labels": labels,
                "context_files": [label_to_path(l, ctx_cwd, root) for l in labels],
                "prompt_chars": len(prompt),
                "prompt_sha256": _sha256(prompt),
                "hermes_tiers": hermes_tiers(res, prompt),
                "wire": wire_prefix(res, sid, per_tool=scn.extra is not None),
            })
    for c in cons.values():
        c.close()
    return out, prompts


# ---------------------------------------------------------------------------
# Finishing a home.

def prune_home(root: Path, scn: scenario.Scenario) -> List[str]:
    """Keep only the scenario files and the session databases of each profile.

    Everything else Hermes left behind (auth.json with a fingerprint of the placeholder key,
    caches, logs, lock files, the gateway's sessions.json mirror, the skills prompt snapshot, empty
    runtime folders) is dropped, and so are the git folders and the user home.
    """
    dropped: List[str] = []
    home = root / "home"

    def prune(base: Path, keep: set, skip: Optional[Path] = None) -> None:
        for p in sorted(base.rglob("*"), reverse=True):
            if skip is not None and (p == skip or skip in p.parents):
                continue
            rel = p.relative_to(base).as_posix()
            if p.is_dir():
                if not any(p.iterdir()):
                    p.rmdir()
                continue
            if rel not in keep:
                dropped.append(str(p.relative_to(root)))
                p.unlink()

    for name, rel in profile_dirs(scn).items():
        keep = set(scn.profiles[name]) | {"state.db"}
        prune(root / rel, keep, skip=home / "profiles" if name == "default" else None)
    for rel in scn.git_roots:
        shutil.rmtree(root / rel / ".git", ignore_errors=True)
    shutil.rmtree(root / "userhome", ignore_errors=True)
    return dropped


def check_db_closed(root: Path) -> None:
    for db in (root / "home").rglob("state.db"):
        for side in ("-wal", "-shm", "-journal"):
            s = Path(str(db) + side)
            if s.exists():
                raise SystemExit(f"{s} still exists: Hermes did not close the database cleanly")
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.close()
        if ok != "ok":
            raise SystemExit(f"{db}: integrity_check says {ok}")


# ---------------------------------------------------------------------------

def generate(name: str, scn: scenario.Scenario, phases: List[dict], stage: Path, out: Path, extra: dict) -> None:
    """phases: [{build, checkout, day0, sessions, derived?}] run in order on one home of scenario `scn`."""
    root = stage / name
    logs = stage / "_logs" / name
    if logs.exists():
        shutil.rmtree(logs)
    logs.mkdir(parents=True)
    log(f"== {name} at {root}")
    lay_out(root, scn)
    results: List[dict] = []
    facts_by_build: Dict[str, dict] = {}
    for ph in phases:
        facts_by_build[ph["build"]] = dict(build_facts(Path(ph["checkout"])), commit=ph.get("commit"))
        for spec in ph["sessions"]:
            results.append(run_session(ph["build"], Path(ph["checkout"]), root, ph["day0"], spec, logs))
    check_db_closed(root)
    sessions, prompts = manifest_sessions(root, scn, results, facts_by_build)
    dropped = prune_home(root, scn)
    builds = [dict(name=ph["build"], commit=ph.get("commit"), day0=ph["day0"],
                   version=facts_by_build[ph["build"]]["version"],
                   schema_version=facts_by_build[ph["build"]]["schema_version"],
                   session_keys=[s["key"] for s in ph["sessions"]],
                   **({"derived": ph["derived"]} if ph.get("derived") else {})) for ph in phases]
    manifest = {
        "name": name,
        "scenario": scn.name,
        "builds": builds,
        "commit": builds[-1]["commit"],
        "pyproject_version": builds[-1]["version"],
        "schema_version": builds[-1]["schema_version"],
        "generation_root": str(root),
        "paths_note": ("Hermes wrote absolute paths under generation_root into session rows "
                       "(sessions.cwd; git_repo_root stays NULL in these builds' CLI and gateway "
                       "paths) and into prompts (working directory, user home, profile paths, "
                       "workspace root). Relocate by replacing that prefix."),
        "hermes_home": "home",
        "profiles": profile_dirs(scn),
        "user_home": {"path": "userhome", "note": "HOME while generating; empty, so not committed. "
                      "Prompts name it in their 'User home directory' line."},
        "git_roots": [{"path": rel, "init": "git init -b main (no commits, nothing staged)"}
                      for rel in scn.git_roots],
        "timezone": "Europe/Berlin",
        "sessions": sessions,
        **scn.manifest_extra(sessions, prompts),
        "dropped_after_generation": sorted(set(re.sub(r"[0-9a-f]{6,}", "*", d) for d in dropped)),
    }
    if builds[-1].get("derived"):
        manifest["derived"] = builds[-1]["derived"]
    manifest.update(extra)
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    dest = out / name
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(root, dest, symlinks=True)
    log(f"   -> {dest} ({len(sessions)} sessions)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder that receives one subfolder per build")
    ap.add_argument("--stage", default=DEFAULT_STAGE, help="fixed generation root (default %(default)s)")
    ap.add_argument("--git-dir", help="Hermes git directory: extract the known builds from it")
    ap.add_argument("--build", action="append", default=[], metavar="NAME=CHECKOUT",
                    help="a build name and the path of its checkout (repeatable)")
    ap.add_argument("--mixed", action="append", default=[], metavar="NAME=OLD+NEW",
                    help="a folder written by build OLD, then opened by build NEW")
    ap.add_argument("--hermes", help="single build: checkout path (with --build-name)")
    ap.add_argument("--build-name", help="single build: its name")
    ap.add_argument("--day0", help="single build not in the known list: first scenario day (YYYY-MM-DD)")
    ap.add_argument("--commit", help="single build not in the known list: its upstream commit")
    ap.add_argument("--only", action="append", default=[], help="generate only these folder names")
    args = ap.parse_args()

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(args.stage)
    stage.mkdir(parents=True, exist_ok=True)

    checkouts: Dict[str, Path] = {}
    meta: Dict[str, dict] = {k: dict(v) for k, v in KNOWN_BUILDS.items()}
    mixed: List[tuple] = []
    tmp = Path(tempfile.mkdtemp(prefix="hermes-checkouts-"))
    if args.git_dir:
        for bname, m in KNOWN_BUILDS.items():
            if m.get("base"):
                continue
            log(f"extracting {bname} ({m['commit'][:12]}) into {tmp}")
            checkouts[bname] = archive_checkout(args.git_dir, m["commit"], tmp / m["commit"][:7])
        mixed.append(DEFAULT_MIXED)
    for item in args.build:
        bname, _, path = item.partition("=")
        checkouts[bname] = Path(path).resolve()
    if args.hermes:
        if not args.build_name:
            ap.error("--hermes needs --build-name")
        checkouts[args.build_name] = Path(args.hermes).resolve()
    if args.build_name and args.build_name not in meta:
        if not args.day0:
            ap.error(f"{args.build_name} is not a known build: give --day0 (and --commit)")
        meta[args.build_name] = {"commit": args.commit, "day0": args.day0}
    if args.day0 and args.build_name:
        meta[args.build_name]["day0"] = args.day0
    for item in args.mixed:
        mname, _, pair = item.partition("=")
        old, _, new = pair.partition("+")
        mixed.append((mname, old, new))
    if not checkouts:
        ap.error("nothing to generate: give --git-dir, --build or --hermes")

    try:
        # Each derived build whose base is at hand: a copy of the base with our change applied.
        for bname, m in KNOWN_BUILDS.items():
            if m.get("base") in checkouts and bname not in checkouts and (not args.only or any(o.endswith(bname) for o in args.only)):
                log(f"deriving {bname} from {m['base']} ({m['change']})")
                derive.derive(checkouts[m["base"]], tmp / bname, m["change"])
                checkouts[bname] = tmp / bname
        run_all(args, checkouts, meta, mixed, stage, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # the checkouts this run extracted or derived


def run_all(args: argparse.Namespace, checkouts: Dict[str, Path], meta: Dict[str, dict],
            mixed: List[tuple], stage: Path, out: Path) -> None:
    def phase(bname: str, sessions: List[dict]) -> dict:
        m = meta[bname]
        derived = None
        if m.get("change"):
            change = derive.CHANGES[m["change"]]
            derived = {"not_a_hermes_release": True, "base_build": m["base"], "base_commit": m["commit"],
                       "change": m["change"], "summary": change.summary,
                       "applied_by": "scripts/hermes-corpus/derive.py",
                       "diff": f"{change.file}: {change.added} lines added, {change.removed} removed"}
        return {"build": bname, "checkout": str(checkouts[bname]), "day0": m["day0"],
                "commit": m.get("commit"), "sessions": sessions, "derived": derived}

    std = scenario.STANDARD
    for bname in checkouts:
        if not args.only or bname in args.only:
            generate(bname, std, [phase(bname, std.sessions)], stage, out, {})
        fam = f"{scenario.FAMILIES.name}-{bname}"
        if bname in scenario.FAMILY_BUILDS and (not args.only or fam in args.only):
            generate(fam, scenario.FAMILIES, [phase(bname, scenario.FAMILIES.sessions)], stage, out, {})
    for mname, old, new in mixed:
        if args.only and mname not in args.only:
            continue
        generate(mname, std, [phase(old, std.sessions), phase(new, scenario.MIXED_EXTRA_SESSIONS)],
                 stage, out, {"mixed": {"first": old, "then": new}})


if __name__ == "__main__":
    main()
