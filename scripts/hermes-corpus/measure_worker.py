"""Ask ONE thing of Hermes' own code in this process, for measure.py; never run by hand:

    /usr/bin/python3 measure_worker.py --hermes CHECKOUT --root FOLDER --spec JOB.json --result OUT.json

The process is set up as worker.py sets up a session (harness.py: offline, fixed clock, seeded
ids; the fake `openai` module; `-p <profile>` resolved first), in a corpus folder copied back to
the place Hermes wrote it (its generation root), so the paths Hermes puts in its text are the ones
in the stored prompts.  The jobs:

* "tools": every tool Hermes' registry holds, as ``model_tools.get_tool_definitions`` and the
  agent ``hermes prompt-size`` builds (``hermes_cli.prompt_size._build_inspection_agent``) produce
  their schemas.  Each schema's JSON goes to a file of the dump folder (not to the repository: only
  its size is kept); the result says which tools a fresh CLI and telegram session get, each tool's
  toolset, and for every tool this machine could not load, why.  A tool whose availability check
  fails here (an API key, a binary, a service we do not have) is measured as the registry produces
  it with that check answered yes, and marked so.
* "gateway-tools": the tools of a fresh telegram session, set up as the gateway sets up a message
  turn (as_gateway), each schema's JSON to the dump folder's `gateway/`.
* "breakdown": Hermes' own ``hermes_cli.prompt_size.compute_prompt_breakdown(platform)`` for a
  fresh session of the profile in the given folder at the given time; for the telegram platform
  with the message's session context bound as the gateway binds it (see measure.py).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402  (must run before Hermes is imported)


def prepare(args: argparse.Namespace, job: dict) -> None:
    root = Path(args.root)
    os.environ["HERMES_HOME"] = str(root / "home")
    os.environ["HOME"] = str(root / "userhome")
    os.environ["TZ"] = "Europe/Berlin"
    import time
    time.tzset()
    os.environ["OPENROUTER_API_KEY"] = "corpus-offline-placeholder"  # as worker.py: the client is fake
    os.environ.setdefault("HERMES_QUIET", "1")
    harness.install_all(seed=f"measure:{job['name']}")
    harness.CLOCK.set(float(job["epoch"]))
    sys.path.insert(0, str(HERE / "stubs"))
    sys.path.insert(0, args.hermes)
    if job["profile"] != "default":
        from hermes_cli.profiles import resolve_profile_env
        os.environ["HERMES_HOME"] = resolve_profile_env(job["profile"])
    os.chdir(root / job["cwd"])


def tool_name(tool: dict) -> str:
    fn = tool.get("function") if isinstance(tool, dict) else None
    return str((fn or {}).get("name") or (tool or {}).get("name") or "")


def schema_json(tool: dict) -> str:
    """One tool's JSON as `hermes prompt-size` measures it (_compute_toolsets_breakdown)."""
    return json.dumps(tool, ensure_ascii=False)


class ImportWarnings(logging.Handler):
    """The registry's "Could not import tool module" warnings: modules whose tools never registered."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.failed: dict = {}

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "Could not import tool module %s: %s" and len(record.args or ()) == 2:
            self.failed[str(record.args[0])] = str(record.args[1])


def cli_turn_tools(job: dict) -> list:
    """The tools array of a fresh interactive CLI session's first request (cli.HermesCLI().chat)."""
    import openai
    fake = openai.FAKE_LLM
    fake.keep_tools, fake.queue = True, ["Noted."]
    import cli as hermes_cli_mod
    c = hermes_cli_mod.HermesCLI()
    fake.session_id = c.session_id
    harness.CLOCK.set(float(job["epoch"]) + 30)
    c.chat("Which tools do you have?")
    c._session_db.close()
    if fake.last_tools is None:
        raise RuntimeError("the CLI's turn sent no request")
    return fake.last_tools


