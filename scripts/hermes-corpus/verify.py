#!/usr/bin/env python3
"""Check generated Hermes homes and print a Markdown table of what they hold.

    /usr/bin/python3 scripts/hermes-corpus/verify.py test/fixtures/hermes-builds

Reads only the committed files (manifest.json, state.db files, home and work
trees); needs nothing from Hermes.  Exits non-zero when a check fails.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scenario  # noqa: E402

MEM_BANNER = "MEMORY (your personal notes)"
USER_BANNER = "USER PROFILE (who the user is)"
PC_HEAD = "# Project Context\n\nThe following project context files have been loaded and should be followed:"

failures: List[str] = []


def check(cond: bool, msg: str) -> bool:
    if not cond:
        failures.append(msg)
    return cond


def strip_frontmatter(text: str) -> str:
    s = text.strip().lstrip("\ufeff")
    if s.startswith("---"):
        end = s.find("\n---", 3)
        if end != -1:
            rest = s[end + 4:].lstrip("\n")
            return rest or s
    return s


def prompt_of(con: sqlite3.Connection, sid: str) -> tuple:
    cols = {r[1] for r in con.execute("PRAGMA table_info(sessions)")}
    inline = con.execute("SELECT system_prompt FROM sessions WHERE id=?", (sid,)).fetchone()
    inline = inline[0] if inline else None
    if "system_prompt_hash" in cols:
        row = con.execute("SELECT s.system_prompt_hash, p.prompt FROM sessions s LEFT JOIN system_prompts p "
                          "ON p.hash = s.system_prompt_hash WHERE s.id=?", (sid,)).fetchone()
        if row and row[1]:
            return row[1], "system_prompts"
    return inline, "inline"


def skills_tier(prompt: str) -> str:
    i_sk = prompt.find("<available_skills>")
    i_pc = prompt.find(PC_HEAD)
    i_mem = prompt.find(MEM_BANNER)
    i_host = prompt.find("\nHost: ")
    if i_sk < 0:
        return "none"
    if i_host >= 0 and i_sk < i_host:
        return "stable (before Host line)"
    if i_mem >= 0 and i_sk < i_mem and (i_pc < 0 or i_sk > i_pc):
        return "volatile (before MEMORY)"
    return "other"


def flat_skill_line(prompt: str) -> Optional[str]:
    m = re.search(r"\n(  [^\n]*:)\n    - scratchpad:", prompt)
    return m.group(1).strip() if m else None


def verify_folder(folder: Path) -> List[dict]:
    man = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    scn = {s.name: s for s in (scenario.FAMILIES, scenario.PROJECT_SKILLS)}.get(man.get("scenario"), scenario.STANDARD)
    rows = []
    # The committed files are exactly the scenario files (a trust list naming the generation root).
    rooted = lambda text: text.replace(scenario.GENERATION_ROOT, man["generation_root"])  # noqa: E731
    for prof, files in scn.profiles.items():
        for rel, text in files.items():
            p = folder / man["profiles"][prof] / rel
            check(p.exists() and p.read_text(encoding="utf-8") == rooted(text), f"{folder.name}: {prof}'s {rel} differs from the scenario")
    for rel, text in scn.work_tree.items():
        p = folder / "work" / rel
        check(p.exists() and p.read_text(encoding="utf-8") == rooted(text), f"{folder.name}: work/{rel} differs")
    for side in folder.rglob("*"):
        check(not side.name.endswith(("-wal", "-shm", "-journal")), f"{folder.name}: sidecar {side}")
        check(side.name != ".git", f"{folder.name}: nested .git at {side}")

    dbs = {prof: folder / rel / "state.db" for prof, rel in man["profiles"].items()}
    cons = {k: sqlite3.connect(f"file:{v}?mode=ro", uri=True) for k, v in dbs.items()}
    for prof, con in cons.items():
        ver = con.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        check(ver == man["schema_version"], f"{folder.name}/{prof}: schema_version {ver} != {man['schema_version']}")
        n_db = con.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
        n_man = sum(1 for s in man["sessions"] if s["profile"] == prof)
        check(n_db == n_man, f"{folder.name}/{prof}: {n_db} sessions in db, {n_man} in manifest")

    souls = {prof: soul.strip() for prof, soul in scn.souls.items()}
    for s in man["sessions"]:
        con = cons[s["profile"]]
        prompt, where = prompt_of(con, s["id"])
        tag = f"{folder.name}/{s['id']} ({s['role']})"
        if not check(bool(prompt), f"{tag}: no stored prompt"):
            continue
        check(prompt.startswith(souls[s["profile"]]), f"{tag}: prompt does not start with the profile's SOUL.md")
        check("<available_skills>" in prompt, f"{tag}: no <available_skills>")
        check(MEM_BANNER in prompt and USER_BANNER in prompt, f"{tag}: memory banners missing")
        check("mac-screenshots" not in prompt, f"{tag}: the macOS-only skill is listed on Linux")
        if scn is scenario.PROJECT_SKILLS:
            verify_project_skills(tag, s, prompt)
        if s["profile"] == "default" and scn is scenario.STANDARD:
            # skills.external_dirs: the team folder's skills join the index; its deploy loses to the profile's own.
            check("    - rollback: Roll a release back to the previous version." in prompt and "    - pager: " in prompt,
                  f"{tag}: the external folder's skills are not listed")
            check("The team's deploy" not in prompt, f"{tag}: the external deploy won over the profile's own")
        # Project context: every label names a file whose text is in the prompt.
        for label, rel in zip(s["context_labels"], s["context_files"]):
            body = (folder / rel).read_text(encoding="utf-8")
            body = strip_frontmatter(body) if rel.endswith((".hermes.md", "HERMES.md")) else body.strip()
            check(f"## {label}\n\n{body}" in prompt, f"{tag}: section ## {label} does not hold {rel}")
        check((PC_HEAD in prompt) == bool(s["context_labels"]), f"{tag}: Project Context presence mismatch")
        if s.get("context_cwd") == "work/repo-b":
            check(s["context_files"] == ["work/repo-b/.hermes.md"], f"{tag}: repo-b must load only .hermes.md")
        if s.get("context_cwd") == "work/repo-e":
            # AGENTS.override.md is read from 0.20.3 on (a fork appends it after AGENTS.md).
            reads_override = tuple(int(x) for x in s["hermes_version"].split(".")[:3]) >= (0, 20, 3)
            check(("work/repo-e/AGENTS.override.md" in s["context_files"]) == reads_override,
                  f"{tag}: repo-e's override loaded by {s['hermes_version']}: {s['context_files']}")
        for line in ("Model: " + (s["prompt_model"] or "?"), "Platform: " + s["source"]):
            check(line in prompt, f"{tag}: trailer line {line!r} missing")
        # Hermes' own tiers (recorded while it built the prompt) make up the stored prompt exactly.
        tiers = s.get("hermes_tiers")
        if check(tiers is not None, f"{tag}: no tiers recorded for the stored prompt"):
            joined = [tiers[t]["chars"] for t in ("stable", "context", "volatile") if tiers[t]["chars"]]
            check(sum(joined) + 2 * (len(joined) - 1) == len(prompt), f"{tag}: the recorded tiers do not add up to the prompt")
        check(s.get("wire") is not None, f"{tag}: no request of its turns recorded")
        rows.append({
            "folder": folder.name, "id": s["id"], "written_by": s["written_by"], "profile": s["profile"],
            "role": s["role"], "source": s["source"], "cwd": s["cwd"] or "—",
            "stored": where, "labels": ", ".join(s["context_labels"]) or "—",
            "skills_tier": skills_tier(prompt), "flat": flat_skill_line(prompt) or "—",
            "model": s["model"], "prompt_model": s["prompt_model"],
        })
    if scn is scenario.FAMILIES:
        verify_families(folder, man, {s["id"]: prompt_of(cons[s["profile"]], s["id"])[0] or "" for s in man["sessions"]})
    if "mixed" in man:
        writers = {s["written_by"] for s in man["sessions"]}
        check(writers == {man["mixed"]["first"], man["mixed"]["then"]}, f"{folder.name}: prompts of both builds expected, got {writers}")
        n_inline_left = cons["default"].execute(
            "SELECT COUNT(*) FROM sessions WHERE COALESCE(system_prompt,'') != ''").fetchone()[0]
        check(n_inline_left == 0, f"{folder.name}: {n_inline_left} prompts still inline after the migration")
    for c in cons.values():
        c.close()
    return rows


def verify_project_skills(tag: str, s: dict, prompt: str) -> None:
    """Only a build from 0.20.3 lists the trusted project's skills, only in the sessions of the profile trusting it inside it."""
    lists = (tuple(int(x) for x in s["hermes_version"].split(".")[:3]) >= (0, 20, 3)
             and s["profile"] == "default" and (s["cwd"] or "").startswith("work/trusted"))
    check(("[project]" in prompt) == lists, f"{tag}: project skills listed: {'[project]' in prompt}, expected {lists}")
    check("rotate-keys" not in prompt, f"{tag}: the untrusted project's skill is listed")
    check("Another harness's review" not in prompt, f"{tag}: .agents/skills' code-review won over .hermes/skills'")
    if lists:
        for line in ("    - deploy: [project] Deploy this project with its own release script.",
                     "    - code-review: [project] Review a change against this project's checklist.",
                     "    - lint: [project] Run the project's linters before a commit.",
                     "  testing:\n    - flaky-tests: [project] "):
            check(line in prompt, f"{tag}: {line!r} missing")
        check("with the release checklist" not in prompt and "with the releas..." not in prompt, f"{tag}: the profile's deploy is listed beside the project's")
    elif s["profile"] == "default":
        check("    - deploy: Deploy a service to staging or production with the releas..." in prompt, f"{tag}: the profile's deploy is missing")


