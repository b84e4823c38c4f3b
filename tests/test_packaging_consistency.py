"""The installers, specs, workflows and docs agree with packaging/spec_common.py and pyproject.toml.

Fast: nothing is built. The Windows and macOS installers cannot be built here, so this is what
keeps their version, file association and icon in step with the Linux bundle that is tested.
"""
from __future__ import annotations

import os
import plistlib
import re
import struct
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))
import spec_common as common  # noqa: E402
from workflow_commands import WORKFLOWS, script_calls, shell_scripts  # noqa: E402

ISS = PACKAGING / "windows" / "arrayplanner.iss"


def pyproject_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def iss_defines() -> dict[str, str]:
    return dict(re.findall(r'^#define\s+(\w+)\s+"([^"]*)"', ISS.read_text(encoding="utf-8"), re.M))


# ---------------------------------------------------------------- version

def test_version_comes_from_pyproject():
    from app._version import VERSION

    assert common.read_version() == pyproject_version() == VERSION


def test_version_tuple():
    assert common.version_tuple("1.2.3") == (1, 2, 3, 0)
    assert common.version_tuple("0.4") == (0, 4, 0, 0)
    assert common.version_tuple("2.0.1rc1") == (2, 0, 1, 0)


def test_iss_takes_the_version_from_pyproject_not_from_itself():
    text = ISS.read_text(encoding="utf-8")
    # no literal version in the script: /DAppVersion from spec_common, else the built exe's
    # ProductVersion resource (generated from pyproject.toml)
    assert not re.search(r"^#define\s+AppVersion\s+\"", text, re.M)
    assert 'GetStringFileInfo(' in text and '"ProductVersion"' in text
    assert "AppVersion={#AppVersion}" in text
    out = subprocess.run([sys.executable, str(PACKAGING / "spec_common.py"), "iss-defines"],
                         capture_output=True, text=True, check=True).stdout.split()
    v = pyproject_version()
    assert f"/DAppVersion={v}" in out
    assert "/DAppVersionNumeric=" + ".".join(map(str, common.version_tuple(v))) in out
    ps1 = (PACKAGING / "windows" / "build_installer.ps1").read_text(encoding="utf-8")
    assert "spec_common.py iss-defines" in ps1 and "arrayplanner.iss" in ps1


def test_windows_version_resource(tmp_path):
    v = pyproject_version()
    path = common.write_windows_version_file(tmp_path / "v.txt", "ArrayPlanner.exe", common.DESCRIPTION)
    text = path.read_text(encoding="utf-8")
    assert f"StringStruct('ProductVersion', '{v}')" in text
    assert f"StringStruct('FileVersion', '{v}')" in text
    assert f"filevers={common.version_tuple(v)}" in text
    # PyInstaller evaluates this text with its versioninfo classes (which need pefile, Windows
    # only); evaluate it with recording stand-ins to check that it is a well-formed expression.
    calls = []

    def recorder(name):
        return lambda *a, **k: calls.append((name, a, k)) or (name, a, k)

    names = ("VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct",
             "VarFileInfo", "VarStruct")
    top = eval(text, {n: recorder(n) for n in names})  # noqa: S307 (our own generated file)
    assert top[0] == "VSVersionInfo"
    ffi = next(k for n, _a, k in calls if n == "FixedFileInfo")
    assert ffi["filevers"] == ffi["prodvers"] == common.version_tuple(v)
    strings = {a[0]: a[1] for n, a, _k in calls if n == "StringStruct"}
    assert strings["OriginalFilename"] == "ArrayPlanner.exe" and strings["ProductName"] == common.APP_NAME


def test_info_plist_version_document_type_and_hidpi():
    v = pyproject_version()
    plist = common.mac_info_plist()
    plistlib.dumps(plist)  # serializable as PyInstaller writes it
    assert plist["CFBundleShortVersionString"] == v == plist["CFBundleVersion"]
    assert plist["NSHighResolutionCapable"] is True
    assert plist["CFBundleIdentifier"] == common.BUNDLE_ID
    (doc,) = plist["CFBundleDocumentTypes"]
    assert doc["LSItemContentTypes"] == [common.FILE_UTI]
    assert doc["CFBundleTypeIconFile"] == common.ICON_ICNS.name
    (uti,) = plist["UTExportedTypeDeclarations"]
    assert uti["UTTypeIdentifier"] == common.FILE_UTI
    assert uti["UTTypeTagSpecification"]["public.filename-extension"] == [common.FILE_EXT.lstrip(".")]
    assert uti["UTTypeIconFile"] == common.ICON_ICNS.name


