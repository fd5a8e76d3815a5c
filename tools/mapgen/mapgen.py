"""Draw the map art of the shipped variants: ``judge/variants/maps/<variant>.svg`` and ``.json``.

Our own generator (no map art from other projects). Each province gets a seed at
an approximate real-world position (``seeds.py``: latitudes and longitudes of the
places provinces stand for, projected); regions then grow on a fine grid from the
seeds under one rule that makes the drawing agree with the game: a cell may join
province P only if every already-assigned neighbouring cell belongs to P or to a
game neighbour of P. Non-neighbours therefore never share a border (a one-cell
"void" line stays between them). Missing contacts are repaired by moving seeds
towards each other and growing again, then by corridors through void cells;
what still cannot touch (a non-planar adjacency such as Pure's seven-way
borders, or the world map's wrap-around Pacific) is declared in the sidecar's
``crossings`` and drawn by the renderer as a marker.

The cell regions are traced into closed polygons whose vertices are the grid
points where the boundary turns or where three regions meet, so two neighbours
share exactly the same vertices along their common border.

Usage: ``python tools/mapgen/mapgen.py [variant ...]`` (default: all shipped).
"""

from __future__ import annotations

import heapq
import json
import math
import sys
from collections import deque
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VARIANTS = ROOT / "judge" / "variants"
MAPS = VARIANTS / "maps"
sys.path.insert(0, str(HERE))

import seeds as seed_tables  # noqa: E402

PENALTY = 6.0
SMOOTHING = 0.8  # cells: how far a simplified border may stray from the cells' staircase
CACHE = Path("/tmp/mapgen-cache")
OUTSIDE = -2
BLOCKED = -3  # land that is no province, kept out of the growth (Ireland on the Standard map)
VOID = -1
STYLE = (
    ".land{fill:#eee2c0;stroke:#7a6a48;stroke-width:1;stroke-linejoin:round}"
    ".sea{fill:#a8c8e6;stroke:#5f84ad;stroke-width:1;stroke-linejoin:round}"
    ".void{fill:#cfcbbf;stroke:none}"
)


def read_neighbours(name: str) -> dict[str, set[str]]:
    provinces, edges = read_variant(name)
    out: dict[str, set[str]] = {c: set() for c in provinces}
    for e in edges:
        a, b = tuple(e)
        out[a].add(b)
        out[b].add(a)
    return out


def variant_file(name: str) -> Path:
    """A variant's file, or a scenario's kept in a directory of its own (``machiavelli/``)."""
    plain = VARIANTS / f"{name}.json"
    return plain if plain.exists() else VARIANTS / name / f"{name}.json"


def read_variant(name: str) -> tuple[dict[str, dict], set[frozenset[str]]]:
    data = json.loads(variant_file(name).read_text(encoding="utf-8"))
    provinces = data["provinces"]
    edges: set[frozenset[str]] = set()
    for code, entry in provinces.items():
        borders = list(entry.get("army", [])) + list(entry.get("fleet", []))
        for coast in entry.get("coasts", {}).values():
            borders += list(coast)
        for other in borders:
            base = other.split("/")[0]
            if base != code:
                edges.add(frozenset((code, base)))
    return provinces, edges


