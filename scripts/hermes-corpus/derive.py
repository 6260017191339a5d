#!/usr/bin/env python3
"""Derived builds: a Hermes checkout with one change of a later Hermes applied by us.

No Hermes source after 2026-08-22 can be fetched, but the seed articles describe changes of later
builds exactly enough to make them.  A derived build is the newest upstream source we have with
such a change applied by this script.  It is never a Hermes release: the corpus names it
``derived-<base version>-<change>`` and its manifest says what was changed and by what.

    /usr/bin/python3 scripts/hermes-corpus/derive.py --hermes CHECKOUT --change profile-line-volatile --out DEST

copies CHECKOUT to DEST (which must not exist), applies the change there and prints the diff.
generate.py calls ``derive()`` itself for the derived builds it knows.

The one change so far (``profile-line-volatile``, Hermes of 2026-09-28, the seed article on prompt
tiers: "five lines added, two removed"): the ``Active Hermes profile: ...`` line, which names the
home's paths, leaves the stable tier (or the context tier, after a workspace snapshot) and rides
at the end of the volatile tier, after the other volatile content, so the stable prefix is
byte-identical across profiles and homes.  In ``agent/system_prompt.py`` of 0.20.3
(``build_system_prompt_parts``) the line is appended to ``post_workspace_parts``; the change
appends it to a list of its own and extends the volatile tier with that list after the timestamp
line.  Each edit is anchored on text that must occur exactly once, so the script refuses a source
it was not written for instead of guessing.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple


class Edit(NamedTuple):
    anchor: str  # must occur exactly once in the file
    replacement: str


class Change(NamedTuple):
    file: str
    summary: str
    edits: List[Edit]
    added: int  # lines the change adds and removes (checked on the diff)
    removed: int


# The profile line's two appends (default and named profile) open with these lines in 0.20.3.
_DEFAULT_APPEND = '    if active_profile == "default":\n        post_workspace_parts.append(\n            "Active Hermes profile: default.'
_NAMED_APPEND = '        post_workspace_parts.append(\n            f"Active Hermes profile: {active_profile}.'
_TRAILER_APPEND = "    volatile_parts.append(timestamp_line)\n"

CHANGES: Dict[str, Change] = {
    "profile-line-volatile": Change(
        file="agent/system_prompt.py",
        summary=("The 'Active Hermes profile:' line moves from the stable tier (the context tier after a "
                 "workspace snapshot) to the end of the volatile tier, after the timestamp and identity "
                 "lines (Hermes of 2026-09-28, as the seed article on prompt tiers describes it)."),
        edits=[
            Edit(_DEFAULT_APPEND,
                 '    _profile_line_parts: List[str] = []\n'
                 + _DEFAULT_APPEND.replace("post_workspace_parts.append(", "_profile_line_parts.append(")),
            Edit(_NAMED_APPEND, _NAMED_APPEND.replace("post_workspace_parts.append(", "_profile_line_parts.append(")),
            Edit(_TRAILER_APPEND,
                 _TRAILER_APPEND
                 + "    # The profile line names this home's paths: last, so the stable prefix is the same across profiles and homes.\n"
                 + "    volatile_parts.extend(_profile_line_parts)\n"),
        ],
        added=5,
        removed=2,
    ),
}


def apply_change(checkout: Path, name: str) -> str:
    """Apply change `name` to the checkout in place; return the unified diff."""
    change = CHANGES[name]
    path = checkout / change.file
    before = path.read_text(encoding="utf-8")
    after = before
    for edit in change.edits:
        count = after.count(edit.anchor)
        if count != 1:
            raise SystemExit(f"{change.file}: the text this change edits occurs {count} times, not once; "
                             f"this source is not the one {name} was written for:\n{edit.anchor}")
        after = after.replace(edit.anchor, edit.replacement)
    diff = list(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     f"a/{change.file}", f"b/{change.file}"))
    added = sum(1 for l in diff if l.startswith("+") and not l.startswith("+++"))
    removed = sum(1 for l in diff if l.startswith("-") and not l.startswith("---"))
    if (added, removed) != (change.added, change.removed):
        raise SystemExit(f"{name}: the diff adds {added} and removes {removed} lines, "
                         f"not {change.added} and {change.removed}")
    path.write_text(after, encoding="utf-8")
    return "".join(diff)


def derive(base: Path, dest: Path, name: str) -> str:
    """A copy of checkout `base` at `dest` with change `name` applied; returns the diff."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(base, dest, symlinks=True)
    return apply_change(dest, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hermes", required=True, help="the base checkout (not changed)")
    ap.add_argument("--change", required=True, choices=sorted(CHANGES))
    ap.add_argument("--out", required=True, help="where the derived checkout is written (must not exist)")
    args = ap.parse_args()
    dest = Path(args.out)
    if dest.exists():
        ap.error(f"{dest} exists")
    sys.stdout.write(derive(Path(args.hermes), dest, args.change))


if __name__ == "__main__":
    main()
