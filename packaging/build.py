"""Build the one-folder bundle for this OS with PyInstaller.

    .venv/bin/python packaging/build.py            # Linux/macOS (or: ./packaging/build.sh)
    .venv\\Scripts\\python packaging\\build.py      # Windows

Output (default --dist dist):
    Linux    dist/ArrayPlanner/            ArrayPlanner (GUI), arrayplanner (CLI), _internal/
    Windows  dist/ArrayPlanner/            ArrayPlanner.exe (windowed), arrayplanner.com (console)
    macOS    dist/ArrayPlanner.app         Contents/MacOS/ArrayPlanner, .../arrayplanner-cli

The compiled engine (mypyc, scripts/build_native.py) is built first when build/native is stale
and bundled; when it cannot be (no C compiler: MSVC on Windows, clang on macOS, gcc on Linux),
a warning is printed and the bundle runs the pure-Python engine (--require-native makes that an
error). --smoke then checks that the bundle runs the engine it was given.

Options: --archive also packs dist/ArrayPlanner-<version>-<os>-<arch>.tar.gz (Linux) or .zip
(Windows; the macOS disk image is packaging/macos/make_dmg.sh); --smoke runs
packaging/smoke_test.py on the result. PyInstaller is installed into the running interpreter's
environment when missing (uv pip, else pip): it is the "package" extra in pyproject.toml.
Prints the bundle's size and build time.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import spec_common as common  # noqa: E402

ROOT = common.ROOT


def os_key() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    return "macos" if sys.platform == "darwin" else "linux"


def ensure_pyinstaller() -> None:
    """Install PyInstaller into the running interpreter's environment when it is missing: with
    uv (on PATH, in ~/.local/bin where scripts/setup.sh puts it, or as a module of the system
    python3), else with this environment's pip."""
    if importlib.util.find_spec("PyInstaller") is not None:
        return
    print("PyInstaller is not installed in this environment; installing it (pyproject extra 'package')")
    spec = "pyinstaller>=6.6"
    attempts = []
    for uv in (shutil.which("uv"), str(Path.home() / ".local" / "bin" / "uv")):
        if uv and Path(uv).is_file():
            attempts.append([uv, "pip", "install", "--python", sys.executable, spec])
    for py in {shutil.which("python3"), shutil.which("python")} - {None, sys.executable}:
        attempts.append([py, "-m", "uv", "pip", "install", "--python", sys.executable, spec])
    attempts.append([sys.executable, "-m", "pip", "install", spec])
    for cmd in attempts:
        try:
            if subprocess.run(cmd).returncode == 0:
                importlib.invalidate_caches()
                if importlib.util.find_spec("PyInstaller") is not None:
                    return
        except OSError:
            continue
    raise SystemExit("could not install PyInstaller: install it with "
                     f"`uv pip install --python {sys.executable} pyinstaller`")


