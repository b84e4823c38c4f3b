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
            # the firmware in the tooltip: in the entry it doubled the longest names' length
            it = QListWidgetItem(tr("Empty {platform}").format(platform=p.name))
            it.setData(Qt.UserRole, ("platform", p.id))
            it.setToolTip("\n".join(filter(None, (p.firmware, p.description or cite(p.source)))))
            self.list.addItem(it)
        from app.store.examples import example_title
        from app.ui.files import examples_dir
        for path in sorted(examples_dir().glob("*.json")):
            it = QListWidgetItem(tr("Example: {name}").format(name=example_title(path)))
            it.setData(Qt.UserRole, ("example", str(path)))
            it.setToolTip(path.name)
            self.list.addItem(it)
        self.list.setCurrentRow(0)
        self._fit_names()
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _fit_names(self) -> None:
        """Wide enough for the longest entry (they were cut off with "..."), within the screen;
        past that the list scrolls sideways rather than eliding."""
        self.list.setTextElideMode(Qt.ElideNone)
        fm = self.list.fontMetrics()
        widest = max((fm.horizontalAdvance(self.list.item(i).text()) for i in range(self.list.count())), default=0)
        want = widest + 2 * self.list.frameWidth() + self.list.verticalScrollBar().sizeHint().width() + 40
        screen = self.screen()
        room = screen.availableGeometry().width() - 80 if screen is not None else want
        self.resize(max(520, min(want, room)), 440)

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