# ---------------------------------------------------------------- file association and names

def test_extension_matches_the_app():
    from app.store.project_file import SUFFIX

    assert common.FILE_EXT == SUFFIX == ".arrayplan"


def test_iss_file_association_matches_spec_common():
    d = iss_defines()
    assert d["AppName"] == common.APP_NAME
    assert d["AppExt"] == common.FILE_EXT
    assert d["AppProgId"] == common.FILE_PROGID
    assert d["AppFileTypeName"] == common.FILE_TYPE_NAME
    assert d["AppMime"] == common.FILE_MIME
    assert d["AppExeName"] == common.gui_executable("win32")
    assert d["AppCliName"] == common.cli_executable("win32")
    assert d["AppPublisher"] == common.PUBLISHER
    text = ISS.read_text(encoding="utf-8")
    assert f"AppId={common.WINDOWS_APP_ID}" in text
    assert r'Subkey: "Software\Classes\{#AppExt}"' in text
    assert r'ValueData: """{app}\{#AppExeName}"" ""%1"""' in text  # open command
    assert r'{#AppProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExeName},0"' in text
    assert "ChangesAssociations=yes" in text
    assert "{group}" in text and "{uninstallexe}" in text  # Start menu entry + uninstall


def test_icons_exist_and_are_what_they_claim():
    for path in (common.ICON_SVG, common.ICON_PNG, common.ICON_ICO, common.ICON_ICNS):
        assert path.is_file(), path
    d = iss_defines()
    assert (ISS.parent / d["AppIcon"].replace("\\", "/")).resolve() == common.ICON_ICO
    assert "SetupIconFile={#AppIcon}" in ISS.read_text(encoding="utf-8")
    png = common.ICON_PNG.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (256, 256)
    ico = common.ICON_ICO.read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1)
    sizes = {ico[6 + 16 * i] or 256 for i in range(count)}
    assert {16, 32, 48, 256} <= sizes
    icns = common.ICON_ICNS.read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    specs = {os_: (PACKAGING / os_ / "arrayplanner.spec").read_text(encoding="utf-8") for os_ in ("linux", "windows", "macos")}
    assert "common.ICON_ICO" in specs["windows"] and "common.ICON_ICNS" in specs["macos"]


class _Recorded:
    """What a PyInstaller class was called with (the spec's stand-in for Analysis, EXE ...)."""

    def __init__(self, kind: str, *args, **kwargs):
        self.kind, self.args, self.kwargs = kind, args, kwargs
        self.pure, self.scripts, self.binaries, self.datas = ["pure"], ["scripts"], ["binaries"], ["datas"]


