"""Map art of the shipped variants (one SVG and one JSON sidecar per variant), drawn by tools/mapgen."""
