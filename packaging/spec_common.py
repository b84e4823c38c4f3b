"""Shared settings and helpers for the per-OS PyInstaller specs (packaging/<os>/arrayplanner.spec).

Everything that must agree between the bundle, the installers and the CI lives here: the version
(read from pyproject.toml, the one version source), names, the .arrayplan file type, icon paths,
what is left out of the bundle. The specs import this module; packaging/build.py,
packaging/macos/make_dmg.sh (via `python spec_common.py info`) and tests/test_packaging_consistency.py
read it too.

This module must import without PyInstaller (the consistency test and the Inno Setup defines use it);
the helpers that need PyInstaller import it inside the function.
"""
from __future__ import annotations

import fnmatch
import functools
import os
import re
import sys
import tomllib
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"

# ------------------------------------------------------------------ identity

APP_NAME = "ArrayPlanner"              # GUI executable, .app bundle, Start menu entry
CLI_NAME = "arrayplanner"              # console command (Linux file name; see cli_executable())
PUBLISHER = "ArrayPlanner project"
BUNDLE_ID = "com.arrayplanner.ArrayPlanner"
DESCRIPTION = "What-if planner for storage array operations"
COPYRIGHT = "Copyright (c) 2026 ArrayPlanner project"
FILE_EXT = ".arrayplan"
FILE_TYPE_NAME = "ArrayPlanner project"
FILE_PROGID = "ArrayPlanner.Project"   # Windows registry ProgID
FILE_UTI = "com.arrayplanner.project"  # macOS exported Uniform Type Identifier
FILE_MIME = "application/x-arrayplanner-project"
# Inno Setup AppId: a fixed GUID so that upgrades replace the installed version (never change it).
WINDOWS_APP_ID = "{{7C3A9E52-4B1D-4E8F-9A61-2D5B8F3C0E17}"

ICON_SVG = ROOT / "resources" / "icons" / "app.svg"
ICON_PNG = ROOT / "resources" / "icons" / "app.png"
ICON_ICO = ROOT / "resources" / "icons" / "app.ico"
ICON_ICNS = ROOT / "resources" / "icons" / "app.icns"

ENTRY_SCRIPT = PACKAGING / "arrayplanner_entry.py"