def run_spec(os_: str, tmp_path: Path, monkeypatch, lay_out: bool = True) -> dict[str, list[_Recorded]]:
    """Execute packaging/<os_>/arrayplanner.spec as PyInstaller would, with recording stand-ins
    for its classes and for the helpers that need PyInstaller or a built bundle; returns the
    calls by kind. COLLECT lays out the executables' files as PyInstaller does (unless not lay_out)."""
    calls: dict[str, list[_Recorded]] = {}
    dist = tmp_path / "dist"

    def recorder(kind):
        def make(*args, **kwargs):
            rec = _Recorded(kind, *args, **kwargs)
            calls.setdefault(kind, []).append(rec)
            if kind == "COLLECT" and lay_out:  # the folder with each executable, as PyInstaller leaves it
                folder = dist / kwargs["name"]
                folder.mkdir(parents=True, exist_ok=True)
                for exe in args:
                    if isinstance(exe, _Recorded) and exe.kind == "EXE":
                        name = exe.kwargs["name"]
                        (folder / (name + ".exe" if os_ == "windows" else name)).write_bytes(b"MZ")
            return rec
        return make

    monkeypatch.setattr(common, "analysis_kwargs", lambda: {"scripts": ["entry"], "marker": "from spec_common"})
    monkeypatch.setattr(common, "trim", lambda a, report: calls.setdefault("trim", []).append(a))
    monkeypatch.setattr(common, "strip_debug_info", lambda bundle, report: 0)
    monkeypatch.setattr(common, "add_linux_desktop_files", lambda bundle: calls.setdefault("desktop", []).append(bundle))
    spec = PACKAGING / os_ / "arrayplanner.spec"
    namespace = {"__file__": str(spec), "SPECPATH": str(spec.parent), "DISTPATH": str(dist),
                 "workpath": str(tmp_path / "work")}
    (tmp_path / "work").mkdir()
    namespace.update({k: recorder(k) for k in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")})
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)
    return calls


@pytest.mark.parametrize("os_, plat", [("linux", "linux"), ("windows", "win32"), ("macos", "darwin")])
def test_each_spec_builds_the_gui_and_the_cli_from_spec_common(os_, plat, tmp_path, monkeypatch):
    calls = run_spec(os_, tmp_path, monkeypatch)
    (analysis,) = calls["Analysis"]
    assert analysis.kwargs == common.analysis_kwargs()  # the same Analysis on every OS
    assert calls["trim"] == [analysis]
    gui, cli = calls["EXE"]
    for exe in (gui, cli):
        assert exe.args[0] is calls["PYZ"][0] and exe.kwargs["exclude_binaries"] is True
    # the GUI is windowed where the OS has the distinction (Linux: both are console programs)
    assert gui.kwargs["console"] is (os_ == "linux") and cli.kwargs["console"] is True
    (collect,) = calls["COLLECT"]
    assert collect.args[:2] == (gui, cli) and collect.kwargs["name"] == common.APP_NAME
    assert analysis.binaries in collect.args and analysis.datas in collect.args
    folder = tmp_path / "dist" / common.APP_NAME
    if os_ == "windows":  # the console build is renamed to arrayplanner.com, next to ArrayPlanner.exe
        assert sorted(p.name for p in folder.iterdir()) == sorted([common.gui_executable(plat),
                                                                   common.cli_executable(plat)])
        for exe, name in ((gui, "version_gui.txt"), (cli, "version_cli.txt")):
            version = Path(exe.kwargs["version"])
            assert version == tmp_path / "work" / name and common.read_version() in version.read_text(encoding="utf-8")
    else:
        assert [gui.kwargs["name"], cli.kwargs["name"]] == [common.gui_executable(plat), common.cli_executable(plat)]
    if os_ == "macos":
        (bundle,) = calls["BUNDLE"]
        assert bundle.args == (collect,) and bundle.kwargs["name"] == common.APP_NAME + ".app"
        assert bundle.kwargs["bundle_identifier"] == common.BUNDLE_ID
        assert bundle.kwargs["info_plist"] == common.mac_info_plist()
        assert gui.kwargs["argv_emulation"] is True  # Finder's "open document" events
    else:
        assert "BUNDLE" not in calls
    assert ("desktop" in calls) is (os_ == "linux")


def test_the_windows_spec_fails_without_its_console_executable(tmp_path, monkeypatch):
    with pytest.raises(SystemExit, match="console executable missing"):
        run_spec("windows", tmp_path, monkeypatch, lay_out=False)


def test_executable_names_do_not_collide_on_case_insensitive_file_systems():
    for plat in ("win32", "darwin", "linux"):
        gui, cli = common.gui_executable(plat), common.cli_executable(plat)
        assert gui != cli
        if plat != "linux":
            assert gui.lower() != cli.lower(), plat


def test_analysis_includes_presets_and_every_command_module():
    kw = common.analysis_kwargs()
    assert (str(ROOT / "presets"), "presets") in kw["datas"]
    from app.cli import COMMAND_MODULES
    from app.ui.main_window import PLUGINS

    for name in [m.__name__ for m in COMMAND_MODULES] + list(PLUGINS):  # PLUGINS: imported by name
        assert name in kw["hiddenimports"], name
    assert "app.ui.launch" in kw["hiddenimports"]
    for used in common.qt_modules_used_by_app():
        assert f"PySide6.{used}" not in kw["excludes"], used
    assert "tkinter" in kw["excludes"]


@pytest.mark.parametrize("dest, os_key, kept", [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqeglfs.so", "linux", False),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "linux", False),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", "linux", True),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", "linux", False),
    ("PySide6/Qt/plugins/iconengines/libqsvgicon.so", "linux", True),
    ("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so", "linux", False),
    ("PySide6\\Qt\\plugins\\platforms\\qwindows.dll", "win32", True),
    ("PySide6\\Qt\\plugins\\styles\\qmodernwindowsstyle.dll", "win32", True),
    ("PySide6\\Qt\\plugins\\imageformats\\qjpeg.dll", "win32", False),
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", "darwin", True),
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "darwin", False),
    ("PySide6/Qt/translations/qtbase_de.qm", "linux", False),
    ("PySide6/QtCore.pyi", "linux", False),
    ("PySide6/Qt/lib/libQt6Core.so.6", "linux", True),
    ("presets/platforms/emc-cx4-960-r28.toml", "linux", True),
])
def test_trim_rules(dest, os_key, kept):
    assert (common._drop_entry(dest, os_key) is None) == kept


