"""Pictures of the board (issue 16): the map art's loader, the renderer, PNG output.

Pure apart from reading the art shipped with the variants: a position (and
optionally its orders and their results) in, SVG text or PNG bytes out.
"""
