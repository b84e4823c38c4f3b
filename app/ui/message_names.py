"""Names instead of ids in the Messages dock: "op3" and "w1" are the file's identifiers, not
words a user reads. The Object column names an operation as the timeline does ("Migrate LUN 18
-> LUN 19"), a workload by its name and a RAID group in the platform's word; ids in a message's
text are replaced by the same names. Clicking a message still selects by the id (MessageRow.ref)."""
from __future__ import annotations

import re
from typing import Any

from app.domain.edits import parse_ref
from app.domain.project import describe_event
from app.ui.i18n import tr
from app.ui.terms import group_title, platform_of

# what an id with a digit looks like ("op3", "rp1", "w12"): looked up, then named (a plan of
# 100,000 events is not described whole for every refresh, only the ids the texts hold)
_ID = re.compile(r"(?<![\w.-])[A-Za-z][\w]*\d[\w]*(?![\w-])")


class MessageNames:
    """The names of one project state (made per refresh: names change with edits)."""

    def __init__(self, document: Any):
        self.document = document
        self.platform = platform_of(document)
        self._project = document.project
        self.workloads = {w.id: w.name or w.id for w in document.view.workloads}
        self._events: dict[str | None, dict[str, Any]] = {}
        self._described: dict[tuple[str | None, str], str | None] = {}
        words = sorted((i for i, n in self.workloads.items() if n != i and not any(c.isdigit() for c in i)),
                       key=len, reverse=True)
        # a workload id that is a word ("random") is replaced only after "workload "
        self._words = (re.compile(r"(?<=workload )(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])")
                       if words else None)

    def event_name(self, scenario: str | None, event_id: str) -> str | None:
        """How the timeline names the event (None: no such event in that scenario)."""
        key = (scenario, event_id)
        if key not in self._described:
            if scenario not in self._events:
                try:
                    self._events[scenario] = {e.id: e for e in self._project.scenario(scenario).events}
                except KeyError:
                    self._events[scenario] = {}
            ev = self._events[scenario].get(event_id)
            self._described[key] = describe_event(ev, self.platform) if ev is not None else None
        return self._described[key]

    def object_text(self, where: str, scenario: str | None) -> str:
        kind, key = parse_ref(where)
        if kind == "event":
            return self.event_name(scenario, key) or where
        if kind == "workload":
            return tr("workload {name}").format(name=self.workloads.get(key, key))
        if kind == "group":
            return group_title(self.document, key)
        return where

    def message_text(self, text: str, scenario: str | None) -> str:
        """`text` with the ids of events (of `scenario`) and workloads written as their names."""
        def named(m: re.Match) -> str:
            word = m.group(0)
            return self.event_name(scenario, word) or self.workloads.get(word, word)

        text = _ID.sub(named, text)
        if self._words is not None:
            text = self._words.sub(lambda m: self.workloads[m.group(0)], text)
        return text