def verify_families(folder: Path, man: dict, prompts: dict) -> None:
    """The prefix-families record holds of the committed prompts, and the profile line is where the build puts it."""
    recorded = man["prefix_families"]
    check(recorded == scenario.prefix_families(man["sessions"], prompts)["prefix_families"],
          f"{folder.name}: prefix_families does not follow from the committed prompts")
    derived = any(b.get("derived") for b in man["builds"])
    for p in recorded["partings"]:
        tag = f"{folder.name}: {p['a_profile']}/{p['b_profile']} on {p['platform']} in {p['context_cwd']}"
        check(p["first_difference"]["line_opens"] == "Active Hermes profile: ", f"{tag}: the prompts part elsewhere than at the profile line")
        if derived:
            check(p["first_difference"]["tier"] == "volatile", f"{tag}: the derived build's prompts part before the volatile tier")
        check(not p["tools_equal"] and "skill_manage" in p["tools_differing"], f"{tag}: skill_manage's schema is expected to name each profile's skills folder")
    shared = [f for f in recorded["stable_tier_alone"] if len(f["profiles"]) > 1]
    check(bool(shared), f"{folder.name}: no stable tier shared by two profiles")


def main() -> None:
    base = Path(sys.argv[1] if len(sys.argv) > 1 else "test/fixtures/hermes-builds")
    folders = sorted(p for p in base.iterdir() if (p / "manifest.json").exists())
    all_rows: List[dict] = []
    summary = []
    for f in folders:
        rows = verify_folder(f)
        all_rows.extend(rows)
        man = json.loads((f / "manifest.json").read_text(encoding="utf-8"))
        summary.append((f.name, ", ".join(f"{b['name']} ({b['commit'][:7]}, v{b['version']}, schema {b['schema_version']})" for b in man["builds"]),
                        man["schema_version"], len(man["sessions"])))
    print("| folder | written by | schema_version in db | sessions |")
    print("|---|---|---|---|")
    for name, by, ver, n in summary:
        print(f"| {name} | {by} | {ver} | {n} |")
    print()
    print("| folder | session | written by | profile | role | source | cwd | prompt stored | Project Context labels | skills index tier | flat skill category line | model column / prompt Model line |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in all_rows:
        model = r["model"] if r["model"] == r["prompt_model"] else f"{r['model']} / **{r['prompt_model']}**"
        print(f"| {r['folder']} | {r['id']} | {r['written_by']} | {r['profile']} | {r['role']} | {r['source']} | "
              f"{r['cwd']} | {r['stored']} | {r['labels']} | {r['skills_tier']} | `{r['flat']}` | {model} |")
    if failures:
        print("\nFAILED CHECKS:", file=sys.stderr)
        for f in failures:
            print("  - " + f, file=sys.stderr)
        sys.exit(1)
    print(f"\nAll checks passed ({len(all_rows)} sessions in {len(folders)} folders).", file=sys.stderr)


if __name__ == "__main__":
    main()
