"""DSC003's shortcut: a long description is read from its start only until it holds more letters
and digits than the name; held here to the plain test (the whole texts' letters and digits)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcplint.rules.descriptions import _repeats, _words


def plain(text: str, name: str) -> bool:
    return bool(_words(name)) and _words(text) == _words(name)


CASES = [
    ("Get weather.", "get_weather"),
    ("Get weather" + "." * 500, "get_weather"),  # long, but only punctuation after the name
    ("Get weather" + " " * 300 + "now", "get_weather"),
    ("User ID", "user_id"),
    ("x" * 10_000, "x"),
    ("İd", "i̇d"),  # a letter whose lower case is two code points
    ("The city to look the weather up for, e.g. Paris or Tokyo.", "city"),
    ("", "city"),
    ("!!!", "!!!"),
]


def test_the_shortcut_gives_the_plain_answer_on_chosen_texts():
    for text, name in CASES:
        assert _repeats(text, name) == plain(text, name), (text[:40], name)
    assert _repeats("Get weather" + "." * 500, "get_weather")  # the long near miss still fires


@given(st.text(max_size=400), st.text(max_size=20))
def test_the_shortcut_gives_the_plain_answer(text, name):
    assert _repeats(text, name) == plain(text, name)


@given(st.text(alphabet="aB_ .-İ1", max_size=30), st.text(alphabet=" ._-!", max_size=600))
def test_a_name_followed_by_any_punctuation(name, tail):
    assert _repeats(name + tail, name) == plain(name + tail, name)
