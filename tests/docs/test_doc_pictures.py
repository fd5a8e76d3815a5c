"""The docs' map pictures (docs/images) are what the judge draws today: each is drawn again by the
script that made it (tools/mapgen) and compared pixel by pixel, so a change to the maps that
forgets to redraw them fails here instead of leaving the guides showing an older board.

Pixels, not bytes: the same pixels may be deflated into other bytes (an encoder's choice), and
what a reader sees is the pixels."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from judge.maps.vips import vips

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
SCRIPTS = ("doc_images", "doc_image_machiavelli")


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_docs_{name}", ROOT / "tools" / "mapgen" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pixels(path: Path) -> tuple[int, int, bytes]:
    image: Any = vips().Image.new_from_file(str(path), access="sequential")
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    image = image.colourspace("srgb")
    return image.width, image.height, bytes(image.write_to_memory())


@pytest.mark.parametrize("name", SCRIPTS)
def test_each_picture_of_the_docs_is_the_one_the_judge_draws_today(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _script(name)
    monkeypatch.setattr(script, "IMAGES", tmp_path)
    script.main()
    drawn = sorted(tmp_path.glob("*.png"))
    assert drawn, f"tools/mapgen/{name}.py drew nothing"
    stale = [path.name for path in drawn if _pixels(path) != _pixels(IMAGES / path.name)]
    assert not stale, f"redraw with .venv/bin/python tools/mapgen/{name}.py: {stale}"
