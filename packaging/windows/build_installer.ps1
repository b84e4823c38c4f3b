<#
.SYNOPSIS
  Build the Windows installer: bundle (PyInstaller) -> sign -> Inno Setup -> signed setup.exe.

.DESCRIPTION
  Output: dist\ArrayPlanner-<version>-windows-x86_64-setup.exe (and the portable .zip).
  The version comes from pyproject.toml through packaging\spec_common.py. Needs Inno Setup 6
  (ISCC.exe on PATH, in its default folder, or set ISCC). Signing happens only when
  WINDOWS_CERTIFICATE is set (see sign.ps1). -SkipBuild reuses an existing dist\ArrayPlanner.

.EXAMPLE
  powershell -ExecutionPolicy Bypass -File packaging\windows\build_installer.ps1
#>
param([string]$Python = '', [switch]$SkipBuild)
$ErrorActionPreference = 'Stop'
$root = (Resolve-Path (Join-Path $PSScriptRoot '..\..')).Path
if (-not $Python) {
    $Python = Join-Path $root '.venv\Scripts\python.exe'
    if (-not (Test-Path $Python)) { $Python = 'python' }
}
Push-Location $root
try {
    if (-not $SkipBuild) {
        & $Python packaging\build.py --archive
        if ($LASTEXITCODE -ne 0) { throw 'bundle build failed' }
    }
    $bundle = Join-Path $root 'dist\ArrayPlanner'
    & (Join-Path $PSScriptRoot 'sign.ps1') (Join-Path $bundle 'ArrayPlanner.exe') (Join-Path $bundle 'arrayplanner.com')

    $defines = @(& $Python packaging\spec_common.py iss-defines)
    if ($LASTEXITCODE -ne 0) { throw 'reading the version failed' }
    $iscc = $env:ISCC
    if (-not $iscc) {
        $cmd = Get-Command ISCC.exe -ErrorAction SilentlyContinue
        $iscc = if ($cmd) { $cmd.Source } else { "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
    }
    if (-not (Test-Path $iscc)) { throw "Inno Setup compiler not found ($iscc); install Inno Setup 6 or set ISCC" }
    $signArgs = @()
    if ($env:WINDOWS_CERTIFICATE) {
        # Inno Setup calls sign.ps1 for setup.exe and the uninstaller ($q = quote, $f = file)
        $signScript = Join-Path $PSScriptRoot 'sign.ps1'
        $signArgs = @('/DSign', "/Sarrayplanner_sign=powershell.exe -NoProfile -ExecutionPolicy Bypass -File `$q$signScript`$q `$f")
    }
    & $iscc @defines @signArgs (Join-Path $PSScriptRoot 'arrayplanner.iss')
    if ($LASTEXITCODE -ne 0) { throw 'Inno Setup failed' }
    Get-ChildItem (Join-Path $root 'dist\ArrayPlanner-*-setup.exe') | ForEach-Object { Write-Host "installer: $($_.FullName) ($([math]::Round($_.Length / 1MB, 1)) MB)" }
} finally {
    Pop-Location
}