def build_native_engine(required: bool) -> str:
    """Build the compiled engine when build/native is stale (best effort); returns the engine the
    bundle will run, "mypyc" or "python"."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_native.py"), "--if-stale"], cwd=ROOT)
    problem = common.native_problem()
    if problem is None:
        return "mypyc"
    if required:
        raise SystemExit(f"--require-native: the compiled engine cannot be bundled: {problem}")
    print(f"WARNING: no compiled engine ({problem}): the bundle runs the engine as pure Python, slower")
    return "python"


def bundle_path(dist: Path) -> Path:
    return dist / (common.APP_NAME + ".app" if sys.platform == "darwin" else common.APP_NAME)


def tree_size(path: Path) -> tuple[int, int]:
    total = files = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
            files += 1
    return total, files


def verify_linux(bundle: Path) -> tuple[list[str], list[str]]:
    """ldd every ELF file of the bundle with the bundle's folders on the library path. Returns
    (errors, warnings): a library the core needs and this machine lacks is an error; one that
    only an optional plugin needs (Wayland on a machine without libwayland) is a warning."""
    internal = bundle / "_internal"
    dirs = sorted({str(p.parent) for p in internal.rglob("*.so*")} | {str(internal)})
    env = dict(os.environ, LD_LIBRARY_PATH=os.pathsep.join(dirs))
    errors: list[str] = []
    warnings: list[str] = []
    for p in sorted(internal.rglob("*")):
        if not p.is_file() or p.is_symlink():
            continue
        with p.open("rb") as fh:
            if fh.read(4) != b"\x7fELF":
                continue
        out = subprocess.run(["ldd", str(p)], capture_output=True, text=True, env=env).stdout
        lost = sorted({line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line})
        if not lost:
            continue
        rel = p.relative_to(bundle).as_posix()
        optional = "/plugins/" in rel or p.name.startswith("libQt6Wayland")
        (warnings if optional else errors).append(f"{rel}: needs {', '.join(lost)}")
    return errors, warnings


def archive(dist: Path, bundle: Path) -> Path | None:
    version = common.read_version()
    arch = platform.machine().lower().replace("amd64", "x86_64")
    base = f"{common.APP_NAME}-{version}-{os_key()}-{arch}"
    if os_key() == "linux":
        out = dist / f"{base}.tar.gz"
        with tarfile.open(out, "w:gz") as tar:
            tar.add(bundle, arcname=f"{common.APP_NAME}-{version}")
        return out
    if os_key() == "windows":
        out = dist / f"{base}-portable.zip"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            for p in sorted(bundle.rglob("*")):
                zf.write(p, Path(f"{common.APP_NAME}-{version}") / p.relative_to(bundle))
        return out
    print("macOS: make the disk image with packaging/macos/make_dmg.sh")
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build the ArrayPlanner bundle for this OS.")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller",
                    help="PyInstaller's work folder (default build/pyinstaller)")
    ap.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    ap.add_argument("--archive", action="store_true", help="also write a .tar.gz/.zip of the bundle")
    ap.add_argument("--smoke", action="store_true", help="run packaging/smoke_test.py afterwards")
    ap.add_argument("--require-native", action="store_true",
                    help="fail instead of bundling the pure-Python engine when the compiled one cannot be built")
    args = ap.parse_args(argv)

    ensure_pyinstaller()
    engine = build_native_engine(args.require_native)
    spec = HERE / os_key() / "arrayplanner.spec"
    version = common.read_version()
    print(f"building {common.APP_NAME} {version} for {os_key()} with {spec.relative_to(ROOT)}")
    cmd = [sys.executable, "-m", "PyInstaller", str(spec), "--noconfirm",
           "--distpath", str(args.dist), "--workpath", str(args.work), "--log-level", "WARN"]
    if args.clean:
        cmd.append("--clean")
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT)
    seconds = time.perf_counter() - t0

    bundle = bundle_path(args.dist)
    size, files = tree_size(bundle)
    print(f"bundle: {bundle} (engine: {engine})")
    print(f"bundle size: {size / 1e6:.1f} MB in {files} files; build time {seconds:.0f} s")
    if os_key() == "linux":
        errors, warnings = verify_linux(bundle)
        if warnings:
            libs = sorted({lib for w in warnings for lib in w.split(": needs ", 1)[1].split(", ")})
            print(f"ldd note: {len(warnings)} optional plugin files need libraries this machine "
                  f"lacks ({', '.join(libs)}); they load only when used (e.g. Wayland)")
        if errors:
            print("libraries not found (the bundle will not start on this machine):")
            print("\n".join("  " + e for e in errors))
            return 1
        print("ldd check: every library the core needs resolves")
    if args.archive:
        out = archive(args.dist, bundle)
        if out:
            print(f"archive: {out} ({out.stat().st_size / 1e6:.1f} MB)")
    if args.smoke:
        return subprocess.run([sys.executable, str(HERE / "smoke_test.py"), str(bundle), "--engine", engine]).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