def read_version(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """[project].version from pyproject.toml: the single version source."""
    with pyproject.open("rb") as fh:
        return tomllib.load(fh)["project"]["version"]


def version_tuple(version: str | None = None) -> tuple[int, int, int, int]:
    """Four numbers for the Windows version resource ("1.2.3rc1" -> (1, 2, 3, 0))."""
    version = version or read_version()
    m = re.match(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?", version)
    if not m:
        raise ValueError(f"version {version!r} does not start with a number")
    nums = [int(g) if g else 0 for g in m.groups()]
    return (nums[0], nums[1], nums[2], 0)


def cli_executable(platform: str = sys.platform) -> str:
    """File name of the console command inside the bundle folder.

    Linux: `arrayplanner` next to the `ArrayPlanner` GUI. Windows: `arrayplanner.com` next to the
    windowed `ArrayPlanner.exe` (the Inkscape/devenv trick: typing `arrayplanner` finds .COM before
    .EXE in PATHEXT, and file names are case-insensitive so `arrayplanner.exe` would collide).
    macOS: `arrayplanner-cli` in ArrayPlanner.app/Contents/MacOS (APFS is case-insensitive too).
    """
    if platform.startswith("win"):
        return CLI_NAME + ".com"
    if platform == "darwin":
        return CLI_NAME + "-cli"
    return CLI_NAME


def gui_executable(platform: str = sys.platform) -> str:
    return APP_NAME + (".exe" if platform.startswith("win") else "")


# ------------------------------------------------------------------ what goes in

def datas() -> list[tuple[str, str]]:
    """(source, destination folder) pairs. presets/ lands in <bundle>/_internal/presets, which
    is sys._MEIPASS/presets: where app.store.presets.builtin_presets_dir() looks when frozen."""
    pairs = [(str(ROOT / "presets"), "presets"), (str(ROOT / "resources"), "resources")]
    return [(src, dst) for src, dst in pairs if Path(src).is_dir()]


def app_data_files() -> list[tuple[str, str]]:
    """Non-Python files inside the app package (templates, stylesheets...), if any."""
    out = []
    for path in sorted((ROOT / "app").rglob("*")):
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts:
            out.append((str(path), str(path.parent.relative_to(ROOT))))
    return out


def hidden_imports() -> list[str]:
    """Every module of the app package: the main window loads its plug-ins by name
    (app.ui.main_window.PLUGINS, importlib), which PyInstaller's import scan cannot see."""
    mods = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(p.startswith("test") for p in parts[1:]):
            continue
        mods.append(".".join(parts))
    return mods


NATIVE_DIR = ROOT / "build" / "native"


@functools.cache
def _native_module():
    """app/engine/native.py by path (stdlib only; importing app.engine would load the engine)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_arrayplanner_native", ROOT / "app" / "engine" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def native_problem(build_dir: Path = NATIVE_DIR) -> str | None:
    """Why the compiled engine in build/native cannot go into the bundle (None when it can: it
    exists and matches the sources and this interpreter). packaging/build.py builds it first."""
    if not build_dir.is_dir():
        return "no native build"
    return _native_module().stamp_problem(build_dir)


def native_files(build_dir: Path = NATIVE_DIR) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(binaries, datas) of the compiled engine, or two empty lists (with a printed warning) when
    build/native is not fresh: the bundle then runs the Python engine. The files land in
    _internal/native/ (sys._MEIPASS/native), where app/engine/native.py looks when frozen; the
    extension modules go as binaries, so that they are signed and placed like any other on macOS.
    A frozen app has no sources to hash: the stamp is checked here, when the bundle is made."""
    problem = native_problem(build_dir)
    if problem is not None:
        print(f"WARNING: the bundle gets the pure-Python engine: {problem} "
              "(scripts/build_native.py builds the compiled one)")
        return [], []
    stamp = _native_module().STAMP_NAME
    binaries = [(str(p), str(Path("native", p.parent.relative_to(build_dir))))
                for p in sorted(build_dir.rglob("*")) if p.is_file() and p.name != stamp]
    return binaries, [(str(build_dir / stamp), "native")]


def analysis_kwargs() -> dict:
    """Arguments of Analysis(...), the same on every OS."""
    native_binaries, native_datas = native_files()
    return dict(
        scripts=[str(ENTRY_SCRIPT)],
        pathex=[str(ROOT)],
        binaries=native_binaries,
        datas=datas() + app_data_files() + native_datas,
        hiddenimports=hidden_imports(),
        excludes=excludes(),
        # Modules as plain .pyc files in _internal/ instead of a zlib-compressed archive inside
        # each executable: imports go through Python's own file finder (measured with
        # benchmarks/startup.py, 20 interleaved launches: median 1.22 s against 1.47 s to the
        # first window), and the GUI and the CLI share one copy instead of embedding two.
        noarchive=True,
    )


# Qt for Python modules the app does not use. A module the app's sources do import is never
# excluded (qt_modules_used_by_app() scans them), so a new `from PySide6 import QtNetwork` in app/
# keeps working in the bundle. pyqtgraph tries QtTest and copes without it; it imports QtOpenGL and
# QtOpenGLWidgets unconditionally (Qt/OpenGLHelpers.py), so those two stay.
QT_EXCLUDE_CANDIDATES = (
    "QtNetwork", "QtQml", "QtQuick", "QtQuickWidgets", "QtQuickControls2", "QtQuickTest",
    "QtQuick3D", "QtTest", "QtSql", "QtDBus", "QtDesigner",
    "QtHelp", "QtUiTools", "QtXml", "QtConcurrent", "QtLabsStyleKit", "QtQmlFeatures",
    "Qt3DCore", "Qt3DRender", "Qt3DInput", "Qt3DLogic", "Qt3DAnimation", "Qt3DExtras",
    "QtWebEngineCore", "QtWebEngineWidgets", "QtWebEngineQuick", "QtWebChannel", "QtWebSockets",
    "QtMultimedia", "QtMultimediaWidgets", "QtSpatialAudio", "QtTextToSpeech", "QtPdf",
    "QtPdfWidgets", "QtCharts", "QtDataVisualization", "QtGraphs", "QtGraphsWidgets",
    "QtBluetooth", "QtNfc", "QtPositioning", "QtLocation", "QtSensors", "QtSerialPort",
    "QtSerialBus", "QtRemoteObjects", "QtScxml", "QtStateMachine", "QtHttpServer",
    "QtNetworkAuth", "QtAxContainer",
)

# Python packages never wanted in the bundle (dev tools, GUI toolkits, optional pyqtgraph backends).
PY_EXCLUDES = (
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "lib2to3", "pydoc_data", "test",
    "distutils", "setuptools", "pkg_resources", "pip", "wheel", "ensurepip", "venv",
    "pytest", "_pytest", "pytestqt", "pluggy", "iniconfig", "pygments", "IPython", "jupyter_client",
    "ipykernel", "matplotlib", "h5py", "numba", "cupy", "OpenGL", "colorcet", "pandas",
    "PIL", "PyQt5", "PyQt6", "PySide2",
    "numpy.f2py", "numpy.distutils", "numpy.testing._private.extbuild",
    "pyqtgraph.examples", "pyqtgraph.opengl", "pyqtgraph.jupyter", "pyqtgraph.canvas",
    "pyqtgraph.flowchart", "pyqtgraph.console",
    # scipy: the app uses scipy.optimize.least_squares only (app/service/calibrate.py), which
    # imports scipy.linalg, sparse, special, spatial, fft and constants; the rest stays out
    "scipy.stats", "scipy.signal", "scipy.ndimage", "scipy.io", "scipy.cluster", "scipy.odr",
    "scipy.integrate", "scipy.interpolate", "scipy.datasets", "scipy.misc",
)  # (pyqtgraph.util.cupy_helper/numba_helper must stay: imported always, they cope without cupy/numba)

_QT_IMPORT = re.compile(r"PySide6\.(Qt\w+)|from\s+PySide6\s+import\s+\(?([\w\s,]+)\)?")


def qt_modules_used_by_app() -> set[str]:
    used: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for m in _QT_IMPORT.finditer(path.read_text(encoding="utf-8", errors="replace")):
            if m.group(1):
                used.add(m.group(1))
            else:
                used.update(n.strip() for n in m.group(2).split(",") if n.strip().startswith("Qt"))
    return used


def excludes() -> list[str]:
    used = qt_modules_used_by_app()
    return [f"PySide6.{m}" for m in QT_EXCLUDE_CANDIDATES if m not in used] + list(PY_EXCLUDES)


# ------------------------------------------------------------------ trimming Qt's plugins and files

# Plugin folders kept (per OS), as fnmatch patterns on "<folder>/<file>"; every other plugin goes.
_PLUGINS_ALL = ["iconengines/*svg*", "imageformats/*svg*", "printsupport/*"]
PLUGINS_KEEP = {
    "linux": _PLUGINS_ALL + [
        "platforms/libqxcb.so", "platforms/libqoffscreen.so", "platforms/libqminimal.so",
        "platforms/libqwayland*.so", "xcbglintegrations/*",
        "wayland-shell-integration/libxdg-shell.so", "wayland-decoration-client/*",
        "wayland-graphics-integration-client/libqt-plugin-wayland-egl.so",
        "wayland-graphics-integration-client/libshm-emulation-server.so",
        "platformthemes/libqxdgdesktopportal.so",
        "platforminputcontexts/libcomposeplatforminputcontextplugin.so",
        "platforminputcontexts/libibusplatforminputcontextplugin.so",
    ],
    "win32": _PLUGINS_ALL + ["platforms/qwindows*.dll", "platforms/qoffscreen*.dll",
                             "platforms/qminimal*.dll", "styles/*"],
    "darwin": _PLUGINS_ALL + ["platforms/libqcocoa.dylib", "platforms/libqoffscreen.dylib",
                              "platforms/libqminimal.dylib", "styles/*"],
}


def _os_key() -> str:
    if sys.platform.startswith("win"):
        return "win32"
    return "darwin" if sys.platform == "darwin" else "linux"


def _drop_entry(dest: str, os_key: str) -> str | None:
    """Why a bundle entry (destination path) is left out, or None to keep it."""
    p = PurePosixPath(dest.replace("\\", "/"))
    parts = p.parts
    if "translations" in parts and any(x.startswith("Qt") for x in parts):
        return "translations"  # the UI is English only; Qt's own strings are English too
    if "plugins" in parts:
        i = parts.index("plugins")
        rel = "/".join(parts[i + 1:])
        if len(parts) - i > 2 and not any(fnmatch.fnmatch(rel, pat) for pat in PLUGINS_KEEP[os_key]):
            return "plugin"
    if parts[:1] == ("PySide6",) and len(parts) >= 2 and parts[1] in (
            "include", "typesystems", "glue", "scripts", "support", "doc", "metatypes"):
        return "dev files"
    if p.suffix == ".pyi":
        return "stubs"
    return None


# case-insensitive: a PE import table may spell a DLL QT6CORE.DLL
_QT_LIB = re.compile(r"^(lib)?Qt6?(?P<mod>[A-Za-z0-9]+)(\.so(\.\d+)*|\.dll|\.dylib)?$", re.I)


def _qt_lib_name(dest: str) -> str | None:
    """'PySide6/Qt/lib/libQt6Quick.so.6' -> 'Quick'; mac frameworks 'QtQuick.framework/...'
    -> 'Quick'; not a Qt library -> None."""
    p = PurePosixPath(dest.replace("\\", "/"))
    for part in p.parts:
        if part.endswith(".framework"):
            m = _QT_LIB.match(part[: -len(".framework")])
            return m.group("mod") if m else None
    m = _QT_LIB.match(p.name)
    return m.group("mod") if m else None


def trim(analysis, report: list[str] | None = None) -> None:
    """Trim an Analysis in place: drop unused Qt plugins, translations, Qt dev files, then the
    libraries that nothing kept links to."""
    from PyInstaller.depend import bindepend

    os_key = _os_key()
    report = report if report is not None else []
    dropped: dict[str, int] = {}

    def keep(toc):
        out = []
        for entry in toc:
            why = _drop_entry(entry[0], os_key)
            if why:
                dropped[why] = dropped.get(why, 0) + 1
            else:
                out.append(entry)
        return out

    analysis.binaries = keep(analysis.binaries)
    analysis.datas = keep(analysis.datas)

    # Which libraries are still linked by what remains? Roots are the Python extension modules,
    # the Python library and the kept plugins (all loaded at run time); the closure of their
    # link-time imports is what must stay. On Linux every other library is pruned (dependencies
    # of dropped plugins, e.g. GTK for the gtk3 theme); elsewhere only Qt libraries, the part
    # that can be checked here.
    def prunable(dest: str, kind: str) -> bool:
        d = dest.replace("\\", "/")
        if kind != "BINARY" or "/plugins/" in d or d.startswith("native/"):  # (the compiled engine: loaded at run time)
            return False
        if os_key == "linux":
            return not PurePosixPath(d).name.startswith("libpython")
        return _qt_lib_name(d) is not None

    def key(dest_or_name: str) -> str:
        name = PurePosixPath(dest_or_name.replace("\\", "/")).name
        mod = _qt_lib_name(dest_or_name)
        return ("qt:" + mod.lower()) if mod else name.lower()

    by_key: dict[str, list[tuple[str, str]]] = {}
    for dest, src, kind in analysis.binaries:
        if prunable(dest, kind):
            by_key.setdefault(key(dest), []).append((dest, src))
    queue = [src for dest, src, kind in analysis.binaries if not prunable(dest, kind)]
    seen: set[str] = set()
    needed: set[str] = set()
    while queue:
        src = queue.pop()
        if src in seen or not os.path.exists(src):
            continue
        seen.add(src)
        try:
            imports = bindepend.get_imports(src)
        except Exception as exc:  # an unreadable binary: keep everything rather than guess
            report.append(f"trim: cannot read imports of {src}: {exc}; no libraries pruned")
            needed = set(by_key)
            break
        for name, _full in imports:
            k = key(name)
            if k in by_key and k not in needed:
                needed.add(k)
                queue.extend(src2 for _d, src2 in by_key[k])
    unused = set(by_key) - needed
    if unused:
        gone = {d for k in unused for d, _s in by_key[k]}
        analysis.binaries = [e for e in analysis.binaries if e[0] not in gone]
        # macOS frameworks also carry data (Resources/Info.plist): drop those with their library
        analysis.datas = [e for e in analysis.datas
                          if not (_qt_lib_name(e[0]) and "qt:" + _qt_lib_name(e[0]).lower() in unused)]
        dropped["unlinked libraries"] = len(gone)
    report.append("trim: left out " + ", ".join(f"{n} {why}" for why, n in sorted(dropped.items())))
    if unused:
        report.append("trim: unlinked libraries: " + ", ".join(sorted(unused)))


def _elf_has_debug_info(path: Path) -> bool:
    """True for an ELF file with a .debug_info section (64/32-bit, little/big endian)."""
    import struct

    try:
        with path.open("rb") as fh:
            ident = fh.read(16)
            if ident[:4] != b"\x7fELF":
                return False
            is64, end = ident[4] == 2, "<" if ident[5] == 1 else ">"
            if is64:
                fh.seek(0x28)
                shoff, = struct.unpack(end + "Q", fh.read(8))
                fh.seek(0x3A)
            else:
                fh.seek(0x20)
                shoff, = struct.unpack(end + "I", fh.read(4))
                fh.seek(0x2E)
            shentsize, shnum, shstrndx = struct.unpack(end + "HHH", fh.read(6))
            if not shoff or not shnum or shstrndx >= shnum:
                return False
            fh.seek(shoff)
            table = fh.read(shentsize * shnum)
            fmt = end + ("IIQQQQIIQQ" if is64 else "IIIIIIIIII")
            headers = [struct.unpack_from(fmt, table, i * shentsize) for i in range(shnum)]
            strtab = headers[shstrndx]
            fh.seek(strtab[4])
            names = fh.read(strtab[5])
            return any(names[h[0]:names.find(b"\0", h[0])] == b".debug_info" for h in headers)
    except (OSError, struct.error, IndexError):
        return False


def strip_debug_info(bundle: Path, report: list[str] | None = None) -> int:
    """`strip --strip-debug` the ELF files that carry debug information (a self-built Python's
    libpython and lib-dynload modules: about 30 MB). Not PyInstaller's strip=True, which strips
    every library and corrupts wheels' auditwheel-patched ones (numpy's OpenBLAS then fails
    with "ELF load command address/offset not page-aligned"). Returns the bytes saved."""
    import shutil
    import subprocess

    strip = shutil.which("strip")
    if not strip or _os_key() != "linux":
        return 0
    saved = 0
    for path in sorted(bundle.rglob("*")):
        if path.is_file() and not path.is_symlink() and _elf_has_debug_info(path):
            before = path.stat().st_size
            if subprocess.run([strip, "--strip-debug", str(path)]).returncode == 0:
                saved += before - path.stat().st_size
    if report is not None:
        report.append(f"strip: removed {saved / 1e6:.1f} MB of debug information")
    return saved


def add_linux_desktop_files(bundle: Path) -> None:
    """Linux: install.sh and the freedesktop.org files it installs (menu entry, .arrayplan MIME
    type, icons) at the top of the bundle folder, so the .tar.gz is self-contained."""
    import shutil

    linux = PACKAGING / "linux"
    targets = {
        linux / "install.sh": bundle / "install.sh",
        linux / "arrayplanner.desktop": bundle / "share" / "applications" / "arrayplanner.desktop",
        linux / "arrayplanner-mime.xml": bundle / "share" / "mime" / "packages" / "arrayplanner.xml",
        ICON_PNG: bundle / "share" / "icons" / "arrayplanner.png",
        ICON_SVG: bundle / "share" / "icons" / "arrayplanner.svg",
    }
    for src, dst in targets.items():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


# ------------------------------------------------------------------ Windows version resource

def write_windows_version_file(path: Path, exe_name: str, description: str) -> Path:
    """The VSVersionInfo text PyInstaller reads (EXE(version=...)), generated from pyproject's
    version at build time."""
    version = read_version()
    vt = version_tuple(version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"""# Generated by packaging/spec_common.py from pyproject.toml version {version}; do not edit.
VSVersionInfo(
  ffi=FixedFileInfo(filevers={vt}, prodvers={vt}, mask=0x3f, flags=0x0, OS=0x40004,
                    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
      StringStruct('CompanyName', {PUBLISHER!r}),
      StringStruct('FileDescription', {description!r}),
      StringStruct('FileVersion', {version!r}),
      StringStruct('InternalName', {exe_name.rsplit('.', 1)[0]!r}),
      StringStruct('LegalCopyright', {COPYRIGHT!r}),
      StringStruct('OriginalFilename', {exe_name!r}),
      StringStruct('ProductName', {APP_NAME!r}),
      StringStruct('ProductVersion', {version!r})])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
""", encoding="utf-8")
    return path


# ------------------------------------------------------------------ macOS Info.plist

def mac_info_plist(version: str | None = None) -> dict:
    """Entries merged into the .app's Info.plist by BUNDLE(info_plist=...)."""
    version = version or read_version()
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "NSHumanReadableCopyright": COPYRIGHT,
        "NSHighResolutionCapable": True,
        "NSPrincipalClass": "NSApplication",
        "LSMinimumSystemVersion": "13.0",  # Qt 6.10+ supports macOS 13 or later
        "LSApplicationCategoryType": "public.app-category.business",
        "CFBundleDocumentTypes": [{
            "CFBundleTypeName": FILE_TYPE_NAME,
            "CFBundleTypeRole": "Editor",
            "CFBundleTypeIconFile": ICON_ICNS.name,
            "LSHandlerRank": "Owner",
            "LSItemContentTypes": [FILE_UTI],
        }],
        "UTExportedTypeDeclarations": [{
            "UTTypeIdentifier": FILE_UTI,
            "UTTypeDescription": FILE_TYPE_NAME,
            "UTTypeIconFile": ICON_ICNS.name,
            "UTTypeConformsTo": ["public.data", "public.database"],
            "UTTypeTagSpecification": {
                "public.filename-extension": [FILE_EXT.lstrip(".")],
                "public.mime-type": [FILE_MIME],
            },
        }],
    }


# ------------------------------------------------------------------ command line: facts for scripts

def _info() -> dict[str, str]:
    return {
        "version": read_version(), "app_name": APP_NAME, "cli_name": CLI_NAME,
        "bundle_id": BUNDLE_ID, "file_ext": FILE_EXT, "progid": FILE_PROGID, "uti": FILE_UTI,
        "publisher": PUBLISHER, "app_id": WINDOWS_APP_ID,
        "cli_exe": cli_executable(), "gui_exe": gui_executable(),
    }


if __name__ == "__main__":
    # `python packaging/spec_common.py version` prints one fact; `... iss-defines` prints the
    # /D options for the Inno Setup compiler (iscc).
    what = sys.argv[1] if len(sys.argv) > 1 else "info"
    info = _info()
    if what == "info":
        for k, v in info.items():
            print(f"{k}={v}")
    elif what == "iss-defines":  # one per line (PowerShell reads them into an array)
        print(f'/DAppVersion={info["version"]}')
        print("/DAppVersionNumeric=" + ".".join(str(n) for n in version_tuple(info["version"])))
    elif what in info:
        print(info[what])
    else:
        raise SystemExit(f"unknown fact {what!r}; one of: info, iss-defines, {', '.join(info)}")
