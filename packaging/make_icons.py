"""Generate the application icons from resources/icons/app.svg.

    uv run --no-project --python .venv/bin/python --with pillow python packaging/make_icons.py

writes, next to the SVG:
    app.png   256x256 (window icon, Linux desktop file)
    app.ico   16..256 px (Windows: executables, installer, .arrayplan file type)
    app.icns  16..1024 px (macOS: .app bundle and .arrayplan document icon)

The SVG is rendered with Qt (QtSvg, already a dependency); the .ico and .icns containers are
written with Pillow. Without Pillow the script falls back to its own minimal writers (PNG-compressed
entries, which Windows Vista+ and macOS 10.7+ read), so it also works from a bare venv. The outputs
are committed (about 100 kB together); rerun the script after editing the SVG.

On a Mac, `--iconset` additionally writes app.iconset/ so the .icns can be rebuilt with Apple's
tool instead: `iconutil -c icns resources/icons/app.iconset -o resources/icons/app.icns`.
"""
from __future__ import annotations

import argparse
import io
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICON_DIR = ROOT / "resources" / "icons"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size (the @2x types share sizes with larger ones).
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
              (b"ic14", 512))
ICONSET = ((16, "16x16"), (32, "16x16@2x"), (32, "32x32"), (64, "32x32@2x"), (128, "128x128"),
           (256, "128x128@2x"), (256, "256x256"), (512, "256x256@2x"), (512, "512x512"),
           (1024, "512x512@2x"))


def render_pngs(svg: Path, sizes: set[int]) -> dict[int, bytes]:
    """Render the SVG at each size with Qt; returns PNG bytes by size."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (fonts, image plugins)
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    out: dict[int, bytes] = {}
    for size in sorted(sizes):
        img = QImage(size, size, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "PNG")
        buf.close()
        out[size] = bytes(data)
    return out


def write_ico(path: Path, pngs: dict[int, bytes]) -> str:
    try:
        from PIL import Image
    except ImportError:
        entries = [(s, pngs[s]) for s in ICO_SIZES]
        header = struct.pack("<HHH", 0, 1, len(entries))
        offset = 6 + 16 * len(entries)
        directory, payload = b"", b""
        for size, data in entries:
            dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
            directory += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset + len(payload))
            payload += data
        path.write_bytes(header + directory + payload)
        return "built-in writer"
    images = {s: Image.open(io.BytesIO(pngs[s])).convert("RGBA") for s in ICO_SIZES}
    largest = images[max(ICO_SIZES)]
    largest.save(path, format="ICO", sizes=[(s, s) for s in ICO_SIZES],
                 append_images=[images[s] for s in ICO_SIZES if s != max(ICO_SIZES)])
    return "Pillow"


def write_icns(path: Path, pngs: dict[int, bytes]) -> str:
    try:
        from PIL import Image
    except ImportError:
        body = b""
        for kind, size in ICNS_TYPES:
            body += kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
        path.write_bytes(b"icns" + struct.pack(">I", 8 + len(body)) + body)
        return "built-in writer"
    big = Image.open(io.BytesIO(pngs[1024])).convert("RGBA")
    # Pillow's ICNS writer takes the other sizes from append_images (exact renders, not downscales)
    extra = [Image.open(io.BytesIO(pngs[s])).convert("RGBA") for s in (16, 32, 64, 128, 256, 512)]
    big.save(path, format="ICNS", append_images=extra)
    return "Pillow"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--svg", type=Path, default=ICON_DIR / "app.svg")
    ap.add_argument("--out", type=Path, default=ICON_DIR)
    ap.add_argument("--iconset", action="store_true", help="also write app.iconset/ for iconutil")
    args = ap.parse_args(argv)
    sizes = set(ICO_SIZES) | {s for _, s in ICNS_TYPES} | {s for s, _ in ICONSET}
    pngs = render_pngs(args.svg, sizes)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "app.png").write_bytes(pngs[256])
    how_ico = write_ico(args.out / "app.ico", pngs)
    how_icns = write_icns(args.out / "app.icns", pngs)
    if args.iconset:
        iconset = args.out / "app.iconset"
        iconset.mkdir(exist_ok=True)
        for size, name in ICONSET:
            (iconset / f"icon_{name}.png").write_bytes(pngs[size])
    for name in ("app.png", "app.ico", "app.icns"):
        p = args.out / name
        print(f"{p.relative_to(ROOT) if p.is_relative_to(ROOT) else p}: {p.stat().st_size} bytes")
    print(f"ico: {how_ico}; icns: {how_icns}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
