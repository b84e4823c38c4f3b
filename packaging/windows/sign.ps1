<#
.SYNOPSIS
  Authenticode-sign files with the release certificate, only when it is configured.

.DESCRIPTION
  Environment variables (GitHub Actions secrets in .github/workflows/release.yml):
    WINDOWS_CERTIFICATE           the code-signing certificate, a .pfx file encoded in base64
    WINDOWS_CERTIFICATE_PASSWORD  its password
    WINDOWS_TIMESTAMP_URL         RFC 3161 time-stamp server (default http://timestamp.digicert.com)
  When WINDOWS_CERTIFICATE is not set the script says so and exits 0 (unsigned local and CI
  builds). signtool.exe comes from the Windows SDK (found automatically, or set SIGNTOOL).

.EXAMPLE
  powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 dist\ArrayPlanner\ArrayPlanner.exe dist\ArrayPlanner\arrayplanner.com
#>
param([Parameter(ValueFromRemainingArguments = $true)][string[]]$Files)
$ErrorActionPreference = 'Stop'

if (-not $env:WINDOWS_CERTIFICATE) {
    Write-Host "sign.ps1: WINDOWS_CERTIFICATE is not set; not signing $($Files -join ', ')"
    exit 0
}
if (-not $Files) { throw 'sign.ps1: no files given' }

$signtool = $env:SIGNTOOL
if (-not $signtool) {
    $found = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" -ErrorAction SilentlyContinue |
        Sort-Object FullName -Descending | Select-Object -First 1
    if (-not $found) { throw 'sign.ps1: signtool.exe not found (install the Windows SDK or set SIGNTOOL)' }
    $signtool = $found.FullName
}
$timestamp = if ($env:WINDOWS_TIMESTAMP_URL) { $env:WINDOWS_TIMESTAMP_URL } else { 'http://timestamp.digicert.com' }
$tmp = if ($env:RUNNER_TEMP) { $env:RUNNER_TEMP } else { $env:TEMP }
$pfx = Join-Path $tmp ("arrayplanner-sign-{0}.pfx" -f [guid]::NewGuid())
[IO.File]::WriteAllBytes($pfx, [Convert]::FromBase64String($env:WINDOWS_CERTIFICATE))
try {
    foreach ($file in $Files) {
        & $signtool sign /fd SHA256 /f $pfx /p $env:WINDOWS_CERTIFICATE_PASSWORD `
            /tr $timestamp /td SHA256 /d 'ArrayPlanner' $file
        if ($LASTEXITCODE -ne 0) { throw "sign.ps1: signtool failed on $file" }
        & $signtool verify /pa $file
        if ($LASTEXITCODE -ne 0) { throw "sign.ps1: signature of $file does not verify" }
    }
} finally {
    Remove-Item $pfx -Force -ErrorAction SilentlyContinue
}
