"""Drive ONE Hermes session in this process, like one real `hermes` launch.

Run by generate.py, never by hand:

    /usr/bin/python3 worker.py --hermes CHECKOUT --root BUILD_ROOT --spec SPEC.json --result OUT.json

The spec (one entry of scenario.SESSIONS plus "start_epoch") says which
profile, surface (cli or telegram), working directory and turns to run.  The
worker patches the process first (harness.py: offline, fixed clock, seeded
ids), then imports Hermes from CHECKOUT and drives it:

* kind "cli": Hermes' own interactive CLI object ``cli.HermesCLI``:
  ``chat()`` for every turn, ``process_command("/model ...")`` and
  ``process_command("/compress")`` for the lifecycle events, and on exit the
  same two calls the CLI's exit path makes (persist, ``end_session(...,
  "cli_close")``).  Sessions that stay live are simply never ended.
* kind "telegram": the gateway's own bootstrap (importing ``gateway.run``
  resolves ``terminal.cwd`` into ``TERMINAL_CWD``), the gateway's own
  ``SessionStore.get_or_create_session`` for the session row and routing, the
  message's session context bound as the gateway binds it, then
  an ``AIAgent`` built with the arguments the gateway passes for a message
  turn, and ``run_conversation`` per message.  The asyncio message pump and
  the Telegram adapter are not run.

Every database write is made by Hermes' own SessionDB through these paths.
The LLM is the fake client in stubs/openai (canned replies, titles and the
compaction summary).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402  (must run before Hermes is imported)

TURN_STEP_SECONDS = 137  # virtual time between two turns of a session


class Driver:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.root = Path(args.root)
        self.spec = json.loads(Path(args.spec).read_text(encoding="utf-8"))
        self.t = float(self.spec["start_epoch"])
        self.result: dict = {"key": self.spec["key"], "events": []}

    # -- clock ---------------------------------------------------------------
    def tick(self, seconds: float = TURN_STEP_SECONDS) -> None:
        harness.CLOCK.set(self.t)
        self.t += seconds

    # -- environment -----------------------------------------------------------
    def prepare_env(self) -> None:
        home = self.root / "home"
        os.environ["HERMES_HOME"] = str(home)
        os.environ["HOME"] = str(self.root / "userhome")
        os.environ["TZ"] = "Europe/Berlin"
        import time
        time.tzset()
        # A placeholder, not a secret: Hermes' provider resolution wants a key
        # in the environment before it builds a client; the client is fake.
        os.environ["OPENROUTER_API_KEY"] = "corpus-offline-placeholder"
        os.environ.setdefault("HERMES_QUIET", "1")
        harness.install_all(seed=f"{self.spec['build']}:{self.spec['key']}")
        harness.CLOCK.set(self.t)
        sys.path.insert(0, str(HERE / "stubs"))
        sys.path.insert(0, self.args.hermes)
        if self.spec["profile"] != "default":
            # What `hermes -p <name>` does before any other import.
            from hermes_cli.profiles import resolve_profile_env
            os.environ["HERMES_HOME"] = resolve_profile_env(self.spec["profile"])
        self.result["hermes_home"] = os.environ["HERMES_HOME"]

    # -- config toggles ----------------------------------------------------------
    @contextlib.contextmanager
    def compression_setting(self):
        """The rotation chain needs compression.in_place: false while it runs."""
        comp = self.spec.get("compress") or {}
        cfg = Path(os.environ["HERMES_HOME"]) / "config.yaml"
        if comp.get("in_place") is not False:
            yield
            return
        original = cfg.read_text(encoding="utf-8")
        cfg.write_text(original.replace(
            "compression:\n  enabled: true\n",
            "compression:\n  enabled: true\n  in_place: false\n"), encoding="utf-8")
        assert "in_place: false" in cfg.read_text(encoding="utf-8"), "config toggle failed"
        try:
            yield
        finally:
            cfg.write_text(original, encoding="utf-8")

    # -- the fake LLM ------------------------------------------------------------
    def fake(self):
        import openai
        fake = openai.FAKE_LLM
        fake.title = self.spec.get("title")
        return fake

    # -- CLI ---------------------------------------------------------------------
    def run_cli(self) -> None:
        os.chdir(self.root / self.spec["cwd"])
        fake = self.fake()
        with self.compression_setting():
            import cli as hermes_cli_mod
            self.tick(0)  # the session id carries this second
            c = hermes_cli_mod.HermesCLI()
            self.result["events"].append({"event": "start", "session_id": c.session_id})
            self._cli_turns(c, fake, self.spec["turns"])
            if self.spec.get("model_switch"):
                self.tick(40)
                c.process_command(f"/model {self.spec['model_switch']}")
                self.result["events"].append({"event": "model_switch", "to": self.spec["model_switch"],
                                              "session_id": c.session_id})
            if self.spec.get("compress"):
                fake.summary = self.spec["compress"]["summary"]
                before = c.session_id
                self.tick(60)
                c.process_command("/compress")
                self.result["events"].append({"event": "compress", "before": before,
                                              "after": c.session_id,
                                              "in_place": self.spec["compress"]["in_place"]})
            self._cli_turns(c, fake, self.spec.get("after_turns") or [])
            if self.spec.get("end"):
                self.tick(30)
                persist = getattr(c, "_persist_active_session_before_close", None)
                if callable(persist):
                    persist()
                c._session_db.end_session(c.agent.session_id, self.spec["end"])
                self.result["events"].append({"event": "end", "reason": self.spec["end"],
                                              "session_id": c.agent.session_id})
            self.result["final_session_id"] = c.session_id
            self.result["model"] = getattr(c.agent, "model", None)
            self._wait_for_helpers()
            c._session_db.close()

    def _cli_turns(self, c, fake, turns) -> None:
        for user, reply in turns:
            self.tick()
            fake.queue = [reply]
            fake.session_id = c.session_id
            out = c.chat(user)
            if out is None or out.startswith("Error"):
                raise RuntimeError(f"turn failed: {out!r}")

    # -- Telegram gateway --------------------------------------------------------
    def run_telegram(self) -> None:
        userhome = Path(os.environ["HOME"])
        userhome.mkdir(parents=True, exist_ok=True)
        os.chdir(userhome)  # a gateway service starts in the user's home
        fake = self.fake()
        import gateway.run  # noqa: F401  (gateway bootstrap: terminal.cwd -> TERMINAL_CWD)
        from gateway.config import Platform, load_gateway_config
        from gateway.session import SessionSource, SessionStore
        from hermes_cli.config import load_config
        from hermes_cli.runtime_provider import resolve_runtime_provider
        from hermes_cli.tools_config import _get_platform_tools
        from hermes_constants import get_hermes_home
        from run_agent import AIAgent

        self.result["terminal_cwd"] = os.environ.get("TERMINAL_CWD")
        cfg = load_config()
        store = SessionStore(get_hermes_home() / "sessions", load_gateway_config())
        source = SessionSource(platform=Platform.TELEGRAM, chat_id=self.spec["chat_id"],
                               chat_type="dm", user_id=self.spec["user_id"],
                               user_name=self.spec["user_name"], chat_name=self.spec["user_name"])
        self.tick(0)  # the session id carries this second
        entry = store.get_or_create_session(source)
        self.result["events"].append({"event": "start", "session_id": entry.session_id})
        runtime = resolve_runtime_provider(requested=None)
        model_cfg = cfg.get("model") or {}
        model = model_cfg.get("default") if isinstance(model_cfg, dict) else model_cfg
        # The gateway binds each message's session context (GatewayRunner._set_session_env) before
        # it builds and runs the agent: the skills index reads that platform for
        # skills.platform_disabled.
        from gateway.session_context import clear_session_vars, set_session_vars
        session_vars = set_session_vars(
            platform=source.platform.value, chat_id=source.chat_id,
            chat_type=str(source.chat_type) if source.chat_type else "",
            chat_name=source.chat_name or "", user_id=str(source.user_id),
            user_name=str(source.user_name), session_key=entry.session_key)
        # As the gateway does for a message turn (GatewayRunner._run_agent): agent.disabled_toolsets.
        disabled = (cfg.get("agent") or {}).get("disabled_toolsets")
        try:
            from agent.skill_utils import parse_config_string_list
            disabled = parse_config_string_list(disabled)
        except ImportError:  # builds before 0.20.3 pass the config's value as it is
            pass
        agent = AIAgent(
            model=model,
            api_key=runtime.get("api_key"),
            base_url=runtime.get("base_url"),
            provider=runtime.get("provider"),
            requested_provider=runtime.get("requested_provider"),
            api_mode=runtime.get("api_mode"),
            credential_pool=runtime.get("credential_pool"),
            quiet_mode=True,
            verbose_logging=False,
            enabled_toolsets=sorted(_get_platform_tools(cfg, "telegram")),
            disabled_toolsets=disabled or None,
            session_id=entry.session_id,
            platform="telegram",
            user_id=source.user_id,
            user_name=source.user_name,
            chat_id=source.chat_id,
            chat_name=source.chat_name,
            chat_type=source.chat_type,
            gateway_session_key=entry.session_key,
            session_db=getattr(store, "_db", None),
            load_soul_identity=True,
        )
        history: list = []
        for user, reply in self.spec["turns"]:
            self.tick()
            fake.queue = [reply]
            fake.session_id = agent.session_id
            res = agent.run_conversation(user_message=user, conversation_history=history,
                                         task_id=entry.session_id)
            if not res or res.get("failed"):
                raise RuntimeError(f"turn failed: {res!r}")
            history = [m for m in (res.get("messages") or []) if m.get("role") != "system"]
        clear_session_vars(session_vars)
        self.result["final_session_id"] = agent.session_id
        self.result["model"] = agent.model
        self._wait_for_helpers()
        db = getattr(store, "_db", None)
        if db is not None:
            db.close()

    # -- what Hermes built -------------------------------------------------------
    def observe_prompt_tiers(self) -> None:
        """Record the three tiers of every system prompt Hermes builds (sizes and digests, not text).

        Wraps ``agent.system_prompt.build_system_prompt_parts``, which ``build_system_prompt`` calls
        through its module: the parts are returned unchanged.  The manifest matches them to each
        session's stored prompt by its digest, so a reader's tier boundaries can be checked against
        Hermes' own.
        """
        import hashlib
        try:
            import agent.system_prompt as sp
        except ImportError:
            return
        original = sp.build_system_prompt_parts
        built = self.result.setdefault("prompt_tiers", [])

        def digest(text: str) -> str:
            return hashlib.sha256(text.encode("utf-8")).hexdigest()

        def observed(agent, *args, **kwargs):
            parts = original(agent, *args, **kwargs)
            full = "\n\n".join(p for p in (parts["stable"], parts["context"], parts["volatile"]) if p)
            built.append({"prompt_sha256": digest(full),
                          **{name: {"chars": len(parts[name]), "bytes": len(parts[name].encode("utf-8")),
                                    "sha256": digest(parts[name])} for name in ("stable", "context", "volatile")}})
            return parts

        sp.build_system_prompt_parts = observed

    # -- shared ------------------------------------------------------------------
    def _wait_for_helpers(self) -> None:
        """Let Hermes' background helpers (title upgrade, memory review) finish."""
        import threading
        for th in list(threading.enumerate()):
            if th is threading.current_thread() or not th.is_alive():
                continue
            if th.name.startswith(("auto-title", "title", "bg-review", "background-review")):
                th.join(timeout=30)

    def run(self) -> None:
        self.prepare_env()
        self.observe_prompt_tiers()
        kind = self.spec["kind"]
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log):
                if kind == "cli":
                    self.run_cli()
                elif kind == "telegram":
                    self.run_telegram()
                else:
                    raise ValueError(kind)
            import openai
            self.result["llm_calls"] = openai.FAKE_LLM.calls
            self.result["ok"] = True
        except Exception:
            self.result["ok"] = False
            self.result["error"] = traceback.format_exc()
        finally:
            self.result["stdout"] = log.getvalue()[-4000:]
            Path(self.args.result).write_text(json.dumps(self.result, indent=2, ensure_ascii=False),
                                              encoding="utf-8")


def main() -> None:
    args = harness.worker_arguments()
    Driver(args).run()
    sys.stdout.flush()
    sys.stderr.flush()
    # Like a CLI that is still open (or was killed): no exit hooks run, so
    # a live session stays live.  Hermes' own SessionDB.close() ran above.
    os._exit(0)


if __name__ == "__main__":
    main()
