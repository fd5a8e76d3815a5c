"""The collector paused around a bounded stretch (judge.collector): back as it was found, whoever paused it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import judge.maps.png as png
from judge.collector import collector_paused


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.enable()
    yield
    if not enabled:
        gc.disable()


def test_the_collector_is_off_inside_and_on_again_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_it_is_on_again_after_a_failure_inside() -> None:
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_pause_inside_another_leaves_it_off_until_the_outer_one_ends() -> None:
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_while_it_is_kept_off_on_purpose_leaves_it_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_picture_is_drawn_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def layered(svg: str, red: object) -> bytes:
        seen.append(gc.isenabled())
        return b"picture"

    monkeypatch.setattr(png, "layered_png", layered)
    assert png.svg_to_png("<svg/>") == b"picture"
    assert seen == [False]
    assert gc.isenabled()
