"""Issue 24: a platform declares the stripe a new group starts from (`[raid.<level>]
default_stripe`, `stripes`): ME5 ADAPT 16+2 (8+2 on fewer drives), E-Series DDP 8+2 only; the
create edit takes it, the group edit changes it, and a preset that misplaces it is refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.domain import edits
from app.domain.project import Enclosure, Project
from app.domain.raid import RaidType
from app.store.presets import PresetError, platform_from_text

ME5 = (Path(__file__).parent.parent / "presets" / "platforms" / "dell-me5.toml").read_text()


def test_me5_and_e5700_declare_their_stripes(catalog):
    adapt = catalog.platform("dell-me5").raid_rules[RaidType.DRAID6]
    assert (adapt.default_stripe, adapt.stripes) == (18, (10, 18))
    # 16+2 needs 18 drives and two of spare capacity; fewer drives get ME4's 8+2
    assert [adapt.stripe_for(n) for n in (12, 19, 20, 128)] == [10, 10, 18, 18]
    ddp = catalog.platform("netapp-e5700").raid_rules[RaidType.DDP]
    assert (ddp.default_stripe, ddp.stripes, ddp.stripe_for(11)) == (10, (10,), 10)
    assert catalog.platform("linux-md").raid_rules[RaidType.R60].default_stripe == 0


def test_no_built_in_platform_warns_of_an_unknown_key(catalog):
    # the keys were read but the key list called them unknown ("it is ignored"): a false warning
    # on every ME5 and E5700 project's message list
    found = {pid: [i.text for i in catalog.platform(pid).preset_issues if i.code == "unknown-key"]
             for pid in catalog.platforms}
    assert not any(found.values()), found


def _me5_project(n: int) -> tuple[Project, list[str]]:
    p = Project(platform_id="dell-me5")
    p.enclosures.append(Enclosure(0, 0, "me5084"))
    locs = [f"0_0_{s}" for s in range(n)]
    for loc in locs:
        edits.PlaceDrive(loc, "nlsas-7k2-24000").do(p)
    return p, locs


def test_a_new_group_takes_the_platforms_stripe_and_an_edit_changes_it(catalog):
    p, locs = _me5_project(40)
    op = edits.CreateRaidGroup(RaidType.DRAID6, locs)
    assert op.check(p, catalog) is None
    op.do(p)
    g = p.groups[-1]
    assert g.stripe == 18 and g.math.span_width == 18
    assert edits.stripe_options(p, catalog, RaidType.DRAID6, 40) == (10, 18)
    edits.SetGroupFields(g.id, stripe=10).do(p)
    assert p.group(g.id).stripe == 10
    with pytest.raises(edits.EditError, match="whole number of drives"):
        edits.SetGroupFields(g.id, stripe=-1).do(p)
    # an explicit stripe (the dialog's choice) is kept; a linear level has none
    q, locs = _me5_project(10)
    op = edits.CreateRaidGroup(RaidType.R6, locs, stripe=None)
    assert op.check(q, catalog) is None and op.stripe == 0
    assert edits.stripe_options(q, catalog, RaidType.R6, 10) == ()


def test_raid_50_offers_the_spans_that_split_the_width(catalog):
    p, _ = _me5_project(12)
    # no `stripes` listed: every span of 3 drives or more that gives two or more spans
    assert edits.stripe_options(p, catalog, RaidType.R50, 12) == (3, 4, 6)


@pytest.mark.parametrize("old,new,msg", [
    ("[raid.R6]\nmin = 4\nmax = 16\n", "[raid.R6]\nmin = 4\nmax = 16\ndefault_stripe = 6\n",
     "apply to RAID 50/60 and distributed levels only"),
    ("default_stripe = 18\nstripes = [10, 18]", "default_stripe = 14\nstripes = [10, 18]", "not one of stripes"),
    ("default_stripe = 18\nstripes = [10, 18]", "default_stripe = 3\nstripes = []", "is not a distributed RAID 6 stripe"),
])
def test_a_misplaced_default_stripe_is_refused_naming_the_table(catalog, old, new, msg):
    assert old in ME5
    with pytest.raises(PresetError, match=msg) as e:
        platform_from_text(ME5.replace(old, new), catalog)
    assert "[raid." in str(e.value)
