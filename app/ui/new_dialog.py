"""File > New: an empty project on one of the catalog's platforms, or a copy of a shipped example."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout,
)

from app.store.sources import cite
from app.domain.hardware import Catalog
from app.domain.project import Project, ProjectInfo
from app.ui.i18n import tr


def empty_project(catalog: Catalog, platform_id: str) -> Project:
    platform = catalog.platform(platform_id)
    return Project(platform_id, ProjectInfo(title=tr("New {platform}").format(platform=platform.name)), cache=platform.default_cache(),
                   features={k: False for k in platform.features})


class NewProjectDialog(QDialog):
    def __init__(self, catalog: Catalog, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("New project"))
        self.catalog = catalog
        self.resize(520, 440)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(tr("Start from an empty array or from an example:")))
        self.list = QListWidget()
        self.list.setObjectName("choices")
        lay.addWidget(self.list)
        for p in sorted(catalog.platforms.values(), key=lambda p: (p.vendor, p.name)):
            it = QListWidgetItem(tr("Empty {platform}").format(platform=p.name) + (f" ({p.firmware})" if p.firmware else ""))
            it.setData(Qt.UserRole, ("platform", p.id))
            it.setToolTip(p.description or cite(p.source))
            self.list.addItem(it)
        from app.ui.files import examples_dir
        for path in sorted(examples_dir().glob("*.json")):
            it = QListWidgetItem(tr("Example: {name}").format(name=path.stem))
            it.setData(Qt.UserRole, ("example", str(path)))
            self.list.addItem(it)
        self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def choice(self) -> tuple[str, str] | None:
        it = self.list.currentItem()
        return it.data(Qt.UserRole) if it else None

    def project(self) -> Project | None:
        c = self.choice()
        if c is None:
            return None
        kind, key = c
        if kind == "platform":
            return empty_project(self.catalog, key)
        from app.store.project_file import load_project
        return load_project(Path(key))
