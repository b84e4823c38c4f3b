<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Palette</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID groups and LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo: {step}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo: {step}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plug-in {name} failed to load; see the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new project from a platform or an example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected drives, enclosures, groups or LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;All Drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create RAID &amp;Group…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make a RAID group of the selected drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark as &amp;Hot Spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit Width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit &amp;Whole Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard and Mouse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Scenario </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More toolbar buttons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}  (baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to delete: select drives, an enclosure, a {group} or a LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the drives for the {group} first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the {group}: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a drive to mark it as a hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot mark hot spare: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ArrayPlanner projects (*.arrayplan *.json);;ArrayPlanner project (*.arrayplan);;JSON (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the changes to {title}?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened {path} read-only: save your changes under another name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your file was not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New project on the {platform}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{errors}, {warnings}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} {groups}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages ({tally})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create {group}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make a {group} of the selected drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{groups} and LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title} (read-only)[*] — ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title}[*] — ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;ArrayPlanner {version}&lt;/b&gt;&lt;p&gt;A what-if planner for storage arrays: predict how long a rebuild, migration or bind takes at each priority and what it does to host response time.&lt;/p&gt;&lt;p&gt;Prediction engine: {engine}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard and mouse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag drives and enclosures from the Palette onto the layout; a drive dropped on an enclosure&apos;s label fills its empty slots.
Click a drive to select it; Ctrl+click adds; drag on empty space for a rubber band.
Drag a drive to move it to another slot. Delete removes the selection.
Ctrl+G: create a RAID group of the selected drives. Ctrl+H: mark as hot spare.
Ctrl+wheel or Ctrl++ / Ctrl+-: zoom. Ctrl+0: fit. Middle button or Space+drag: pan.
Ctrl+Z / Ctrl+Shift+Z: undo / redo.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The LUNs the load is spread over, e.g. 0, 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open: a fixed arrival rate (IOPS); closed: a fixed number of outstanding I/Os</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrival rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For open workloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outstanding I/Os</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For closed workloads (0: idle)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Think time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For closed workloads: the wait after an I/O completes before the next is issued (IOPS = outstanding / (response + think time); 0: at once)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I/O size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read cache hits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave at &apos;default&apos; for the platform&apos;s default hit ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The SLA the priority advisor checks against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More is bound to LUNs than the group holds once formatted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform preset gives no [capacity] table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most {capacity} fits in the group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The controller (SP) that owns the LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted duration: {duration}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({cores})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{buses} of {speed} MB/s, up to {enclosures} each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Firmware</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controllers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag drives from the palette into slots and enclosures onto buses. Select drives (click, Ctrl+click or drag a rubber band) to make a RAID group.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host workloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None yet: select a LUN and add a workload to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enclosure {id}: {type}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drop an enclosure here (enclosure {id})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back-end bus {bus} ({speed} MB/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bus {bus}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encl {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown type {type}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty slot {slot}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drive {location}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown drive type {type}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not in a {group}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed at this time (not replaced yet): no I/O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value: —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Utilization: {pct}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{fail} failed drive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HS hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not in a group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drop the drive into a slot of an enclosure (or on its label to fill it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drop the enclosure onto a bus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected: {item}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} selected: {refs}. First: {item}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Array layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot {what}: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Streaming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random I/O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A hot spare takes over a failed drive&apos;s data (the rebuild writes to it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show {group}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} drives selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only empty slots.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create {group}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} drives: {types}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stripe:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID level:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No RAID level fits: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} spans of {k} drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{d}+2 ({k} drives)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (platform default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select drives, a {group}, a LUN or a workload to edit it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No RAID type fits: {reasons}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unmark hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove drive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enclosure {id} no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enclosure {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} of {slots} used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Takes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove enclosure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per drive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write penalty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} back-end I/Os per random write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Survives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} drive failure(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drives per span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drives per stripe (data + parity)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stripe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{what}; the platform&apos;s default: {d}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (the level&apos;s default geometry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No LUNs bound yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {group} and its LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {group}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reliability ({scenario})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{chance}, corrected by the 2nd parity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{chance}, the sector is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuild under load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuild on idle drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MTTDL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Critical stripes first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{time} exposed to a 3rd failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read per rebuild</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URE during a rebuild</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{group} (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host workloads on this LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No template (8 KB, 67% reads, random)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {lun}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workload {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A short word that names the workload in files and events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the start of the plan: h:mm, d hh:mm or decimal hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an operation on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response-time target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priorities compared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each priority&apos;s duration and peak response time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The highest response time, while the operation runs, of the workloads it touches (hover a row for each workload)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply recommended priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{event}: {kind} has no priority to choose. Select a migration, rebuild, bind or other operation with a priority.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{event}: {kind} (now {priority})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project changed: press Evaluate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicting each priority...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine could not predict this operation: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply {priority}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Priority advisor compares them for this operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot move {event}: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted phases and durations are on the timeline; the Priority advisor compares every priority against the workloads&apos; response-time target.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache ({platform})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This platform has no cache settings in its preset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Premium features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source: {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controller reboot: about {duration}. To enable it during the plan, add a Feature enable event on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This platform offers no premium features.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{iops} IOPS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} outstanding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ms} ms think time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{load}, {read}% read, {kb} KB on LUN {luns}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{value} (no editor for kind {kind})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{value} h is too late: the latest start is {latest} h ({years} years)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{value} (not offered)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 0, 1, 5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{label}: {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{label}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paper:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenarios</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host response time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SP CPU per core / write cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID group / drive utilization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operation progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back-end bus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no host workloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controller CPU per core / write cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SP CPU per core / write cache / I/O limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controller CPU per core / write cache / I/O limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host response time, controller CPU, utilization and rates over the plan; the readout beside them lists the values at the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values at the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{chart} as PNG...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All series as CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title}  ({shown} of {total}: busiest and selected)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario &apos;{scenario}&apos;, plan to {end}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>baseline &apos;{scenario}&apos; dashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These curves are from the last good prediction; there is none for the plan as it is now: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scenario &apos;{scenario}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export series as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this chart as PNG...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this chart&apos;s series as CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>... {n} more in the read-out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saturated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{saturated}: some of the offered IOPS are not served; the response time is a lower bound of a queue that keeps growing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout diagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table of every LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assumptions appendix (rates and factors with their sources)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the report when it is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty of “{scenario}”: {done} of {total} runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty ranges (P10-P90 durations and chart bands)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample the ranged preset values: the window&apos;s bands where it has them, else {n} runs per scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one scenario for the report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… and {n} more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote {path} ({pages} pages)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written: {path} ({pages} pages)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report was written, but no program to show PDF files could be started (none installed, or no desktop session). The report is:
{path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the report&apos;s path: {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The existing file was left unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be written:
{message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled; no file was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the PDF report for the customer: configuration, plan, charts, assumptions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updated in {total} ms (engine {engine} ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Migrate LUN {id} to...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bind LUN {id}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reallocate LUN {id}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volume migration of LUN {id}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bind LUN...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reallocate...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volume migration group...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace drive {id}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fail drive {id}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority advisor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scenario the timeline, the charts and the canvas show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the current scenario (its events) and switch to the copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Own configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scenario changes the configuration (drives, RAID groups, LUNs, cache, features, workloads): while it is current, edits go to it, not to the project&apos;s configuration the other scenarios run on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save every row of the comparison as a CSV file (numbers unformatted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workload&apos;s response-time target is broken here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin a scenario to draw its curves dashed under the current one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin current</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the current scenario the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete scenario &apos;{name}&apos; and its events?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin a baseline scenario to compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fail a drive of {group}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} more LUNs: right-click them in the {groups} and LUNs tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the cursor where it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the cursor through the plan; the canvas colours drives by utilization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add at the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Priority advisor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete selected operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Duplicate current scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename current scenario...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin current as &amp;baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour drives by &amp;utilization at the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule an operation or event at the cursor time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority of the selected operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start of the selected operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start of the selected operation: h:mm, d hh:mm or decimal hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start not changed: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advisor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the priorities of the selected operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the cursor through the plan (the canvas shows drive utilization)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cursor time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{event} now starts at {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit {event}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot add {kind}: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add {kind}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no LUN can be the destination of LUN {lun} ({why})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LUN {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no unused LUN at least as large is free for {luns}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{kind}: {luns} left out (no unused LUN at least as large is free)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority advisor...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add at {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave works again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: {why}. Trying again in {s} s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The newest autosave failed: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ArrayPlanner did not close properly. The unsaved work below was autosaved; restore what you want to keep. Work you neither restore nor discard is offered again next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each restored project opens in a window of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project was never saved to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decide Later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard this autosaved work? It cannot be recovered afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the autosaved work of {n} sessions? It cannot be recovered afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard autosaved work?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot look for autosaved work: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered unsaved changes from {when}; save them to keep them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another window of this ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ArrayPlanner process {pid} on {host}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another ArrayPlanner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project is open elsewhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path} is open in {holder}.

If both save it, the changes saved first are lost. Open it read-only (save your changes under another name), or open it anyway?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Read-Only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{operation}: {duration}; it does not finish within the plan in {share} of the sampled runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{operation}: {duration}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty sampling progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop sampling the uncertainty bands of this prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty bands failed: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty bands…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty bands: {done} of {total} runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No preset value of this platform carries a range: the bands have no width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty bands from {runs} runs over {n} ranged values ({seconds} s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncertainty &amp;Bands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After each prediction, sample the preset values&apos; ranges in the background and show P10-P90 bands and duration ranges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Uncertainty &amp;Sampling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed on disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path} has changed on disk since it was opened or saved here (another window or program saved it).

Overwrite it with this project, losing those changes, or save this project under another name?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path} is open in {holder}.

Overwrite it? The changes saved there are lost, and a save there later overwrites this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path} is read-only.

Replace it anyway (it stays read-only), or save this project under another name?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some user presets could not be read: {problems}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened the built-in example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prediction stopped at an error: this advisory is from the last prediction that ran, before the latest edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last good prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uncertainty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation errors, warnings and the prediction&apos;s advisories; activate one to select its object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(in scenario &apos;{scenario}&apos;: switch to it to select {where})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New {platform}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from an empty array or from an example:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty {platform}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drive and enclosure types to drag onto the layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag a drive into a slot, or an enclosure onto a bus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{mb_s} MB/s sequential, {ms} ms random I/O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enclosures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: {slots} slots, takes{size} {accepts} drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group / LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID groups and the LUNs bound in them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAID layout of a group; owner (SP/controller) of a LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw capacity: all member drives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable capacity of a group (data drives); size of a LUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable capacity not yet bound to LUNs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each RAID group with its LUNs and capacity; select one to edit it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{group}: {layout} ({raid}) on {n} drives; raw {raw}, usable {usable}, allocated {allocated} to LUNs, free {free}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{lun}: {capacity} in {group}, owned by {owner}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>workloads: {names}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{drives}, {spares}. Raw counts every drive, hot spares and drives not in a group included; usable, allocated and free add up the RAID groups.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hot spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unbound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source&gt;target, ... (no unused LUN large enough was found: create target LUNs first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source&gt;target, ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(hatched: waiting)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Phases&lt;/b&gt; of the operations on the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also sweep while this operation of the current scenario runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>During</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned growth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advise priorities across the load levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per operation, the lowest-impact priority that still finishes inside its window at each load level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the plan&apos;s horizon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priorities</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the sweep to see how the response grows with the load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one scenario.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No operation of this scenario has a priority to advise on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Goal Seek</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response at peak ≤</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Growth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usable capacity ≥</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuild within (0: no goal)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MTTDL ≥ (0: no goal)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply Selected Design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add as Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new scenario with the design as its own configuration, to compare with today&apos;s array (Scenario &gt; Compare)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the goals and search the platform&apos;s designs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load &amp;Sweep…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response time against host load, to saturation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Goal Seek…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cheapest designs that meet a response, rebuild and capacity goal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import measured data: {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import measured data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibrate to measured data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fitting the platform&apos;s free parameters to the measured intervals…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply Calibration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured vs predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the measured load…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import &amp;Measured Data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read interval performance data (CSV, iostat, Unisphere Analyzer) and map it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Calibrate to Measured Data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit the platform&apos;s free parameters to the imported measured data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured vs &amp;Predicted…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {n} measured intervals from {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the prediction runs. An operation that needs more time than this still runs to its end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until the last operation ends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At least:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>h:mm, d hh:mm or hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot set the plan length: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a {size} destination LUN for LUN {lun} in {group}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LUN migration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{why}.

{what} and migrate to it? (Undo removes it again.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The I/O profile of a common application: I/O size, reads, randomness and cache hits, each from a cited source (the tooltip of each entry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the workload&apos;s I/O size, reads, randomness and cache hits to the template&apos;s (its IOPS and LUNs stay); Undo takes it back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>workload {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
