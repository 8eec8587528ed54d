"""Source mentions in a detail pane: which words become links (``n``/``N`` step through them)."""

from __future__ import annotations

from trajtui.ui.widgets.mentions import Mention, find_mentions


def test_a_mention_is_a_whole_word_only() -> None:
    found = find_mentions(["S3, S30, xS3, S3_ and (S3)."], {"S3": "src-3"})
    assert [(m.start, m.end, m.target) for m in found] == [(0, 2, "src-3"), (23, 25, "src-3")]


def test_the_longest_word_starting_at_a_place_wins_and_mentions_never_overlap() -> None:
    words = {"S3": "plain", "src:S3": "prefixed", "S3.1": "dotted"}
    found = find_mentions(["see src:S3 then S3.1 then S3."], words)
    assert [(m.start, m.target) for m in found] == [(4, "prefixed"), (16, "dotted"), (26, "plain")]


def test_mentions_are_found_on_every_line_with_their_line_number() -> None:
    found = find_mentions(["nothing", "", "A1 and T0", "T0"], {"A1": "a", "T0": "t"})
    assert found == [Mention(2, 0, 2, "a"), Mention(2, 7, 9, "t"), Mention(3, 0, 2, "t")]


def test_thousands_of_sources_each_found_where_named() -> None:
    words = {f"S{i}": f"source-{i}" for i in range(5000)}
    lines = [f"cites S{i} and S{i + 1}; not S{i}x" for i in range(0, 5000, 2)]
    found = find_mentions(lines, words)
    assert len(found) == 5000
    assert found[-1] == Mention(2499, 16, 21, "source-4999")


def test_no_words_or_no_text_means_no_mentions() -> None:
    assert find_mentions(["S1"], {}) == []
    assert find_mentions([], {"S1": "x"}) == []