class Layout:
    """One attempt: seeds in pixels, grown into cell regions."""

    def __init__(
        self, codes: list[str], neighbours: dict[str, set[str]], width: int, height: int, cell: int
    ):
        self.codes = codes
        self.index = {c: i for i, c in enumerate(codes)}
        self.nb = [set(self.index[n] for n in neighbours[c]) for c in codes]
        self.cell = cell
        self.cols = width // cell
        self.rows = height // cell
        self.width = self.cols * cell
        self.height = self.rows * cell
        self.land: list[bool] | None = None
        self.blocked: set[int] = set()
        self.landish: list[bool] = []

    def grow(
        self,
        seeds: list[tuple[float, float]],
        weights: list[float],
        more: list[tuple[int, float, float]] = (),
    ) -> list[int]:
        """Grow every province from its seed (Dijkstra on path cost: crossing the
        wrong terrain of the land mask costs ``PENALTY`` times more), under the
        neighbour rule."""
        cols, rows, cs = self.cols, self.rows, self.cell
        land = self.land
        wet = self.landish
        owner = [VOID] * (cols * rows)
        for k in self.blocked:
            owner[k] = BLOCKED
        heap: list[tuple[float, int, int]] = []
        for p, x, y in [(p, x, y) for p, (x, y) in enumerate(seeds)] + list(more):
            i = min(cols - 1, max(0, int(x / cs)))
            j = min(rows - 1, max(0, int(y / cs)))
            heapq.heappush(heap, (0.0, j * cols + i, p))
        nb = self.nb
        while heap:
            cost, k, p = heapq.heappop(heap)
            if owner[k] != VOID:
                continue
            i, j = k % cols, k // cols
            ok = True
            around = []
            if i > 0:
                around.append(k - 1)
            if i < cols - 1:
                around.append(k + 1)
            if j > 0:
                around.append(k - cols)
            if j < rows - 1:
                around.append(k + cols)
            for m in around:
                o = owner[m]
                if o >= 0 and o != p and o not in nb[p]:
                    ok = False
                    break
            if not ok:
                continue
            owner[k] = p
            w = weights[p]
            for m in around:
                if owner[m] == VOID:
                    step = 1.0 if land is None or land[m] == wet[p] else PENALTY
                    heapq.heappush(heap, (cost + step / w, m, p))
        return owner

    def contacts(self, owner: list[int]) -> set[tuple[int, int]]:
        cols, rows = self.cols, self.rows
        found: set[tuple[int, int]] = set()
        for k, a in enumerate(owner):
            if a < 0:
                continue
            i = k % cols
            if i < cols - 1:
                b = owner[k + 1]
                if b >= 0 and b != a:
                    found.add((min(a, b), max(a, b)))
            if k + cols < cols * rows:
                b = owner[k + cols]
                if b >= 0 and b != a:
                    found.add((min(a, b), max(a, b)))
        return found

    def legal(self, owner: list[int], k: int, p: int) -> bool:
        cols, rows = self.cols, self.rows
        i, j = k % cols, k // cols
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a, b = i + di, j + dj
            if 0 <= a < cols and 0 <= b < rows:
                o = owner[b * cols + a]
                if o >= 0 and o != p and o not in self.nb[p]:
                    return False
        return True

    def corridor(self, owner: list[int], a: int, b: int) -> list[int] | None:
        """A path of cells to paint for ``a`` (void cells cheap, other provinces' cells dearer) from
        its region to a cell touching ``b``, every cell legal for ``a``; None if there is none."""
        cols, rows = self.cols, self.rows
        dist: dict[int, float] = {}
        prev: dict[int, int] = {}
        heap: list[tuple[float, int]] = []
        for k, o in enumerate(owner):
            if o == a:
                dist[k] = 0.0
                prev[k] = -1
                heap.append((0.0, k))
        heapq.heapify(heap)
        while heap:
            d, k = heapq.heappop(heap)
            if d > dist.get(k, math.inf):
                continue
            i, j = k % cols, k // cols
            if owner[k] != a:
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    x, y = i + di, j + dj
                    if 0 <= x < cols and 0 <= y < rows and owner[y * cols + x] == b:
                        path = []
                        while owner[k] != a:
                            path.append(k)
                            k = prev[k]
                        return path
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x, y = i + di, j + dj
                if not (0 <= x < cols and 0 <= y < rows):
                    continue
                m = y * cols + x
                o = owner[m]
                if o in (a, b) or o == BLOCKED:
                    continue
                step = 1.0 if o == VOID else (2.0 if self.on_edge(owner, m) else 6.0)
                nd = d + step
                if nd < dist.get(m, math.inf) and self.legal_path(owner, m, a, prev, k):
                    dist[m] = nd
                    prev[m] = k
                    heapq.heappush(heap, (nd, m))
        return None

    def on_edge(self, owner: list[int], m: int) -> bool:
        """Whether cell ``m`` lies on its province's edge (a corridor there splits nothing)."""
        cols, rows = self.cols, self.rows
        i, j = m % cols, m // cols
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = i + di, j + dj
            if not (0 <= x < cols and 0 <= y < rows) or owner[y * cols + x] != owner[m]:
                return True
        return False

    def legal_path(self, owner: list[int], m: int, a: int, prev: dict[int, int], k: int) -> bool:
        """Cell ``m`` may become ``a``: its neighbours are ``a``, neighbours of ``a``, or cells that
        the path itself paints (``k``, the cell before it)."""
        cols, rows = self.cols, self.rows
        i, j = m % cols, m // cols
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = i + di, j + dj
            if 0 <= x < cols and 0 <= y < rows:
                n = y * cols + x
                if n == k:
                    continue
                o = owner[n]
                if o >= 0 and o != a and o not in self.nb[a]:
                    return False
        return True

    def connected(self, owner: list[int], p: int) -> bool:
        cells = [k for k, o in enumerate(owner) if o == p]
        if not cells:
            return False
        return len(components_of(owner, self.cols, self.rows, p, cells[0])) == len(cells)

    def repair(self, owner: list[int], wanted: set[tuple[int, int]]) -> list[int]:
        """Add corridors for missing contacts while each one lowers the count and keeps every
        province in one piece and every cell's neighbours legal."""
        missing = wanted - self.contacts(owner)
        for a, b in sorted(missing):
            if (a, b) not in missing:
                continue
            for x, y in ((a, b), (b, a)):
                path = self.corridor(owner, x, y)
                if path is None:
                    continue
                trial = list(owner)
                victims = {trial[c] for c in path if trial[c] >= 0}
                for c in path:
                    trial[c] = x
                if not all(self.legal(trial, c, trial[c]) for c in path):
                    continue
                if not all(self.connected(trial, v) for v in victims):
                    continue
                now = wanted - self.contacts(trial)
                if len(now) < len(missing):
                    owner = trial
                    missing = now
                    break
        return owner


