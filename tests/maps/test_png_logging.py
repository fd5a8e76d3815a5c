"""libvips at the edge (issue 24): drawing a picture leaves the operator's log to warnings and errors."""

from __future__ import annotations

import logging
import warnings

import pytest

from judge.maps.png import png_size, svg_to_png

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"><rect width="12" height="8" fill="red"/></svg>'


def test_drawing_logs_nothing_below_a_warning_and_warnings_still_pass(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing deprecated is called either
        assert png_size(svg_to_png(SVG)) == (12, 8)
    chatter = [r for r in caplog.records if r.name.startswith("pyvips") and r.levelno < logging.WARNING]
    assert chatter == [], [r.getMessage() for r in chatter]
    logging.getLogger("pyvips").warning("libvips says something that matters")
    assert any(r.getMessage() == "libvips says something that matters" for r in caplog.records)
