"""The phase legend beside the timeline's toolbar: a swatch (filled as the bars are, hatched
for waiting) and the name of each phase the plan shows. All the phases are in its tooltip; a
legend of every phase would not fit beside the toolbar."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.i18n import tr

from .gantt import LEGEND_PHASES, PHASE_COLORS, is_waiting, phase_brush, phase_key

SWATCH, GAP, SPACING = 10, 4, 12  # pixels: swatch side, swatch to text, between entries


def legend_keys(result) -> list[str]:
    """The phase keys a prediction's bars use, in the legend's order (unknown ones last)."""
    seen = {phase_key(ph.name) for op in (result.operations if result is not None else ()) for ph in op.phases}
    seen.discard("")
    return [k for k in LEGEND_PHASES if k in seen] + sorted(seen.difference(LEGEND_PHASES))


class PhaseLegend(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.keys: list[str] = []
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 4)
        waiting = " " + tr("(hatched: waiting)")
        colours = "".join(
            f"<tr><td style='background:{PHASE_COLORS[k]}'>&nbsp;&nbsp;&nbsp;</td>"
            f"<td>&nbsp;{k}{waiting if is_waiting(k) else ''}</td></tr>" for k in LEGEND_PHASES)
        self.setToolTip(tr("<b>Phases</b> of the operations on the timeline") + "<table>" + colours + "</table>")

    def set_keys(self, keys: list[str]) -> None:
        if keys != self.keys:
            self.keys = list(keys)
            self.updateGeometry()  # only when the set of phases changes: a new layout is not free
            self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        fm = self.fontMetrics()
        width = sum(SWATCH + GAP + fm.horizontalAdvance(k) for k in self.keys) + SPACING * max(len(self.keys) - 1, 0)
        return QSize(width + 4, self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def paintEvent(self, _event) -> None:  # noqa: N802
        p = QPainter(self)
        fm = self.fontMetrics()
        x, mid = 2, self.height() / 2
        pen = QPen(QColor(60, 60, 60, 140))
        for k in self.keys:
            p.setPen(pen)
            p.setBrush(phase_brush(k))
            p.drawRect(QRectF(x, mid - SWATCH / 2, SWATCH, SWATCH))
            x += SWATCH + GAP
            p.setPen(self.palette().windowText().color())
            w = fm.horizontalAdvance(k)
            p.drawText(QRectF(x, 0, w + 2, self.height()), Qt.AlignLeft | Qt.AlignVCenter, k)
            x += w + SPACING