def hollow_out(layout: Layout, owner: list[int], wanted: set[tuple[int, int]]) -> list[int]:
    """Land that sea provinces took (islands that are no province: Ireland, Iceland...) and water
    that land provinces took (lakes) become void, one piece at a time, when the piece is enclosed
    by provinces of its owner's kind (not a strip along a coast), and voiding it loses no contact
    and leaves its province in one piece."""
    land = layout.land
    if land is None:
        return owner
    cols, rows = layout.cols, layout.rows
    before = wanted - layout.contacts(owner)
    odd = {k for k, o in enumerate(owner) if o >= 0 and land[k] != layout.landish[o]}
    seen: set[int] = set()
    for start in sorted(odd):
        if start in seen:
            continue
        p = owner[start]
        members = components_of(owner, cols, rows, p, start, within=odd)
        seen |= members
        piece = sorted(members)
        around = 0
        foreign = 0
        for c in piece:
            i, j = c % cols, c // cols
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x, y = i + di, j + dj
                if 0 <= x < cols and 0 <= y < rows:
                    m = y * cols + x
                    o = owner[m]
                    if m in members or m in odd or o < 0:
                        continue
                    around += 1
                    if layout.landish[o] != layout.landish[p]:
                        foreign += 1
        # enclosed by provinces of its owner's kind (a strait may let it touch the other kind)
        if len(piece) < 10 or foreign > 0.15 * around:
            continue  # a strip along a coast, not an island or a lake
        trial = list(owner)
        for c in piece:
            trial[c] = VOID
        if layout.connected(trial, p) and wanted - layout.contacts(trial) == before:
            owner = trial
    return owner


def components_of(
    owner: list[int], cols: int, rows: int, p: int, start: int, within: set[int] | None = None
) -> set[int]:
    """The cells of owner ``p`` joined to ``start`` side by side (only cells ``within``, if given)."""
    seen = {start}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        i, j = c % cols, c // cols
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = i + di, j + dj
            if 0 <= x < cols and 0 <= y < rows:
                m = y * cols + x
                if m not in seen and owner[m] == p and (within is None or m in within):
                    seen.add(m)
                    queue.append(m)
    return seen


PROJECTION = "mercator"
VARIANT = ""


def project(lat: float, lon: float) -> tuple[float, float]:
    if PROJECTION == "plate":
        return math.radians(lon), -math.radians(lat)
    lat = max(-80.0, min(80.0, lat))
    return math.radians(lon), -math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def unproject(x: float, y: float) -> tuple[float, float]:
    if PROJECTION == "plate":
        return math.degrees(-y), math.degrees(x)
    return math.degrees(2 * math.atan(math.exp(-y)) - math.pi / 2), math.degrees(x)


def land_mask(
    layout: Layout, transform: tuple[float, float, float, float, float]
) -> list[bool] | None:
    """Which cells are land on the real globe (public-domain GLOBE elevation data, through the
    ``global-land-mask`` package), or None without that package (then seeds alone decide)."""
    try:
        from global_land_mask import globe  # type: ignore[import-not-found]
    except ImportError:
        print("global-land-mask not installed: drawing without coastlines", file=sys.stderr)
        return None
    minx, miny, scale, ox, oy = transform
    out = []
    for j in range(layout.rows):
        for i in range(layout.cols):
            x = ((i + 0.5) * layout.cell - ox) / scale + minx
            y = ((j + 0.5) * layout.cell - oy) / scale + miny
            lat, lon = seed_tables.unwarp(VARIANT, *unproject(x, y))
            lat = max(-89.9, min(89.9, lat))
            lon = (lon + 180.0) % 360.0 - 180.0
            lake = any(a <= lat <= b and c <= lon <= d for a, b, c, d in seed_tables.LAKES)
            out.append(bool(globe.is_land(lat, lon)) and not lake)
    return out


