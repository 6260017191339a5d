#!/usr/bin/env python3
"""Measure, with Hermes' own code, what the corpus builds send besides the stored prompt.

    /usr/bin/python3 scripts/hermes-corpus/measure.py --git-dir PATH/TO/hermes-agent.git \\
        --corpus test/fixtures/hermes-builds --dump /tmp/hermes-tool-schemas \\
        --tools-out server/hermes/cost/tool-schemas.json \\
        --breakdowns-out test/fixtures/hermes-builds/prompt-breakdowns.json

(or `--build NAME=CHECKOUT`, repeatable, as generate.py; a derived build is made from its base.)

For each build that wrote a folder of the corpus, in a fresh process per question
(measure_worker.py), in the corpus folder copied back to where Hermes wrote it:

1. **Tool schemas.**  Every tool's schema as Hermes' registry produces it
   (``model_tools.get_tool_definitions``, and the tool list of a fresh CLI and telegram session as
   ``hermes prompt-size`` builds it), its JSON written to --dump/<build>/<tool>.json, outside the
   repository.  Then ``count-tokens.mjs`` (ours, Node) counts each file with the o200k tokenizer
   the lens uses (gpt-tokenizer) and writes --tools-out: per build (and the commit it came from)
   each tool's toolset, JSON bytes and tokens, the sums per toolset, the tool lists of fresh
   sessions per platform, and what could not be loaded here and why.  Never the schemas' text.
2. **Prompt breakdowns.**  For every live session of a folder written by one build (not switched
   to another model, not compacted), Hermes' own ``compute_prompt_breakdown(platform)``
   (``hermes_cli/prompt_size.py``) for a fresh session of that profile, in that session's folder,
   on that session's day: written to --breakdowns-out, the figures the lens's `prompt-size` is
   checked against (test/unit/conformance/promptBreakdown.test.ts).

Needs what generate.py needs (Debian's python3 and its apt packages) and Node for the token count.
No network is used; nothing of Hermes lands in the repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import derive  # noqa: E402
import generate  # noqa: E402

PYTHON = generate.PYTHON
REPO = HERE.parent.parent


def log(msg: str) -> None:
    print(msg, flush=True)


def stage(corpus: Path, folder: str) -> Path:
    """The corpus folder copied back to its generation root, with its git roots and user home."""
    manifest = json.loads((corpus / folder / "manifest.json").read_text(encoding="utf-8"))
    root = Path(manifest["generation_root"])
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(corpus / folder, root, symlinks=True)
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    for gr in manifest["git_roots"]:
        subprocess.run(["git", "init", "-q", "-b", "main", str(root / gr["path"])], check=True, env=env)
    (root / manifest["user_home"]["path"]).mkdir(exist_ok=True)
    return root


def run_job(checkout: Path, root: Path, job: dict, work: Path) -> dict:
    return generate.run_worker("measure_worker.py", checkout, root, job["name"], job, work)


def session_epoch(session_id: str) -> float:
    """A minute after the session started (its id's YYYYMMDD_HHMMSS stamp, local time): its day."""
    stamp = dt.datetime.strptime(session_id[:15], "%Y%m%d_%H%M%S").replace(tzinfo=generate.TZ)
    return stamp.timestamp() + 60


def single_build_folders(corpus: Path) -> Dict[str, List[str]]:
    """The folders each build wrote alone, by build name (the mixed folder is left out)."""
    out: Dict[str, List[str]] = {}
    for manifest_file in sorted(corpus.glob("*/manifest.json")):
        m = json.loads(manifest_file.read_text(encoding="utf-8"))
        if len(m["builds"]) == 1:
            out.setdefault(m["builds"][0]["name"], []).append(manifest_file.parent.name)
    return out


def measure_build(name: str, checkout: Path, corpus: Path, folders: List[str], dump: Path, work: Path) -> tuple:
    standard = next(f for f in folders if json.loads((corpus / f / "manifest.json").read_text())["scenario"] == "standard")
    manifest = json.loads((corpus / standard / "manifest.json").read_text(encoding="utf-8"))
    build = manifest["builds"][0]
    root = stage(corpus, standard)
    day0 = dt.datetime.combine(dt.date.fromisoformat(build["day0"]), dt.time(9, 0), tzinfo=generate.TZ).timestamp()
    log(f"  [{name}] tool schemas")
    tools = run_job(checkout, root, {"name": f"{name}-tools", "kind": "tools", "profile": "default", "cwd": "work/repo-a",
                                     "epoch": day0, "dump": str(dump / name)}, work)
    gateway = run_job(checkout, root, {"name": f"{name}-gateway-tools", "kind": "gateway-tools", "profile": "default",
                                       "cwd": "userhome", "epoch": day0, "dump": str(dump / name / "gateway")}, work)
    tools["sessions"].update(gateway["sessions"])
    table = {"name": name, "kind": generate.KNOWN_BUILDS.get(name, {}).get("kind", "release"),
             "version": build["version"], "commit": build["commit"],
             **({"derived": build["derived"]} if build.get("derived") else {}),
             "measured_in": f"{standard}, default profile, work/repo-a",
             **{k: tools[k] for k in ("tools", "sessions", "prompt_size_cli", "platform_tools", "not_measured", "modules_not_imported")}}
    breakdowns: Dict[str, dict] = {}
    for folder in folders:
        m = json.loads((corpus / folder / "manifest.json").read_text(encoding="utf-8"))
        root = stage(corpus, folder)
        entries = []
        for s in m["sessions"]:
            if s["role"] != "live":
                continue
            log(f"  [{name}] {folder}: breakdown like {s['scenario_key']} ({s['profile']}, {s['source']}, {s['context_cwd']})")
            job = {"name": f"{folder}-{s['scenario_key']}", "kind": "breakdown", "profile": s["profile"],
                   "platform": s["source"], "cwd": s["context_cwd"], "epoch": session_epoch(s["id"])}
            result = run_job(checkout, root, job, work)
            entries.append({"like_session": s["id"], "scenario_key": s["scenario_key"], "profile": s["profile"],
                            "platform": s["source"], "cwd": s["context_cwd"],
                            "at": dt.datetime.fromtimestamp(job["epoch"], generate.TZ).isoformat(),
                            "breakdown": result["breakdown"]})
        breakdowns[folder] = {"build": name, "commit": build["commit"], "breakdowns": entries}
    return table, breakdowns


def write_breakdowns(file: Path, folders: Dict[str, dict]) -> None:
    """The breakdowns, one line each (the file is large enough as it is)."""
    comment = ("Hermes' own compute_prompt_breakdown (hermes_cli/prompt_size.py) for a fresh session like each "
               "live session of the corpus folders one build wrote: same profile, platform, folder and day. "
               "Written by scripts/hermes-corpus/measure.py; see the README beside this file.")
    lines = ["{", f'"$comment": {json.dumps(comment)},', '"folders": {']
    for i, (folder, entry) in enumerate(sorted(folders.items())):
        lines.append(f'{json.dumps(folder)}: {{"build": {json.dumps(entry["build"])}, "commit": {json.dumps(entry["commit"])}, "breakdowns": [')
        rows = [json.dumps(b, ensure_ascii=False) for b in entry["breakdowns"]]
        lines.append(",\n".join(rows))
        lines.append("]}" + ("," if i < len(folders) - 1 else ""))
    lines.append("}}")
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--dump", required=True, help="where the schemas' JSON goes (outside the repository)")
    ap.add_argument("--tools-out", required=True)
    ap.add_argument("--breakdowns-out", required=True)
    ap.add_argument("--git-dir")
    ap.add_argument("--build", action="append", default=[], metavar="NAME=CHECKOUT")
    ap.add_argument("--only", action="append", default=[], help="measure only these builds")
    args = ap.parse_args()
    corpus = Path(args.corpus).resolve()
    dump = Path(args.dump).resolve()
    if dump.exists():
        shutil.rmtree(dump)
    tmp = Path(tempfile.mkdtemp(prefix="hermes-measure-"))
    try:
        checkouts: Dict[str, Path] = {}
        if args.git_dir:
            for bname, m in generate.KNOWN_BUILDS.items():
                if not m.get("base"):
                    checkouts[bname] = generate.archive_checkout(args.git_dir, m["commit"], tmp / m["commit"][:7])
        for item in args.build:
            bname, _, path = item.partition("=")
            checkouts[bname] = Path(path).resolve()
        for bname, m in generate.KNOWN_BUILDS.items():
            if m.get("base") in checkouts and bname not in checkouts:
                derive.derive(checkouts[m["base"]], tmp / bname, m["change"])
                checkouts[bname] = tmp / bname
        folders = single_build_folders(corpus)
        tables, breakdowns = [], {}
        for bname, checkout in checkouts.items():
            if bname not in folders or (args.only and bname not in args.only):
                continue
            log(f"== {bname}")
            table, found = measure_build(bname, checkout, corpus, folders[bname], dump, tmp)
            tables.append(table)
            breakdowns.update(found)
        measured = dump / "tools-measured.json"  # kept beside the dump: count-tokens.mjs can be run again on it
        measured.write_text(json.dumps({"builds": tables}, indent=2, ensure_ascii=False), encoding="utf-8")
        subprocess.run(["node", str(HERE / "count-tokens.mjs"), "--measured", str(measured), "--dump", str(dump),
                        "--out", str(Path(args.tools_out).resolve())], check=True, cwd=REPO)
        write_breakdowns(Path(args.breakdowns_out), breakdowns)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