def test_qt_library_names():
    assert common._qt_lib_name("PySide6/Qt/lib/libQt6Quick.so.6") == "Quick"
    assert common._qt_lib_name("PySide6\\Qt6Gui.dll") == "Gui"
    assert common._qt_lib_name("PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets") == "Widgets"
    assert common._qt_lib_name("libpython3.11.so.1.0") is None
    assert common._qt_lib_name(str(PurePosixPath("numpy.libs/libgfortran.so.5"))) is None


# ---------------------------------------------------------------- signing scripts, workflows, docs

def _clean_env() -> dict[str, str]:
    names = ("MACOS_SIGN_IDENTITY", "MACOS_CERTIFICATE", "APPLE_API_KEY_ID", "APPLE_API_ISSUER_ID",
             "APPLE_API_KEY", "APPLE_ID", "APPLE_TEAM_ID", "APPLE_APP_PASSWORD", "WINDOWS_CERTIFICATE")
    return {k: v for k, v in os.environ.items() if k not in names}


@pytest.mark.skipif(sys.platform.startswith("win"), reason="bash scripts")
@pytest.mark.parametrize("script, args", [("sign.sh", []), ("sign.sh", ["x.dmg"]), ("notarize.sh", ["x.dmg"])])
def test_mac_scripts_skip_without_credentials(script, args):
    path = PACKAGING / "macos" / script
    assert os.access(path, os.X_OK)
    proc = subprocess.run(["bash", str(path), *args], capture_output=True, text=True, env=_clean_env())
    assert proc.returncode == 0, proc.stderr
    assert "not set" in proc.stdout and "not " in proc.stdout


def test_windows_sign_script_skips_without_certificate():
    text = (PACKAGING / "windows" / "sign.ps1").read_text(encoding="utf-8")
    guard = text.split("if (-not $env:WINDOWS_CERTIFICATE)", 1)[1].split("}", 1)[0]
    assert "exit 0" in guard and "not set" in guard


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX shell scripts")
def test_shell_scripts_are_valid():
    for path in [PACKAGING / "build.sh", *sorted((PACKAGING / "macos").glob("*.sh"))]:
        assert os.access(path, os.X_OK), path
        proc = subprocess.run(["sh" if path.name == "build.sh" else "bash", "-n", str(path)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, f"{path}: {proc.stderr}"


@pytest.mark.parametrize("workflow", ["ci.yml", "release.yml"])
def test_the_scripts_a_workflow_runs_take_its_arguments(workflow):
    """Each repository script a workflow calls exists and accepts the options it is given (a
    renamed option fails here, not in a release); spec_common.py answers the fact asked."""
    calls = script_calls(workflow)
    assert calls, f"no script call found in {workflow}: tests/workflow_commands.py is out of step"
    for script, args in calls:
        path = ROOT / script
        assert path.is_file(), script
        if script == "packaging/spec_common.py":  # no options: its argument is the fact it prints
            out = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=60)
            assert out.returncode == 0 and out.stdout.strip(), out.stderr
            if args == ["version"]:  # the release's tag check compares the tag with this
                assert out.stdout.strip() == pyproject_version()
            continue
        usage = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True,
                               timeout=60, cwd=ROOT)
        assert usage.returncode == 0, f"{script} --help: {usage.stderr[-2000:]}"
        for i, arg in enumerate(args):
            if not arg.startswith("--"):
                continue
            assert re.search(rf"(?<![\w-]){re.escape(arg)}(?![\w-])", usage.stdout), f"{script} has no {arg}"
            choices = re.search(rf"{re.escape(arg)} \{{([^}}]*)\}}", usage.stdout)
            if choices:
                assert args[i + 1] in choices.group(1).split(","), f"{script} {arg} {args[i + 1]}"
    for script in shell_scripts(workflow):
        assert (ROOT / script).is_file(), script
        if script.endswith(".sh") and os.name == "posix":
            assert os.access(ROOT / script, os.X_OK), f"{script} is not executable"
    # `uv sync --locked --extra NAME` fails unless the lock provides NAME
    text = (WORKFLOWS / workflow).read_text(encoding="utf-8")
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    provided = next(p for p in lock["package"] if p["name"] == "arrayplanner")["metadata"]["provides-extras"]
    for extra in re.findall(r"--extra (\w+)", text):
        assert extra in provided, f"{workflow} installs the extra {extra!r}, which uv.lock does not provide"


