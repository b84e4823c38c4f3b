"""The GUI starts when the user preset folder holds malformed files: each is named in the status
bar with its reason, the built-in platforms are all there, and the window works."""
from __future__ import annotations

from app.store import presets
from configurator_support import isolated, settle  # noqa: F401

BAD = {
    "not-toml.toml": "id = [this is not toml",
    "controllers.toml": "controllers = 3\nid = 'x'\n",
    "raid.toml": 'id = "r"\nname = "R"\nsource = "s"\nrates = "clariion-flare28"\ndrive_types = []\nraid = 3\n'
                 '[[controllers]]\nname = "A"\n',
    "drive.toml": '[[drive]]\nid = "d"\nname = "D"\ninterface = "PATA"\ncapacity_gb = 1\nseq_mb_s = 1\n'
                  'random_ms = 1\nsource = "s"\n',
    "rates.toml": 'rates_id = "clariion-flare28"\n[host]\nmax_util = { value = 9, source = "me" }\n',
}


def test_gui_starts_with_malformed_user_presets(qtbot, isolated, monkeypatch, tmp_path):
    users = tmp_path / "user-presets"
    users.mkdir()
    for name, text in BAD.items():
        (users / name).write_text(text)
    monkeypatch.setenv("ARRAYPLANNER_PRESETS", str(users))
    monkeypatch.setattr(presets, "_CATALOG", None)
    from app.ui.launch import build_window

    w = build_window(offer_recovery=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot)
    catalog = w.document.catalog
    assert {"emc-cx4-960-r28", "hp-sa6402-msa30", "dell-md3200"} <= set(catalog.platforms)
    assert catalog.platform("emc-cx4-960-r28").rates.param("host.max_util").value == 0.97
    said = w.statusBar().currentMessage()
    assert said.startswith("Some user presets could not be read")
    for name in BAD:
        assert name in said, (name, said)
    assert "NVMe" in said and "FC, SAS, SATA, SSD, SCSI" in said
