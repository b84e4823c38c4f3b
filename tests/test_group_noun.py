"""The platform preset names its RAID-group noun (group_noun): each vendor's own word, checked
when the preset loads, with the file and key named when it is unusable."""
from __future__ import annotations

import pytest

from app.domain.hardware import group_noun, group_title
from app.store.presets import PresetError, default_catalog, platform_from_text

try:
    from test_custom_platforms import EMC, user_platform
except ImportError:
    from tests.test_custom_platforms import EMC, user_platform


def test_each_vendor_names_its_groups_as_its_documents_do():
    catalog = default_catalog()
    nouns = {pid: p.group_noun for pid, p in catalog.platforms.items()}
    assert nouns["dell-md3200"] == nouns["dell-md3200i"] == "Disk Group"
    assert nouns["emc-cx4-960-r28"] == "RAID Group"
    assert nouns["netapp-fas-ontap"] == "Aggregate"
    assert nouns["linux-md"] == "RAID group"  # none given: the default
    dell = catalog.platform("dell-md3200")
    assert group_title(dell, 3) == "Disk Group 3" and group_title(dell, 3, "logs") == "logs"
    assert group_noun(dell, plural=True, in_sentence=True) == "disk groups"
    assert group_noun(catalog.platform("emc-cx4-960-r28"), in_sentence=True) == "RAID group"  # acronyms kept
    assert group_title(None, 2) == "RAID group 2"


@pytest.mark.parametrize("bad", ['"RG 3"', '""', '"x"', "7", '"Disk  Group"'])
def test_an_unusable_group_noun_is_refused_naming_the_key(bad):
    text = user_platform(text=EMC.replace('group_noun = "RAID Group"', f"group_noun = {bad}"))
    with pytest.raises(PresetError, match="group_noun"):
        platform_from_text(text, default_catalog())


def test_a_user_platform_may_name_its_own_noun():
    text = user_platform(text=EMC.replace('group_noun = "RAID Group"', 'group_noun = "Storage Pool"'))
    assert platform_from_text(text, default_catalog()).group_noun == "Storage Pool"
