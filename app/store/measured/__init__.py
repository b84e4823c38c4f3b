"""Reading measured performance data (Qt-free): the generic CSV, `iostat -x -t` output and
Unisphere/Navisphere Analyzer archive dumps (docs/measured-data.md).

    data = read_measured(path)          # MeasuredData; MeasuredImportError naming the file
    data.skipped                        # "file: line N, column C: why" for each line left out

The format is told from the content (`fmt` forces one). Partial files import what is valid;
a file with no valid interval at all is refused.
"""
from __future__ import annotations

from pathlib import Path

from app.domain.measured import MeasuredData

from ..safe_read import UnreadableFile, read_regular
from . import analyzer, generic, iostat
from .common import MeasuredImportError

# a day of 1-second iostat reports of 20 devices is ~250 MB: refuse anything larger than that
MAX_BYTES = 256 * 1024 * 1024
FORMATS = {"generic-csv": generic, "iostat": iostat, "unisphere-analyzer": analyzer}
# a sample of each format, shipped with the app (packaging: presets/ is bundle data), so a user
# can see what a file looks like and the dialogs can be shown without a customer's data
SAMPLE_FILES = {"unisphere-analyzer": "analyzer-archivedump.csv", "generic-csv": "generic.csv",
                "iostat": "iostat-sysstat12.txt"}


def samples_dir() -> Path:
    """presets/samples/measured: in a checkout, an installed package or a PyInstaller bundle."""
    from app.store.presets import builtin_presets_dir

    return builtin_presets_dir() / "samples" / "measured"


def sample_file(fmt: str = "unisphere-analyzer") -> Path:
    """The shipped sample of format `fmt` (a key of SAMPLE_FILES)."""
    return samples_dir() / SAMPLE_FILES[fmt]


def detect(text: str) -> str | None:
    for fmt in ("unisphere-analyzer", "generic-csv", "iostat"):
        if FORMATS[fmt].looks_like(text):
            return fmt
    return None


def parse_measured(text: str, name: str, fmt: str | None = None) -> MeasuredData:
    """Parse measured data from text (`name` is used in the messages and as the source)."""
    fmt = fmt or detect(text)
    if fmt is None:
        raise MeasuredImportError(
            f"{name}: not a measured-data file this version reads (a generic CSV with timestamp,object_type,"
            f"object,... columns, iostat -x -t output, or a Unisphere Analyzer archive dump CSV)")
    if fmt not in FORMATS:
        raise MeasuredImportError(f"{name}: unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    intervals, skips = FORMATS[fmt].read(text, name)
    if not intervals:
        first = f" (first: {skips.kept[0]})" if skips.kept else ""
        raise MeasuredImportError(f"{name}: no valid interval; {skips.count} lines skipped{first}")
    return MeasuredData(name, fmt, intervals, skips.kept, skips.count)


def read_measured(path: str | Path, fmt: str | None = None) -> MeasuredData:
    path = Path(path)
    try:
        raw = read_regular(path, "measured-data file", MAX_BYTES, "import a shorter period")
    except UnreadableFile as exc:
        raise MeasuredImportError(str(exc)) from None
    except OSError as exc:
        raise MeasuredImportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = raw.decode("cp1252")  # Analyzer on Windows writes the ANSI code page
        except UnicodeDecodeError:
            raise MeasuredImportError(f"{path}: not a text file") from None
    return parse_measured(text, path.name, fmt)


__all__ = ["MeasuredImportError", "read_measured", "parse_measured", "detect", "FORMATS"]
