; Inno Setup 6 script: the ArrayPlanner installer for Windows (x64).
;
; Build it with packaging\windows\build_installer.ps1, which builds the bundle first
; (dist\ArrayPlanner\) and passes the version read from pyproject.toml:
;     iscc /DAppVersion=0.1.0 /DAppVersionNumeric=0.1.0.0 packaging\windows\arrayplanner.iss
; Without /DAppVersion the version is read from the built ArrayPlanner.exe's version resource,
; which packaging/spec_common.py generated from the same pyproject.toml.
;
; Names, the .arrayplan extension, the ProgID and the icon must match packaging/spec_common.py
; (tests/test_packaging_consistency.py checks them).

#define AppName "ArrayPlanner"
#define AppExeName "ArrayPlanner.exe"
#define AppCliName "arrayplanner.com"
#define AppPublisher "ArrayPlanner project"
#define AppExt ".arrayplan"
#define AppProgId "ArrayPlanner.Project"
#define AppFileTypeName "ArrayPlanner project"
#define AppMime "application/x-arrayplanner-project"
#define BundleDir "..\..\dist\ArrayPlanner"
#define AppIcon "..\..\resources\icons\app.ico"

#ifndef AppVersion
  #define AppVersion GetStringFileInfo(AddBackslash(SourcePath) + BundleDir + "\" + AppExeName, "ProductVersion")
  #if AppVersion == ""
    #error Version unknown: build the bundle first (python packaging\build.py) or pass /DAppVersion=...
  #endif
#endif
#ifndef AppVersionNumeric
  #define AppVersionNumeric GetVersionNumbersString(AddBackslash(SourcePath) + BundleDir + "\" + AppExeName)
#endif

[Setup]
; A fixed AppId (never change it): upgrades replace the installed version in place.
AppId={{7C3A9E52-4B1D-4E8F-9A61-2D5B8F3C0E17}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppPublisher}
VersionInfoVersion={#AppVersionNumeric}
VersionInfoProductName={#AppName}
VersionInfoDescription={#AppName} {#AppVersion} setup
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Per-user install without elevation by default; the dialog offers "for all users" (admin).
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Qt 6 supports Windows 10 1809 (build 17763) or later
MinVersion=10.0.17763
ChangesAssociations=yes
ChangesEnvironment=yes
SetupIconFile={#AppIcon}
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName={#AppName} {#AppVersion}
OutputDir=..\..\dist
OutputBaseFilename={#AppName}-{#AppVersion}-windows-x86_64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
#ifdef Sign
; build_installer.ps1 defines Sign and the sign tool (packaging\windows\sign.ps1) when the
; certificate variables are set; the uninstaller is then signed too.
SignTool=arrayplanner_sign
SignedUninstaller=yes
#endif

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "addtopath"; Description: "Add the arrayplanner command to PATH"; GroupDescription: "Command line:"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; files of an older version that a newer bundle no longer has
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExeName}"; Comment: "What-if planner for storage array operations"
Name: "{group}\Uninstall {#AppName}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExeName}"; Tasks: desktopicon

[Registry]
; .arrayplan -> ArrayPlanner.Project (HKA: HKLM for an all-users install, else HKCU)
Root: HKA; Subkey: "Software\Classes\{#AppExt}"; ValueType: string; ValueName: ""; ValueData: "{#AppProgId}"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#AppExt}"; ValueType: string; ValueName: "Content Type"; ValueData: "{#AppMime}"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#AppExt}\OpenWithProgids"; ValueType: string; ValueName: "{#AppProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#AppProgId}"; ValueType: string; ValueName: ""; ValueData: "{#AppFileTypeName}"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#AppProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExeName},0"
Root: HKA; Subkey: "Software\Classes\{#AppProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExeName}"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExeName}\SupportedTypes"; ValueType: string; ValueName: "{#AppExt}"; ValueData: ""; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExeName}"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "{#AppName}"; Flags: uninsdeletekey
; optional: {app} on PATH for the arrayplanner command (removed again by the uninstaller, see [Code])
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; Tasks: addtopath; Check: (not IsAdminInstallMode) and NeedsAddPath(ExpandConstant('{app}'))
Root: HKLM; Subkey: "SYSTEM\CurrentControlSet\Control\Session Manager\Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; Tasks: addtopath; Check: IsAdminInstallMode and NeedsAddPath(ExpandConstant('{app}'))

[Run]
Filename: "{app}\{#AppExeName}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[Code]
function PathKey(var Root: Integer): String;
begin
  if IsAdminInstallMode then begin
    Root := HKEY_LOCAL_MACHINE;
    Result := 'SYSTEM\CurrentControlSet\Control\Session Manager\Environment';
  end else begin
    Root := HKEY_CURRENT_USER;
    Result := 'Environment';
  end;
end;

function NeedsAddPath(Dir: String): Boolean;
var
  Root: Integer;
  Key, Paths: String;
begin
  Key := PathKey(Root);
  if not RegQueryStringValue(Root, Key, 'Path', Paths) then begin
    Result := True;
    exit;
  end;
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Paths) + ';') = 0;
end;

procedure RemoveFromPath(Dir: String);
var
  Root: Integer;
  Key, Paths: String;
  P: Integer;
begin
  Key := PathKey(Root);
  if not RegQueryStringValue(Root, Key, 'Path', Paths) then exit;
  Paths := ';' + Paths + ';';
  P := Pos(';' + Uppercase(Dir) + ';', Uppercase(Paths));
  if P = 0 then exit;
  Delete(Paths, P, Length(Dir) + 1);
  Paths := Copy(Paths, 2, Length(Paths) - 2);
  RegWriteExpandStringValue(Root, Key, 'Path', Paths);
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if CurUninstallStep = usPostUninstall then
    RemoveFromPath(ExpandConstant('{app}'));
end;
