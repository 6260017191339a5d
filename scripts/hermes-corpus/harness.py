"""Process-wide patches the worker installs BEFORE it imports any Hermes module.

* a network guard: every AF_INET/AF_INET6 connect and every name lookup fails;
* a settable clock: ``time.time`` and ``datetime.now`` read a virtual clock
  that the driver sets before each step (real elapsed seconds are added on top
  so wait loops inside Hermes still terminate);
* seeded ``uuid.uuid4`` so the ids Hermes generates repeat from run to run;
* a pinned ``platform.release()`` so the "Host: Linux (...)" line Hermes
  writes into prompts does not carry the generating machine's kernel.

None of this changes what Hermes does with the values; it only makes them
repeatable and keeps the process offline.
"""

from __future__ import annotations

import argparse as _argparse
import datetime as _dt
import platform as _platform
import random as _random
import socket as _socket
import time as _time
import uuid as _uuid

PINNED_KERNEL_RELEASE = "6.1.0-31-amd64"

# --------------------------------------------------------------------------
# Network guard.


class NetworkBlocked(OSError):
    pass


_real_connect = _socket.socket.connect
_real_connect_ex = _socket.socket.connect_ex


def _is_inet(sock: _socket.socket) -> bool:
    return sock.family in (_socket.AF_INET, _socket.AF_INET6)


def _guard_connect(self, address):  # type: ignore[no-untyped-def]
    if _is_inet(self):
        raise NetworkBlocked(f"network disabled in the corpus generator (connect to {address!r})")
    return _real_connect(self, address)


def _guard_connect_ex(self, address):  # type: ignore[no-untyped-def]
    if _is_inet(self):
        raise NetworkBlocked(f"network disabled in the corpus generator (connect to {address!r})")
    return _real_connect_ex(self, address)


def _guard_lookup(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise NetworkBlocked(f"network disabled in the corpus generator (lookup {args[:1]!r})")


def install_network_guard() -> None:
    _socket.socket.connect = _guard_connect  # type: ignore[method-assign]
    _socket.socket.connect_ex = _guard_connect_ex  # type: ignore[method-assign]
    _socket.create_connection = _guard_lookup  # type: ignore[assignment]
    _socket.getaddrinfo = _guard_lookup  # type: ignore[assignment]
    _socket.gethostbyname = _guard_lookup  # type: ignore[assignment]
    _socket.gethostbyname_ex = _guard_lookup  # type: ignore[assignment]


# --------------------------------------------------------------------------
# Clock.

_real_time = _time.time
_real_monotonic = _time.monotonic
_real_localtime = _time.localtime
_real_gmtime = _time.gmtime
_real_strftime = _time.strftime
_real_ctime = _time.ctime
_RealDateTime = _dt.datetime
_RealDate = _dt.date


class VirtualClock:
    def __init__(self) -> None:
        self._base = _real_time()
        self._mono0 = _real_monotonic()

    def set(self, epoch: float) -> None:
        self._base = float(epoch)
        self._mono0 = _real_monotonic()

    def time(self) -> float:
        return self._base + (_real_monotonic() - self._mono0)


CLOCK = VirtualClock()


class _DateTimeMeta(type):
    def __instancecheck__(cls, obj):  # type: ignore[no-untyped-def]
        return isinstance(obj, _RealDateTime)

    def __subclasscheck__(cls, sub):  # type: ignore[no-untyped-def]
        return issubclass(sub, _RealDateTime)


class FakeDateTime(_RealDateTime, metaclass=_DateTimeMeta):
    @classmethod
    def now(cls, tz=None):  # type: ignore[no-untyped-def,override]
        return cls.fromtimestamp(CLOCK.time(), tz)

    @classmethod
    def utcnow(cls):  # type: ignore[no-untyped-def,override]
        return cls.fromtimestamp(CLOCK.time(), _dt.timezone.utc).replace(tzinfo=None)

    @classmethod
    def today(cls):  # type: ignore[no-untyped-def,override]
        return cls.fromtimestamp(CLOCK.time())


class _DateMeta(type):
    def __instancecheck__(cls, obj):  # type: ignore[no-untyped-def]
        return isinstance(obj, _RealDate)

    def __subclasscheck__(cls, sub):  # type: ignore[no-untyped-def]
        return issubclass(sub, _RealDate)


class FakeDate(_RealDate, metaclass=_DateMeta):
    @classmethod
    def today(cls):  # type: ignore[no-untyped-def,override]
        d = _RealDateTime.fromtimestamp(CLOCK.time())
        return cls(d.year, d.month, d.day)


def install_clock() -> None:
    _time.time = CLOCK.time  # type: ignore[assignment]
    _time.time_ns = lambda: int(CLOCK.time() * 1e9)  # type: ignore[assignment]
    _time.localtime = lambda secs=None: _real_localtime(CLOCK.time() if secs is None else secs)  # type: ignore[assignment]
    _time.gmtime = lambda secs=None: _real_gmtime(CLOCK.time() if secs is None else secs)  # type: ignore[assignment]
    _time.ctime = lambda secs=None: _real_ctime(CLOCK.time() if secs is None else secs)  # type: ignore[assignment]
    _time.strftime = (  # type: ignore[assignment]
        lambda fmt, t=None: _real_strftime(fmt, _real_localtime(CLOCK.time()) if t is None else t))
    _dt.datetime = FakeDateTime  # type: ignore[misc]
    _dt.date = FakeDate  # type: ignore[misc]


# --------------------------------------------------------------------------
# Ids and host.

_RNG = _random.Random(0)


def seed_ids(seed: str) -> None:
    _RNG.seed(seed)

    def uuid4() -> _uuid.UUID:
        return _uuid.UUID(int=_RNG.getrandbits(128), version=4)

    _uuid.uuid4 = uuid4  # type: ignore[assignment]


def pin_host() -> None:
    _platform.release = lambda: PINNED_KERNEL_RELEASE  # type: ignore[assignment]


def install_all(seed: str) -> None:
    install_network_guard()
    install_clock()
    seed_ids(seed)
    pin_host()


def worker_arguments() -> _argparse.Namespace:
    """The command line generate.run_worker gives a worker process (worker.py, measure_worker.py)."""
    p = _argparse.ArgumentParser()
    for flag in ("--hermes", "--root", "--spec", "--result"):
        p.add_argument(flag, required=True)
    return p.parse_args()
