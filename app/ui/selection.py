"""The window's selection: references to objects, in the same strings validation uses
("drive 0_1_4", "enclosure 0_2", "RG 3", "LUN 12", "workload w1", "op3")."""
from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import QObject, Signal

from app.domain.edits import parse_ref


class Selection(QObject):
    selectionChanged = Signal(list)  # the new list of references

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._refs: list[str] = []

    def refs(self) -> list[str]:
        return list(self._refs)

    def set(self, refs: Iterable[str]) -> None:
        new = list(dict.fromkeys(r for r in refs if r))
        if new != self._refs:
            self._refs = new
            self.selectionChanged.emit(list(new))

    def add(self, ref: str) -> None:
        self.set([*self._refs, ref])

    def clear(self) -> None:
        self.set([])

    def primary(self) -> str | None:
        return self._refs[0] if self._refs else None

    def of_kind(self, kind: str) -> list:
        """The keys of selected objects of one kind: of_kind("drive") -> ["0_0_1", ...]."""
        out = []
        for r in self._refs:
            k, v = parse_ref(r)
            if k == kind:
                out.append(v)
        return out

    def drives(self) -> list[str]:
        return self.of_kind("drive")

    def __contains__(self, ref: str) -> bool:
        return ref in self._refs

    def __len__(self) -> int:
        return len(self._refs)
