"""Decoding never raises anything but JsonError, and says why in one line."""

from __future__ import annotations

import pytest

from trajtui.core.io.jsonutil import JsonError, dumps_line, dumps_pretty, loads


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b'{"a":', "ends early"),
        (b'{"a":1} x', "unexpected content"),
        (b"\x00", "invalid JSON"),
        (b"", "invalid JSON"),
        (b"\xff\xfe{}", "invalid JSON"),
    ],
)
def test_errors_are_one_line(data: bytes, fragment: str) -> None:
    with pytest.raises(JsonError) as err:
        loads(data)
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)


def test_invalid_utf8_inside_a_string_is_replaced_and_reported() -> None:
    value, warning = loads(b'{"a":"x\xffy"}')
    assert value == {"a": "x\ufffdy"}
    assert warning is not None and "UTF-8" in warning


def test_nan_is_tolerated_with_a_warning() -> None:
    value, warning = loads(b'{"a": NaN}')
    assert value["a"] != value["a"]
    assert warning is not None and "NaN" in warning


def test_nesting_3000_deep_is_an_error_not_a_crash() -> None:
    with pytest.raises(JsonError, match="nested too deeply"):
        loads(b"[" * 3000 + b"]" * 3000)


def test_deep_values_can_be_dumped() -> None:
    value, _ = loads(b"[" * 1000 + b"]" * 1000)
    text = dumps_pretty(value)
    assert "nested deeper than" in text
    assert "nested deeper than" in dumps_line(value)


def test_a_value_whose_text_is_spread_over_a_thousand_items_is_written_as_a_big_one() -> None:
    """A record's text may be in one string or spread over its items (a thousand messages
    of 30 kB): either way it is judged big (written by the writer that minds the memory
    left), each item looked at counted once against the values looked at."""
    from trajtui.core.io.jsonutil import BIG_RECORD, _bulky

    spread = {"id": "big", "trajectory": [{"type": "message", "content": "z" * 30_000}] * 1000}
    assert BIG_RECORD <= 1000 * 30_000
    assert _bulky(spread)
    assert _bulky([{"text": "y" * (BIG_RECORD // 600 + 1)}] * 1000)
    assert not _bulky({"id": "small", "trajectory": [{"type": "message", "content": "z"}] * 1000})
