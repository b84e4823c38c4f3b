"""Names instead of ids in the Messages dock: "op3" and "w1" are the file's identifiers, not
words a user reads. The Object column names an operation as the timeline does ("Migrate LUN 18
-> LUN 19"), a workload by its name and a RAID group in the platform's word; ids in a message's
text are replaced by the same names (app.domain.user_names, shared with the report and the
CLI). Clicking a message still selects by the id (MessageRow.ref)."""
from __future__ import annotations

from typing import Any

from app.domain.edits import parse_ref
from app.domain.user_names import ObjectNames
from app.ui.i18n import tr
from app.ui.terms import platform_of


class MessageNames(ObjectNames):
    """The names of one project state (made per refresh: names change with edits)."""

    def __init__(self, document: Any):
        self.document = document
        super().__init__(document.project, platform_of(document))
        # the shown names are the view's (a scenario's overlay may rename or add workloads)
        view = document.view
        self.workloads.update({w.id: w.name or w.id for w in view.workloads})
        self._group_names.update({g.id: g.name for g in view.groups})
        self._protect_group_names()

    def object_text(self, where: str, scenario: str | None) -> str:
        kind, key = parse_ref(where)
        if kind == "event":
            return self.event_name(scenario, key) or where
        if kind == "workload":
            return tr("workload {name}").format(name=self.workloads.get(key, key))
        if kind == "group":
            return self.group(key)
        return where

    def message_text(self, text: str, scenario: str | None) -> str:
        """`text` with the ids of groups, events (of `scenario`) and workloads written as their names."""
        return self.text(text, scenario)