def tools_job(job: dict, dump: Path) -> dict:
    imports = ImportWarnings()
    logging.getLogger("tools.registry").addHandler(imports)
    import model_tools
    from hermes_cli.prompt_size import _build_inspection_agent
    from tools import registry as registry_module
    from tools.registry import registry

    dump.mkdir(parents=True, exist_ok=True)
    schemas: dict = {}

    def keep(tools: list) -> list:
        names = []
        for tool in tools:
            name = tool_name(tool)
            names.append(name)
            schemas.setdefault(name, schema_json(tool))
        return names

    # What a fresh CLI session sends, as its first turn's request carries it (Hermes' interactive
    # CLI, as worker.py drives it: its startup adds the tool-search bridge tools the agent of
    # `hermes prompt-size` lacks), and every tool the platforms' toolsets name (those that do not
    # load here are missing from the sessions). A gateway session's tools: gateway_tools_job.
    sessions = {"cli": keep(cli_turn_tools(job))}
    prompt_size_cli = [tool_name(t) for t in _build_inspection_agent("cli").tools or []]
    from hermes_cli.config import load_config
    from hermes_cli.tools_config import _get_platform_tools
    from toolsets import resolve_toolset
    platform_tools = {platform: sorted({t for ts in _get_platform_tools(load_config(), platform) for t in resolve_toolset(ts)})
                      for platform in ("cli", "telegram")}
    # Every tool of every toolset that loads here, then those whose availability check fails here.
    model_tools._clear_tool_defs_cache()
    loaded = keep(model_tools.get_tool_definitions(None, quiet_mode=True, skip_tool_search_assembly=True))
    entries = {e.name: e for e in registry._snapshot_entries()}
    failing = {}
    for name, entry in entries.items():
        if name in schemas or not entry.check_fn:
            continue
        try:
            ok = bool(entry.check_fn())
            why = None if ok else f"its availability check {getattr(entry.check_fn, '__name__', 'check_fn')}() is false here"
        except Exception as exc:  # noqa: BLE001 - the reason is what we record
            why = f"its availability check {getattr(entry.check_fn, '__name__', 'check_fn')}() raised {type(exc).__name__}: {exc}"
        if why:
            failing[name] = why
    original = registry_module._check_fn_cached
    registry_module._check_fn_cached = lambda fn: True
    try:
        model_tools._clear_tool_defs_cache()
        keep(model_tools.get_tool_definitions(None, quiet_mode=True, skip_tool_search_assembly=True))
    finally:
        registry_module._check_fn_cached = original
    toolset_of = registry.get_tool_to_toolset_map()
    try:  # the tool-search bridge tools belong to no registered toolset; named after their module
        from tools.tool_search import BRIDGE_TOOL_NAMES
        toolset_of = {**{name: "tool_search" for name in BRIDGE_TOOL_NAMES}, **toolset_of}
    except ImportError:
        pass
    tools = {}
    for name, text in sorted(schemas.items()):
        (dump / f"{name}.json").write_text(text, encoding="utf-8")
        tools[name] = {"toolset": toolset_of.get(name) or "(unknown)", "json_bytes": len(text.encode("utf-8")),
                       "loads_here": name in loaded or any(name in s for s in sessions.values()),
                       **({"measured_with_check_bypassed": failing[name]} if name in failing else {})}
    not_measured = {name: "registered, but get_tool_definitions drops it even with its check answered yes "
                          "(a post-processing rule of model_tools)" for name in entries if name not in schemas}
    return {"tools": tools, "sessions": sessions, "prompt_size_cli": prompt_size_cli,
            "platform_tools": platform_tools, "not_measured": not_measured,
            "modules_not_imported": imports.failed}


def as_gateway(platform: str) -> None:
    """The gateway's bootstrap (terminal.cwd -> TERMINAL_CWD) and a message's session context, as
    worker.py's telegram session has them: what a gateway session's tools and skills index depend
    on (its skills.platform_disabled list; tools whose check wants the gateway), and what
    `hermes prompt-size --platform` alone does not set up."""
    import gateway.run  # noqa: F401
    from gateway.session_context import set_session_vars
    set_session_vars(platform=platform, chat_id="0", chat_type="dm", chat_name="", user_id="0",
                     user_name="", session_key="")


def gateway_tools_job(job: dict, dump: Path) -> dict:
    """The tools of a fresh telegram session, as the gateway's agent gets them; their JSON to `dump`."""
    as_gateway("telegram")
    from hermes_cli.prompt_size import _build_inspection_agent
    dump.mkdir(parents=True, exist_ok=True)
    names = []
    for tool in _build_inspection_agent("telegram").tools or []:
        names.append(tool_name(tool))
        (dump / f"{names[-1]}.json").write_text(schema_json(tool), encoding="utf-8")
    return {"sessions": {"telegram": names}}


def breakdown_job(job: dict) -> dict:
    if job["platform"] != "cli":
        as_gateway(job["platform"])
    from hermes_cli.prompt_size import compute_prompt_breakdown
    data = compute_prompt_breakdown(job["platform"])
    home = Path(os.environ["HERMES_HOME"]).resolve()
    root = Path(job["root"]).resolve()
    for skill in data.get("skills_breakdown") or []:
        if skill.get("path"):  # relative to the corpus folder, as the manifest's paths
            skill["path"] = os.path.relpath(skill["path"], root)
    data["sections"] = [{"label": label, "chars": chars, "bytes": byts} for label, chars, byts in data.get("sections") or []]
    data["hermes_home"] = os.path.relpath(home, root)
    return data


def main() -> None:
    args = harness.worker_arguments()
    job = json.loads(Path(args.spec).read_text(encoding="utf-8"))
    job["root"] = args.root
    result: dict = {"job": job["name"]}
    log = io.StringIO()
    try:
        prepare(args, job)
        with contextlib.redirect_stdout(log):
            if job["kind"] == "tools":
                result.update(tools_job(job, Path(job["dump"])))
            elif job["kind"] == "gateway-tools":
                result.update(gateway_tools_job(job, Path(job["dump"])))
            elif job["kind"] == "breakdown":
                result["breakdown"] = breakdown_job(job)
            else:
                raise ValueError(job["kind"])
        result["ok"] = True
    except Exception:
        result["ok"] = False
        result["error"] = traceback.format_exc()
    result["stdout"] = log.getvalue()[-2000:]
    Path(args.result).write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
