"""Names instead of ids in the texts a user reads (issue 23): validation and the engine write
their messages with the project's identifiers ("RG 3", "op1", "w1"), which the user never typed
and a Dell customer does not call a "RG" at all. `ObjectNames.text` rewrites those identifiers as
the objects' names: a RAID group by its name or the platform's noun ("Disk Group 3"), an event as
the timeline describes it ("Migrate LUN 18 -> LUN 19"), a workload by its name. The Messages
dock, the status bar, the timeline's tooltips, the report and the CLI all pass texts through it;
an object's reference (Issue.where, Advisory.where) keeps the id, since selection needs it."""
from __future__ import annotations

import re
from typing import Any

from app.domain import hardware
from app.domain.project import describe_event

# what an id with a digit looks like ("op3", "rp1", "w12"): looked up, then named (a plan of
# 100,000 events is not described whole for every refresh, only the ids the texts hold)
_ID = re.compile(r"(?<![\w.-])[A-Za-z][\w]*\d[\w]*(?![\w-])")
# validation's and the engine's reference to a RAID group ("RG 3"); not "RG 3.5" nor "ERG 3"
GROUP_REF = re.compile(r"(?<![\w-])RG (\d+)(?![\w.])")
# what a user-visible text must no longer hold once named (tests/test_user_names.py)
RAW_ID = re.compile(r"(?<![\w-])(?:RG \d+|op\d+|w\d+)(?![\w-])")


class ObjectNames:
    """The names of one project state (made per refresh: names change with edits)."""

    def __init__(self, project: Any, platform: "hardware.Platform | None" = None):
        self.project = project
        self.platform = platform
        self.workloads = {w.id: _text(w.name) or w.id for w in project.workloads}
        self._group_names = {g.id: _text(g.name) for g in project.groups}
        self._group_ref = GROUP_REF
        self._protect_group_names()
        self._events: dict[str | None, dict[str, Any]] = {}
        self._described: dict[tuple[str | None, str], str | None] = {}
        words = sorted((i for i, n in self.workloads.items() if n != i and not any(c.isdigit() for c in i)),
                       key=len, reverse=True)
        # a workload id that is a word ("random") is replaced only after "workload "
        self._words = (re.compile(r"(?<=workload )(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])")
                       if words else None)

    def _protect_group_names(self) -> None:
        """A name the user gave that itself reads "RG 5 old" is kept as typed, never renamed."""
        typed = sorted({n for n in self._group_names.values() if n and GROUP_REF.search(n)}, key=len, reverse=True)
        self._group_ref = (re.compile("(?:" + "|".join(map(re.escape, typed)) + ")|" + GROUP_REF.pattern)
                           if typed else GROUP_REF)

    def groups_in(self, text: str) -> str:
        """`text` with only its RAID group references ("RG 3") named: for texts that show event
        ids on purpose (the report's operation table) or were built from names already."""
        if not text or "RG " not in text:
            return text
        return self._group_ref.sub(lambda m: self.group(int(m.group(1))) if m.group(1) else m.group(0), text)

    def group(self, group_id: int) -> str:
        """ "Disk Group 3", or the group's own name."""
        return hardware.group_title(self.platform, group_id, self._group_names.get(group_id, ""))

    def event_name(self, scenario: str | None, event_id: str) -> str | None:
        """How the timeline names the event (None: no such event in that scenario)."""
        key = (scenario, event_id)
        if key not in self._described:
            if scenario not in self._events:
                try:
                    self._events[scenario] = {e.id: e for e in self.project.scenario(scenario).events}
                except KeyError:
                    self._events[scenario] = {}
            ev = self._events[scenario].get(event_id)
            self._described[key] = describe_event(ev, self.platform) if ev is not None else None
        return self._described[key]

    def text(self, text: str, scenario: str | None = None) -> str:
        """`text` with the ids of RAID groups, events (of `scenario`) and workloads as names."""
        if not text:
            return text

        def named(m: re.Match) -> str:
            word = m.group(0)
            return self.event_name(scenario, word) or self.workloads.get(word, word)

        text = _ID.sub(named, text)
        if self._words is not None:
            text = self._words.sub(lambda m: self.workloads[m.group(0)], text)
        return self.groups_in(text)

    def issue_line(self, issue: Any) -> str:
        """A validation Issue's one line (Issue.line) in names."""
        return self.text(issue.line, getattr(issue, "scenario", None))


def _text(name: str | None) -> str:
    """A name fit to show in place of an id: a name that is not text (a lone surrogate from a JSON
    escape, which validation reports) would hide which object the message is about."""
    if not name:
        return ""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return ""
    return name


def names_for(project: Any, catalog: Any = None) -> ObjectNames:
    """ObjectNames with the project's platform from `catalog` (None: the generic "RAID group")."""
    platforms = getattr(catalog, "platforms", None) or {}
    return ObjectNames(project, platforms.get(project.platform_id))
