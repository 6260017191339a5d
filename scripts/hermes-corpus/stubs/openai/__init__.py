"""A tiny offline stand-in for the ``openai`` package, for the corpus generator only.

Hermes talks to every LLM through ``openai.OpenAI(...).chat.completions.create``.
Debian ships no ``python3-openai`` and the corpus must never reach the network,
so this module provides a client whose ``create`` returns canned replies that
the generator's driver queues (see ``FAKE_LLM`` below).  It implements only the
surface Hermes touches on a plain chat-completions turn and on a compaction
summary call: non-streaming responses, streaming chunk iterators, usage, and the
exception classes Hermes imports by name.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
from types import SimpleNamespace
from typing import Any, Dict, List, Optional

__version__ = "0.0.0-hermes-corpus-stub"


# --------------------------------------------------------------------------
# Exceptions.  Hermes imports a handful by name; any other name resolves to a
# fresh subclass of OpenAIError through the module __getattr__ below.
class OpenAIError(Exception):
    pass


class APIError(OpenAIError):
    def __init__(self, message: str = "", request: Any = None, *, body: Any = None, **_: Any):
        super().__init__(message)
        self.message = message
        self.request = request
        self.body = body
        self.code = None
        self.param = None
        self.type = None


class APIStatusError(APIError):
    def __init__(self, message: str = "", *, response: Any = None, body: Any = None, **_: Any):
        super().__init__(message, body=body)
        self.response = response
        self.status_code = getattr(response, "status_code", None)


class APIConnectionError(APIError):
    def __init__(self, *, message: str = "Connection error.", request: Any = None, **_: Any):
        super().__init__(message, request)


class APITimeoutError(APIConnectionError):
    def __init__(self, request: Any = None, **_: Any):
        super().__init__(message="Request timed out.", request=request)


class APIResponseValidationError(APIError):
    pass


def _status(name: str, code: int):
    return type(name, (APIStatusError,), {"status_code": code})


BadRequestError = _status("BadRequestError", 400)
AuthenticationError = _status("AuthenticationError", 401)
PermissionDeniedError = _status("PermissionDeniedError", 403)
NotFoundError = _status("NotFoundError", 404)
ConflictError = _status("ConflictError", 409)
UnprocessableEntityError = _status("UnprocessableEntityError", 422)
RateLimitError = _status("RateLimitError", 429)
InternalServerError = _status("InternalServerError", 500)


class _NotGiven:
    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = _NotGiven()
NotGiven = _NotGiven
Omit = _NotGiven
omit = NOT_GIVEN


def __getattr__(name: str):  # PEP 562: unknown names become error classes
    if name.startswith("__"):
        raise AttributeError(name)
    cls = type(name, (OpenAIError,), {})
    globals()[name] = cls
    return cls


# --------------------------------------------------------------------------
# The fake LLM.  The driver queues replies; each create() pops one.  Requests
# are recorded (role/length only) so the driver can tell what Hermes asked for.
class _FakeLLM:
    """Canned replies.  Three kinds of request reach it:

    * a session-title request (Hermes' auxiliary title generator) gets
      ``title`` (as JSON when Hermes asks for JSON);
    * a compaction-summary request (the context compressor) gets ``summary``;
    * anything else is a main-loop turn and gets the next queued reply.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: List[str] = []
        self.summary: Optional[str] = None
        self.title: Optional[str] = None
        self.calls: List[Dict[str, Any]] = []
        self.counter = itertools.count(1)
        # The session the driver is playing a turn of: it tags the requests that turn makes.
        self.session_id: Optional[str] = None
        # The last turn's tools array itself, kept only when a measuring job asks (measure_worker.py).
        self.keep_tools = False
        self.last_tools: Optional[list] = None

    def reply_for(self, kwargs: Dict[str, Any]) -> str:
        messages = kwargs.get("messages") or []
        blob = json.dumps(messages, ensure_ascii=False, default=str)
        with self.lock:
            n = next(self.counter)
            kind = _classify(blob)
            call = {"n": n, "kind": kind, "model": kwargs.get("model"), "messages": len(messages)}
            if kind == "turn":
                call.update(session_id=self.session_id, **wire_prefix(kwargs))
                if self.keep_tools:
                    self.last_tools = list(kwargs.get("tools") or [])
            self.calls.append(call)
            if kind == "title-json":
                return json.dumps({"title": self.title or "Untitled session"})
            if kind == "title":
                return self.title or "Untitled session"
            if kind == "summary":
                return self.summary or "Summary of the earlier conversation."
            if self.queue:
                return self.queue.pop(0)
            return f"Done (reply {n})."


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _marked(part: Any) -> bool:
    return isinstance(part, dict) and "cache_control" in part


def wire_prefix(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """What a turn's request sent before the conversation: the tools and the system message, as
    sizes, digests and cache markers (never their text), for the corpus manifest's prefix families."""
    tools = kwargs.get("tools") or []
    names = [((t.get("function") or {}).get("name") or t.get("name") or "") if isinstance(t, dict) else "" for t in tools]
    tools_json = json.dumps(tools, ensure_ascii=False)
    out: Dict[str, Any] = {
        "tool_names": names,
        "tools_json_bytes": len(tools_json.encode("utf-8")),
        "tools_sha256": _digest(tools_json),
        # Each tool's schema as the request carried it, in its order (16 hex digits each).
        "tool_sha256": [_digest(json.dumps(t, ensure_ascii=False))[:16] for t in tools],
        "tools_cache_marked": [i for i, t in enumerate(tools) if _marked(t) or _marked((t or {}).get("function"))],
    }
    messages = kwargs.get("messages") or []
    system = messages[0] if messages and isinstance(messages[0], dict) and messages[0].get("role") == "system" else None
    if system is not None:
        content = system.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        texts = [p.get("text") or "" if isinstance(p, dict) else str(p) for p in parts]
        out["system"] = {
            "chars": sum(len(t) for t in texts),
            "sha256": _digest("".join(texts)),
            # Each text part the request split the system message into, and whether it carries a cache marker.
            "parts": [{"chars": len(t), "sha256": _digest(t), "cache_marked": _marked(p) or _marked(system) and i == len(parts) - 1}
                      for i, (p, t) in enumerate(zip(parts, texts))],
        }
    return out


def _classify(blob: str) -> str:
    if "You name chat sessions" in blob:
        return "title-json"
    if "descriptive title (3-7 words)" in blob:
        return "title"
    if "You are a summarization agent" in blob:
        return "summary"
    return "turn"


FAKE_LLM = _FakeLLM()


def _usage(prompt_chars: int, completion_chars: int) -> SimpleNamespace:
    p = max(1, prompt_chars // 4)
    c = max(1, completion_chars // 4)
    return SimpleNamespace(
        prompt_tokens=p,
        completion_tokens=c,
        total_tokens=p + c,
        prompt_tokens_details=SimpleNamespace(cached_tokens=0, cache_write_tokens=0),
        completion_tokens_details=SimpleNamespace(reasoning_tokens=0),
        model_dump=lambda *a, **k: {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
    )


class _Obj(SimpleNamespace):
    """SimpleNamespace with the pydantic-ish helpers Hermes sometimes calls."""

    def model_dump(self, *a: Any, **k: Any) -> Dict[str, Any]:
        def conv(v: Any) -> Any:
            if isinstance(v, SimpleNamespace):
                return {kk: conv(vv) for kk, vv in vars(v).items() if not callable(vv)}
            if isinstance(v, list):
                return [conv(x) for x in v]
            return v
        return conv(self)

    def to_dict(self, *a: Any, **k: Any) -> Dict[str, Any]:
        return self.model_dump()

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class _Completions:
    def __init__(self, client: "OpenAI") -> None:
        self._client = client

    def create(self, **kwargs: Any) -> Any:
        text = FAKE_LLM.reply_for(kwargs)
        model = kwargs.get("model") or "fake-model"
        prompt_chars = len(json.dumps(kwargs.get("messages") or [], default=str))
        usage = _usage(prompt_chars, len(text))
        cid = f"chatcmpl-corpus-{len(FAKE_LLM.calls):04d}"
        if kwargs.get("stream"):
            return _Stream(cid, model, text, usage)
        message = _Obj(role="assistant", content=text, tool_calls=None, function_call=None,
                       refusal=None, reasoning=None, reasoning_content=None, reasoning_details=None,
                       annotations=None, audio=None)
        choice = _Obj(index=0, message=message, finish_reason="stop", logprobs=None)
        return _Obj(id=cid, object="chat.completion", created=0, model=model,
                    choices=[choice], usage=usage, system_fingerprint=None, service_tier=None)


class _Stream:
    """Iterator of chat.completion.chunk objects, the last one carrying usage."""

    def __init__(self, cid: str, model: str, text: str, usage: Any) -> None:
        self.response = SimpleNamespace(headers={}, status_code=200)
        chunks = []
        pieces = [text[i:i + 40] for i in range(0, len(text), 40)] or [""]
        for i, piece in enumerate(pieces):
            delta = _Obj(role="assistant" if i == 0 else None, content=piece, tool_calls=None,
                         function_call=None, refusal=None, reasoning=None,
                         reasoning_content=None, reasoning_details=None)
            chunks.append(_Obj(id=cid, object="chat.completion.chunk", created=0, model=model,
                               choices=[_Obj(index=0, delta=delta, finish_reason=None, logprobs=None)],
                               usage=None))
        last_delta = _Obj(role=None, content=None, tool_calls=None, function_call=None, refusal=None,
                          reasoning=None, reasoning_content=None, reasoning_details=None)
        chunks.append(_Obj(id=cid, object="chat.completion.chunk", created=0, model=model,
                           choices=[_Obj(index=0, delta=last_delta, finish_reason="stop", logprobs=None)],
                           usage=None))
        chunks.append(_Obj(id=cid, object="chat.completion.chunk", created=0, model=model,
                           choices=[], usage=usage))
        self._it = iter(chunks)

    def __iter__(self) -> "_Stream":
        return self

    def __next__(self) -> Any:
        return next(self._it)

    def __enter__(self) -> "_Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        pass


class _Chat:
    def __init__(self, client: "OpenAI") -> None:
        self.completions = _Completions(client)


class _Models:
    def list(self, *a: Any, **k: Any) -> Any:
        return _Obj(data=[])

    def retrieve(self, *a: Any, **k: Any) -> Any:
        raise NotFoundError("model lookup is offline in the corpus generator")


class OpenAI:
    def __init__(self, *, api_key: Any = None, base_url: Any = None, **kwargs: Any) -> None:
        self.api_key = api_key
        self.base_url = base_url
        self.timeout = kwargs.get("timeout")
        self.max_retries = kwargs.get("max_retries", 0)
        self.default_headers = kwargs.get("default_headers") or {}
        self._client = None
        self.chat = _Chat(self)
        self.models = _Models()

    def with_options(self, **_: Any) -> "OpenAI":
        return self

    def close(self) -> None:
        pass

    def __enter__(self) -> "OpenAI":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncOpenAI(OpenAI):
    async def close(self) -> None:  # type: ignore[override]
        pass