def test_docs_name_every_secret_and_the_version_bump():
    doc = (ROOT / "docs" / "packaging.md").read_text(encoding="utf-8")
    release = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    for secret in set(re.findall(r"secrets\.(\w+)", release)):
        assert secret in doc, secret
    assert "pyproject.toml" in doc and "app/_version.py" in doc
    for script in ("build.sh", "build_installer.ps1", "make_dmg.sh", "sign.sh", "notarize.sh", "sign.ps1"):
        assert script in doc, script


def test_qt_library_names_ignore_case():
    assert common._qt_lib_name("QT6CORE.DLL") == "CORE"
    assert common._qt_lib_name("PySide6/QtCore.pyd") is None
    assert common._qt_lib_name("PySide6/QtCore.abi3.so") is None


def test_linux_desktop_files_match_spec_common():
    linux = PACKAGING / "linux"
    desktop = dict(line.split("=", 1) for line in (linux / "arrayplanner.desktop").read_text(encoding="utf-8").splitlines()
                   if "=" in line)
    assert desktop["Name"] == common.APP_NAME
    assert desktop["Exec"].split()[0] == common.gui_executable("linux")
    assert desktop["MimeType"].rstrip(";") == common.FILE_MIME
    mime = (linux / "arrayplanner-mime.xml").read_text(encoding="utf-8")
    assert f'<mime-type type="{common.FILE_MIME}">' in mime
    assert f'<glob pattern="*{common.FILE_EXT}"/>' in mime
    assert f"<comment>{common.FILE_TYPE_NAME}</comment>" in mime
    install = (linux / "install.sh").read_text(encoding="utf-8")
    assert "share/mime/packages/arrayplanner.xml" in install and "arrayplanner.desktop" in install
    assert os.access(linux / "install.sh", os.X_OK)
    assert "add_linux_desktop_files" in (linux / "arrayplanner.spec").read_text(encoding="utf-8")


def test_measured_samples_are_bundle_data(monkeypatch, tmp_path):
    """Each shipped measured-data sample is in a folder the specs bundle, lands where
    app.store.measured.sample_file looks in a frozen app, and reads cleanly in its format."""
    from app.store import measured

    for fmt in measured.SAMPLE_FILES:
        src = measured.sample_file(fmt)
        assert src.is_file(), src
        dest = [Path(dst) / src.relative_to(s) for s, dst in common.datas() if src.is_relative_to(s)]
        assert dest, f"{src} is in none of the bundle's data folders"
        with monkeypatch.context() as m:
            m.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
            assert measured.sample_file(fmt) == tmp_path / dest[0]
        data = measured.read_measured(src)
        assert data.format == fmt and data.intervals
        # no bad cell in a sample (iostat's first report, the average since boot, is always left out)
        assert all("since boot" in s for s in data.skipped), data.skipped
