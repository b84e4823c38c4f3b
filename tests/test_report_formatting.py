"""app.domain.formatting: the one set of number formats shared by the GUI, the report and the CLI."""
import math

import pytest

from app.domain.formatting import (
    DASH, format_capacity, format_count, format_duration, format_hours, format_iops, format_mb, format_ms,
    format_mttdl, format_pct, format_rate, format_setting, format_sig, format_time, format_value,
)


@pytest.mark.parametrize("hours, text", [
    (0.0, "0 s"), (10 / 3600, "10 s"), (0.38, "23 min"), (1.0, "1 h"), (2.533, "2 h 32 min"),
    (4.84, "4 h 50 min"), (47.9, "47 h 54 min"), (100.0, "4 d 4 h"), (72.0, "3 d"), (None, "not finished"),
    (59.6 / 60, "1 h"),
])
def test_duration(hours, text):
    assert format_duration(hours) == text


@pytest.mark.parametrize("hours, text", [
    (0.0, "0:00"), (2.533, "2:32"), (23.99, "23:59"), (26.5, "1 d 02:30"), (None, "not finished"),
])
def test_plan_time(hours, text):
    assert format_time(hours) == text


@pytest.mark.parametrize("gb, text", [
    (0.5, "512 MB"), (73.4, "73.4 GB"), (100.0, "100 GB"), (133.7, "133.7 GB"), (1072.0, "1,072 GB"),
    (4096.0, "4,096 GB"), (12800.0, "12.5 TB"), (0.0, "0 GB"),
])
def test_capacity(gb, text):
    assert format_capacity(gb) == text


def test_mb_is_capacity_of_1024():
    assert format_mb(102400.0) == "100 GB"


@pytest.mark.parametrize("x, text", [(3.4, "3.4 MB/s"), (0.25, "0.25 MB/s"), (12.2, "12.2 MB/s"),
                                     (144.0, "144 MB/s"), (1200.0, "1,200 MB/s"), (40.0, "40 MB/s")])
def test_rate(x, text):
    assert format_rate(x) == text


def test_small_formats():
    assert [format_pct(x) for x in (0, 0.44, 4.5, 45.4, 100)] == ["0%", "0.4%", "4.5%", "45%", "100%"]
    assert [format_ms(x) for x in (0.453, 6.2, 12.34, 123.4, 1250)] == [
        "0.453 ms", "6.2 ms", "12.3 ms", "123 ms", "1,250 ms"]
    assert format_iops(2000) == "2,000 IOPS" and format_iops(85.5) == "85.5 IOPS"
    assert format_count(1000) == "1,000"
    assert format_hours(4.84) == "4.84 h"
    assert format_sig(0.000123) == "0.000123"


def test_mttdl():
    assert format_mttdl(8760 * 3.5) == "3.5 years"
    assert format_mttdl(8760 * 4200) == "4,200 years"
    assert format_mttdl(8760 * 1.2e6) == "1.2 million years"
    assert format_mttdl(100.0) == "4 d 4 h"
    assert format_mttdl(math.inf) == "no data loss"


def test_missing_values_are_a_dash():
    for f in (format_capacity, format_rate, format_pct, format_ms, format_mttdl):
        assert f(None) == DASH
        assert f(float("nan")) == DASH


def test_value_by_unit_and_settings():
    assert format_value(12.2, "MB/s") == "12.2 MB/s"
    assert format_value(80, "%") == "80%"
    assert format_value(0.95, "") == "0.95"
    assert format_value(3.0, "x") == "3 x"
    assert format_setting(True) == "on" and format_setting(False) == "off"
    assert format_setting(3000, "MB") == "3,000 MB"
    assert format_setting(80, "%") == "80%"
    assert format_setting("High") == "High"