def place_seeds(
    variant: str, codes: list[str], neighbours: dict[str, set[str]], provinces: dict
) -> dict[str, tuple[float, float]]:
    table = seed_tables.positions(variant, provinces)
    known = {c: project(*seed_tables.warp(variant, *table[c])) for c in codes if c in table}
    if not known:
        # no geography (Pure): a circle
        n = len(codes)
        return {
            c: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n))
            for i, c in enumerate(codes)
        }
    pos = dict(known)
    cx = sum(x for x, _ in known.values()) / len(known)
    cy = sum(y for _, y in known.values()) / len(known)
    for c in codes:
        pos.setdefault(c, (cx, cy))
    for _ in range(200):
        for c in codes:
            if c in known:
                continue
            ns = [pos[n] for n in neighbours[c]]
            if ns:
                pos[c] = (sum(x for x, _ in ns) / len(ns), sum(y for _, y in ns) / len(ns))
    return pos


def fit(
    pos: dict[str, tuple[float, float]],
    target_width: int,
    bounds: list[tuple[float, float]] = [],  # noqa: B006 (read only)
):
    """The canvas round the seeds and the ``bounds`` (points the board must show), 5% margin."""
    xs = [x for x, _ in pos.values()] + [x for x, _ in bounds]
    ys = [y for _, y in pos.values()] + [y for _, y in bounds]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    span_x = max(maxx - minx, 1e-6)
    span_y = max(maxy - miny, 1e-6)
    margin = 0.05
    scale = target_width * (1 - 2 * margin) / span_x
    height = int(span_y * scale / (1 - 2 * margin))
    height = max(height, int(target_width * 0.45))
    ox = target_width * margin
    oy = (height - span_y * scale) / 2
    out = {c: ((x - minx) * scale + ox, (y - miny) * scale + oy) for c, (x, y) in pos.items()}
    return out, target_width, height, (minx, miny, scale, ox, oy)


def trace(
    owner: list[int],
    cols: int,
    rows: int,
    cell: int,
    p: int,
    keep: set[tuple[int, int]] | None = None,
) -> list[list[tuple[int, int]]]:
    """Closed loops (grid points) around the cells of ``p``, keeping only the points in ``keep``
    (the simplified border chains' points, the same for both sides of a border), or without
    ``keep`` the turning and junction points."""

    def lab(i: int, j: int) -> int:
        if 0 <= i < cols and 0 <= j < rows:
            return owner[j * cols + i]
        return OUTSIDE

    def kept(x: int, y: int) -> bool:
        a, b, c, d = lab(x - 1, y - 1), lab(x, y - 1), lab(x - 1, y), lab(x, y)
        return not ((a == b and c == d) or (a == c and b == d))

    out_edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for k, o in enumerate(owner):
        if o != p:
            continue
        i, j = k % cols, k // cols
        if lab(i, j - 1) != p:
            out_edges.setdefault((i, j), []).append((i + 1, j))
        if lab(i + 1, j) != p:
            out_edges.setdefault((i + 1, j), []).append((i + 1, j + 1))
        if lab(i, j + 1) != p:
            out_edges.setdefault((i + 1, j + 1), []).append((i, j + 1))
        if lab(i - 1, j) != p:
            out_edges.setdefault((i, j + 1), []).append((i, j))
    loops = []
    while out_edges:
        start = next(iter(out_edges))
        loop = [start]
        cur = start
        while True:
            nxts = out_edges[cur]
            nxt = nxts.pop()
            if not nxts:
                del out_edges[cur]
            if nxt == start:
                break
            loop.append(nxt)
            cur = nxt
        pts = [v for v in loop if (v in keep if keep is not None else kept(*v))]
        if len(pts) >= 3:
            loops.append([(x * cell, y * cell) for x, y in pts])
    return loops


