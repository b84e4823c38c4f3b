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
        <source>{name}  (baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to delete: select drives, an enclosure, a RAID group or a LUN</source>
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
        <source>Select the drives for the RAID group first</source>
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
        <source>Cannot create the project</source>
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
        <source>Messages ({tally})</source>
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
</context>
</TS>
