"""Variant data files (maps, starting positions) shipped with the package."""