def border_points(
    owner: list[int], cols: int, rows: int, tolerance: float, smooth_void: bool = True
) -> set[tuple[int, int]]:
    """The grid points every outline keeps: junctions (three regions or more meet, or a pinch),
    and the points Douglas-Peucker keeps on each border chain between junctions. Both sides of a
    border simplify the same chain, so neighbours keep sharing exactly the same vertices."""

    def lab(i: int, j: int) -> int:
        if 0 <= i < cols and 0 <= j < rows:
            return owner[j * cols + i]
        return OUTSIDE

    links: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for y in range(rows + 1):
        for x in range(cols + 1):
            if x < cols and lab(x, y - 1) != lab(x, y):
                links.setdefault((x, y), []).append((x + 1, y))
                links.setdefault((x + 1, y), []).append((x, y))
            if y < rows and lab(x - 1, y) != lab(x, y):
                links.setdefault((x, y), []).append((x, y + 1))
                links.setdefault((x, y + 1), []).append((x, y))
    nodes: set[tuple[int, int]] = set()
    for (x, y), nbs in links.items():
        a, b, c, d = lab(x - 1, y - 1), lab(x, y - 1), lab(x - 1, y), lab(x, y)
        if len(nbs) != 2 or len({a, b, c, d}) >= 3:
            nodes.add((x, y))
        elif x in (0, cols) and y in (0, rows):
            nodes.add((x, y))  # the frame's corners stay where they are
    seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    keep = set(nodes)

    def walk(start: tuple[int, int], nxt: tuple[int, int]) -> list[tuple[int, int]]:
        chain = [start]
        prev, cur = start, nxt
        seen.add((start, nxt))
        seen.add((nxt, start))
        while True:
            chain.append(cur)
            if cur in nodes:
                return chain
            options = [v for v in links[cur] if v != prev and (cur, v) not in seen]
            if not options:
                return chain
            prev, cur = cur, options[0]
            seen.add((prev, cur))
            seen.add((cur, prev))

    def straight(x: int, y: int) -> bool:
        a, b, c, d = lab(x - 1, y - 1), lab(x, y - 1), lab(x - 1, y), lab(x, y)
        return (a == b and c == d) or (a == c and b == d)

    def sides(u: tuple[int, int], v: tuple[int, int]) -> set[int]:
        (x1, y1), (x2, y2) = u, v
        if y1 == y2:
            x = min(x1, x2)
            return {lab(x, y1 - 1), lab(x, y1)}
        y = min(y1, y2)
        return {lab(x1 - 1, y), lab(x1, y)}

    def open_void(chain: list[tuple[int, int]]) -> bool:
        """Whether the void along ``chain`` is an island or a lake rather than a line: away from
        the chain's ends, none of its cells touches two provinces."""
        if not smooth_void or len(chain) < 6:
            return False
        for x, y in chain[2:-2]:
            for i, j in ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)):
                if lab(i, j) != VOID:
                    continue
                left, right, up, down = lab(i - 1, j), lab(i + 1, j), lab(i, j - 1), lab(i, j + 1)
                if len({o for o in (left, right, up, down) if o >= 0}) > 1:
                    return False
        return True

    def simplify(chain: list[tuple[int, int]]) -> None:
        if VOID in sides(chain[0], chain[1]) and not open_void(chain):
            # a void line between non-neighbours stays a staircase: smoothed, both its sides
            # could fold onto one straight segment between the same two corners
            keep.update(v for v in chain if not straight(*v))
            return
        stack = [(0, len(chain) - 1)]
        while stack:
            i, j = stack.pop()
            if j <= i + 1:
                continue
            (x1, y1), (x2, y2) = chain[i], chain[j]
            dx, dy = x2 - x1, y2 - y1
            norm = math.hypot(dx, dy)
            best, best_d = -1, -1.0
            for k in range(i + 1, j):
                px, py = chain[k]
                if norm == 0:
                    d = math.hypot(px - x1, py - y1)
                else:
                    d = abs(dx * (y1 - py) - dy * (x1 - px)) / norm
                if d > best_d:
                    best, best_d = k, d
            if best_d > tolerance or (norm == 0 and j - i > 1 and best_d > 0):
                keep.add(chain[best])
                stack.append((i, best))
                stack.append((best, j))

    for node in sorted(nodes):
        for nb in links[node]:
            if (node, nb) not in seen:
                simplify(walk(node, nb))
    for start in sorted(links):
        for nb in links[start]:
            if (start, nb) not in seen:
                nodes.add(start)
                keep.add(start)
                simplify(walk(start, nb))
    return keep


def folded(owner, cols, rows, cell, keep, codes, neighbours) -> bool:  # type: ignore[no-untyped-def]
    """Whether two provinces that are no neighbours share a segment of the simplified outlines."""
    by_segment: dict[frozenset[tuple[int, int]], set[int]] = {}
    for p in range(len(codes)):
        for loop in trace(owner, cols, rows, cell, p, keep):
            for n, a in enumerate(loop):
                by_segment.setdefault(frozenset((a, loop[(n + 1) % len(loop)])), set()).add(p)
    for sharing in by_segment.values():
        for a in sharing:
            for b in sharing:
                if a < b and codes[b] not in neighbours[codes[a]]:
                    return True
    return False


def components(owner: list[int], cols: int, rows: int, value: int) -> list[list[int]]:
    seen = set()
    comps = []
    for k, o in enumerate(owner):
        if o != value or k in seen:
            continue
        comp = []
        queue = deque([k])
        seen.add(k)
        while queue:
            c = queue.popleft()
            comp.append(c)
            i, j = c % cols, c // cols
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x, y = i + di, j + dj
                if 0 <= x < cols and 0 <= y < rows:
                    m = y * cols + x
                    if m not in seen and owner[m] == value:
                        seen.add(m)
                        queue.append(m)
        comps.append(comp)
    return comps


def depth_map(owner: list[int], cols: int, rows: int, p: int) -> dict[int, int]:
    """Distance (in cells) of each cell of ``p`` from the nearest cell not in ``p``."""
    depth: dict[int, int] = {}
    queue: deque[int] = deque()
    cells = [k for k, o in enumerate(owner) if o == p]
    for k in cells:
        i, j = k % cols, k // cols
        edge = False
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = i + di, j + dj
            if not (0 <= x < cols and 0 <= y < rows) or owner[y * cols + x] != p:
                edge = True
                break
        if edge:
            depth[k] = 0
            queue.append(k)
    while queue:
        k = queue.popleft()
        i, j = k % cols, k // cols
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = i + di, j + dj
            if 0 <= x < cols and 0 <= y < rows:
                m = y * cols + x
                if owner[m] == p and m not in depth:
                    depth[m] = depth[k] + 1
                    queue.append(m)
    return depth


def inside(point: tuple[float, float], loops: list[list[tuple[int, int]]]) -> bool:
    """Even-odd rule, as the paths are filled."""
    x, y = point
    count = 0
    for loop in loops:
        for n, (x1, y1) in enumerate(loop):
            x2, y2 = loop[(n + 1) % len(loop)]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                count += 1
    return count % 2 == 1


def clearly_inside(point: list[float], loops: list[list[tuple[int, int]]]) -> bool:
    """Inside ``loops``, and so are the points half a pixel around it."""
    x, y = point
    return all(
        inside((x + dx, y + dy), loops) for dx, dy in ((0, 0), (0.5, 0), (-0.5, 0), (0, 0.5), (0, -0.5))
    )


def anchors(
    owner: list[int],
    cols: int,
    rows: int,
    cell: int,
    codes: list[str],
    provinces: dict,
    outlines: dict[str, list[list[tuple[int, int]]]],
) -> dict:
    """Anchor points, each a cell centre inside the province's drawn (simplified) outline."""
    index = {c: i for i, c in enumerate(codes)}
    result = {}

    def xy(k: int) -> list[float]:
        return [round((k % cols + 0.5) * cell, 1), round((k // cols + 0.5) * cell, 1)]

    def far_from(depth: dict[int, int], points: list[int], min_px: float) -> int:
        best, best_score = None, -1.0
        for k, d in depth.items():
            x, y = xy(k)
            gap = min((math.hypot(x - xy(q)[0], y - xy(q)[1]) for q in points), default=1e9)
            if gap < min_px:
                continue
            score = d + min(gap, 3 * min_px) / (10 * cell)
            if score > best_score:
                best, best_score = k, score
        if best is None:
            best = max(depth, key=lambda k: (depth[k], -k))
        return best

    for code in codes:
        p = index[code]
        entry = provinces[code]
        depth = depth_map(owner, cols, rows, p)
        loops = outlines[code]
        # clearly inside: a point on a simplified border would be in or out by a rounding
        within = {k: d for k, d in depth.items() if clearly_inside(xy(k), loops)}
        if not within:
            spot = next(
                [float(x), float(y)]
                for y in range(0, rows * cell, 1)
                for x in range(0, cols * cell, 1)
                if inside((x + 0.25, y + 0.25), loops)
            )
            spot = [spot[0] + 0.25, spot[1] + 0.25]
            coasts = {name: spot for name in entry.get("coasts", {})}
            centre_spot = spot if entry.get("supply_center") else None
            result[code] = {"label": spot, "unit": spot, "coasts": coasts, "centre": centre_spot}
            continue
        depth = within
        unit = max(depth, key=lambda k: (depth[k], -k))
        label = far_from(depth, [unit], 24.0)
        centre = far_from(depth, [unit, label], 14.0) if entry.get("supply_center") else None
        coasts = {}
        for coast_name, reach in entry.get("coasts", {}).items():
            reached = {r.split("/")[0] for r in reach}
            water = {r for r in reached if provinces[r]["terrain"] == "water"}
            seas = {index[r] for r in (water or reached)}  # the coast faces its seas
            touching = []
            for k in depth:
                i, j = k % cols, k // cols
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    x, y = i + di, j + dj
                    if 0 <= x < cols and 0 <= y < rows and owner[y * cols + x] in seas:
                        touching.append(k)
                        break
            if not touching:
                touching = list(depth)
            mx = sum(k % cols for k in touching) / len(touching)
            my = sum(k // cols for k in touching) / len(touching)
            pick = min(
                depth,
                key=lambda k: (
                    math.hypot(k % cols - mx, k // cols - my)
                    + (3 if depth[k] < 2 and max(depth.values()) >= 2 else 0)
                ),
            )
            coasts[coast_name] = xy(pick)
        result[code] = {
            "label": xy(label),
            "unit": xy(unit),
            "coasts": coasts,
            "centre": xy(centre) if centre is not None else None,
        }
    return result


def generate(variant: str, target_width: int = 1200, cell: int = 5, rounds: int = 4) -> dict:
    provinces, edges = read_variant(variant)
    codes = sorted(provinces)
    neighbours: dict[str, set[str]] = {c: set() for c in codes}
    for e in edges:
        a, b = tuple(e)
        neighbours[a].add(b)
        neighbours[b].add(a)
    raw = place_seeds(variant, codes, neighbours, provinces)
    bounds = [project(*seed_tables.warp(variant, lat, lon)) for lat, lon in seed_tables.extent(variant)]
    pos, width, height, transform = fit(raw, target_width, bounds)
    minx, miny, scale, ox, oy = transform
    more = []
    for code, points in seed_tables.extra(variant).items():
        for lat, lon in points:
            x, y = project(*seed_tables.warp(variant, lat, lon))
            more.append((codes.index(code), (x - minx) * scale + ox, (y - miny) * scale + oy))
    layout = Layout(codes, neighbours, width, height, cell)
    if seed_tables.uses_land_mask(variant):
        layout.land = land_mask(layout, transform)
    layout.landish = [provinces[c]["terrain"] != "water" for c in codes]
    if layout.land is not None:
        for j in range(layout.rows):
            for i in range(layout.cols):
                k = j * layout.cols + i
                if not layout.land[k]:
                    continue
                x = ((i + 0.5) * cell - ox) / scale + minx
                y = ((j + 0.5) * cell - oy) / scale + miny
                lat, lon = seed_tables.unwarp(variant, *unproject(x, y))
                if any(
                    a <= lat <= b and c <= lon <= d
                    for a, b, c, d in seed_tables.no_province(variant)
                ):
                    layout.blocked.add(k)
    seeds = [pos[c] for c in codes]
    weights = [seed_tables.weight(variant, c, provinces[c]) for c in codes]
    wanted = {
        (min(layout.index[a], layout.index[b]), max(layout.index[a], layout.index[b]))
        for a, b in (tuple(e) for e in edges)
    }
    best = None
    for round_ in range(rounds):
        owner = layout.grow(seeds, weights, more)
        owner = layout.repair(owner, wanted)
        owner = layout.repair(owner, wanted)
        missing = wanted - layout.contacts(owner)
        print(f"  round {round_}: {len(missing)} missing", file=sys.stderr)
        if best is None or len(missing) < len(best[0]):
            best = (missing, owner)
        if not missing:
            break
        # move the seeds of the pairs still apart towards each other, and grow again
        step = 0.1
        moves: dict[int, list[float]] = {}
        for a, b in missing:
            (ax, ay), (bx, by) = seeds[a], seeds[b]
            moves.setdefault(a, [0.0, 0.0])
            moves.setdefault(b, [0.0, 0.0])
            moves[a][0] += (bx - ax) * step
            moves[a][1] += (by - ay) * step
            moves[b][0] += (ax - bx) * step
            moves[b][1] += (ay - by) * step
        for p, (dx, dy) in moves.items():
            x, y = seeds[p]
            seeds[p] = (min(width - 1, max(1, x + dx)), min(layout.height - 1, max(1, y + dy)))
    assert best is not None
    missing, owner = best
    owner = hollow_out(layout, owner, wanted)
    crossings = sorted(sorted((codes[a], codes[b])) for a, b in missing)
    return {
        "variant": variant,
        "neighbours": neighbours,
        "codes": codes,
        "provinces": provinces,
        "owner": owner,
        "layout": layout,
        "crossings": crossings,
        "transform": transform,
    }


def write(result: dict, scale: float = 1.0) -> None:
    """Write the drawing, every coordinate multiplied by ``scale`` (a board grown on a fine grid
    written smaller: the same map, fewer pixels to render; a uniform scale keeps every shared
    border shared)."""
    layout: Layout = result["layout"]
    owner = [VOID if o == BLOCKED else o for o in result["owner"]]
    result = {**result, "owner": owner}
    codes = result["codes"]
    provinces = result["provinces"]
    cols, rows, cell = layout.cols, layout.rows, layout.cell
    W, H = round(layout.width * scale), round(layout.height * scale)

    def num(v: float) -> str:
        return f"{round(v * scale, 2):g}"
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">',
        f"<style>{STYLE}</style>",
        f'<rect x="0" y="0" width="{W}" height="{H}" fill="#cfcbbf"/>',
    ]
    keep = border_points(owner, cols, rows, SMOOTHING)
    if folded(owner, cols, rows, cell, keep, codes, result["neighbours"]):
        keep = border_points(owner, cols, rows, SMOOTHING, smooth_void=False)

    def d_of(loops: list[list[tuple[int, int]]]) -> str:
        return " ".join(
            "M" + " L".join(f"{num(x)} {num(y)}" for x, y in loop) + " Z" for loop in loops
        )

    outlines: dict[str, list[list[tuple[int, int]]]] = {}
    for p, code in enumerate(codes):
        cls = "sea" if provinces[code]["terrain"] == "water" else "land"
        loops = trace(owner, cols, rows, cell, p, keep)
        outlines[code] = loops
        lines.append(f'<path id="p-{code}" class="{cls}" fill-rule="evenodd" d="{d_of(loops)}"/>')
    for n, comp in enumerate(components(owner, cols, rows, VOID)):
        mark = list(owner)
        marker = len(codes) + 10
        for k in comp:
            mark[k] = marker
        loops = trace(mark, cols, rows, cell, marker, keep)
        if loops:
            lines.append(f'<path id="x-{n}" class="void" fill-rule="evenodd" d="{d_of(loops)}"/>')
    lines.append("</svg>")
    MAPS.mkdir(parents=True, exist_ok=True)
    variant = result["variant"]
    (MAPS / f"{variant}.svg").write_text("\n".join(lines) + "\n", encoding="utf-8")
    points = anchors(owner, cols, rows, cell, codes, provinces, outlines)
    if scale != 1.0:

        def scaled(p: list[float] | None) -> list[float] | None:
            return None if p is None else [round(v * scale, 1) for v in p]

        for entry in points.values():
            entry["label"], entry["unit"] = scaled(entry["label"]), scaled(entry["unit"])
            entry["centre"] = scaled(entry["centre"])
            entry["coasts"] = {name: scaled(p) for name, p in entry["coasts"].items()}
    minx, miny, fit_scale, ox, oy = result["transform"]
    overrides = seed_tables.ANCHOR_OVERRIDES.get(variant, {})
    for code, kind, (lat, lon) in [(c, k, p) for c, kinds in overrides.items() for k, p in kinds.items()]:
        x, y = project(*seed_tables.warp(variant, lat, lon))
        points[code][kind] = [
            round(((x - minx) * fit_scale + ox) * scale, 1),
            round(((y - miny) * fit_scale + oy) * scale, 1),
        ]
    sidecar = {
        "width": W,
        "height": H,
        "provinces": points,
        "crossings": result["crossings"],
    }
    if variant == "world":  # plate carree round the whole globe: the renderer draws moves the short way
        sidecar["wraps"] = True
    (MAPS / f"{variant}.json").write_text(
        json.dumps(sidecar, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def main(argv: list[str]) -> int:
    """``--cached`` redraws from the last grown regions (kept in /tmp) without growing again."""
    reuse = "--cached" in argv
    argv = [a for a in argv if a != "--cached"]
    names = argv or sorted(p.stem for p in VARIANTS.glob("*.json"))
    global PROJECTION, VARIANT
    for name in names:
        VARIANT = name
        PROJECTION = seed_tables.projection(name)
        cached = CACHE / f"{name}.json"
        if reuse and cached.exists():
            saved = json.loads(cached.read_text())
            provinces, _ = read_variant(name)
            codes = sorted(provinces)
            layout = Layout(
                codes, {c: set() for c in codes}, saved["width"], saved["height"], saved["cell"]
            )
            result = {
                "neighbours": read_neighbours(name),
                "variant": name,
                "codes": codes,
                "provinces": provinces,
                "owner": saved["owner"],
                "layout": layout,
                "crossings": saved["crossings"],
                "transform": saved["transform"],
            }
        else:
            canvas = seed_tables.canvas(name)
            result = generate(name, **{k: v for k, v in canvas.items() if k != "scale"})
            CACHE.mkdir(exist_ok=True)
            cached.write_text(
                json.dumps(
                    {
                        "width": result["layout"].width,
                        "height": result["layout"].height,
                        "cell": canvas["cell"],
                        "owner": result["owner"],
                        "crossings": result["crossings"],
                        "transform": result["transform"],
                    }
                )
            )
        write(result, seed_tables.canvas(name).get("scale", 1.0))
        print(f"{name}: {len(result['codes'])} provinces, crossings: {result['crossings']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
