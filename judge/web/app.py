"""The web application: routes, the reader's language and zone, the guard, the map cache.

Every page is answered by a plain function run in Starlette's thread pool, inside a
read-only unit of work: the web role never takes the write lock for a page, so it never slows
the mail path. Its one POST, RFC 8058's one-click unsubscribe of an observer (issue 30), writes
one row by an unforgeable token. What a page shows is :mod:`judge.web.views`'s (the mail path's rules); this module only
validates the request (anything odd is a 404 page, never a traceback), picks the language
(``?lang=fr``, else ``Accept-Language``) and the zone (``?tz=Europe/Paris``, else UTC), and
writes the answer with the guard's headers (a strict Content-Security-Policy, no cookies).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.app.console import pages_served
from judge.app.mail_out.bounces import unsubscribe
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.i18n import translation
from judge.timekeeping.dates import zone_named
from judge.web import feeds, views
from judge.web.chart import centres_chart
from judge.web.words import words

HERE = Path(__file__).parent
CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
PICTURES_KEPT = 256
"""Map pictures kept drawn (SVG and PNG count apart): a 20-year game has about a hundred phases."""
CONCURRENT_READS = 4
"""Pages reading the database at once (the others wait their turn, holding no connection)."""
RATE_PER_SECOND = 20.0
RATE_BURST = 120.0


class Guard:
    """The headers every answer carries, no cookie ever, and a token bucket per client address:
    a client past its burst gets 429 at once, without touching the database."""

    def __init__(self, app: ASGIApp, *, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()
        self.site: Site | None = None
        """The pages behind the guard (their map cache), when it guards :func:`create_app`'s."""

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            allowed = tokens >= 1.0
            self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
            if len(self._buckets) > 10_000:  # forget the quietest clients
                for key in list(self._buckets)[:5_000]:
                    del self._buckets[key]
            return allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                pages_served.count(int(message["status"]))
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"set-cookie"]
                message = {**message, "headers": headers + SECURITY_HEADERS}
            await send(message)

        client = (scope.get("client") or ("?", 0))[0]
        if not self.allow(str(client)):
            response = Response("Too many requests: slow down.\n", status_code=429,
                                media_type="text/plain", headers={"Retry-After": "5"})
            await response(scope, receive, guarded)
            return
        await self.app(scope, receive, guarded)


class Pictures:
    """Map pictures drawn once and kept (the most recently used ones), keyed by what they depend on."""

    def __init__(self, keep: int = PICTURES_KEPT) -> None:
        self._keep = keep
        self._kept: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.drawn = 0

    def get(self, key: tuple[object, ...], draw: Callable[[], bytes]) -> bytes:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        picture = draw()
        with self._lock:
            self.drawn += 1
            self._kept[key] = picture
            while len(self._kept) > self._keep:
                self._kept.popitem(last=False)
        return picture


def reader_language(request: Request) -> str:
    """``?lang=fr``/``en``, else the first of French and English the browser prefers, else English."""
    asked = request.query_params.get("lang", "").lower()
    if asked in ("en", "fr"):
        return asked
    best, best_q = "en", 0.0
    for part in request.headers.get("accept-language", "")[:200].split(","):
        tag, _, params = part.strip().partition(";")
        language = tag.strip().lower()[:2]
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if language in ("en", "fr") and quality > best_q:
            best, best_q = language, quality
    return best


def reader_zone(request: Request) -> ZoneInfo:
    asked = request.query_params.get("tz", "")
    zone = zone_named(asked) if asked and len(asked) <= 64 else None
    return zone or ZoneInfo("UTC")


class Site:
    """The pages of one judge: its services, templates and map cache."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.pictures = Pictures()
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.css = (HERE / "static" / "judge.css").read_bytes()
        self.icon = (HERE / "static" / "favicon.svg").read_bytes()
        self._centres: dict[tuple[object, ...], views.CentreRows] = {}
        self._readers = threading.BoundedSemaphore(CONCURRENT_READS)
        self._lock = threading.Lock()

    # -- helpers ------------------------------------------------------------------------

    def centres(self, records: Any) -> views.CentreRows:
        """:func:`views.centre_rows`, kept per timeline (reading every board of a long game is
        most of a game page's time; a timeline's boards never change)."""
        if not records:
            return []
        key = views.timeline_key(records)
        with self._lock:
            kept = self._centres.get(key)
        if kept is None:
            kept = views.centre_rows(records)
            with self._lock:
                self._centres[key] = kept
                while len(self._centres) > PICTURES_KEPT:
                    self._centres.pop(next(iter(self._centres)))
        return kept

    def base_url(self, request: Request) -> str:
        """The address links in feeds and calendars start with: ``web_base_url``, else where the
        role listens; never the request's Host header, which any client writes."""
        config = self.services.config
        return config.web_base_url or f"http://{config.web_host}:{config.web_port}"

    def reader(self, request: Request) -> views.Reader:
        language = reader_language(request)
        return views.Reader(language, reader_zone(request), translation(language).gettext)

    def page(self, request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        reader = self.reader(request)
        kept: dict[str, str] = {}  # what the reader asked for, carried along the links
        if request.query_params.get("lang", "").lower() in ("en", "fr"):
            kept["lang"] = reader.language
        if request.query_params.get("tz") and reader.zone.key != "UTC":
            kept["tz"] = reader.zone.key
        query = ("?" + urlencode(kept)) if kept else ""
        switch = {**kept, "lang": "en" if reader.language == "fr" else "fr"}
        html = self.templates.get_template(template).render(
            w=words(reader.gettext), lang=reader.language, q=query,
            picture_query="?lang=fr" if reader.language == "fr" else "", switch="?" + urlencode(switch),
            zone=reader.zone.key, judge=self.services.config.display_name,
            address=self.services.config.address, **values,
        )
        return HTMLResponse(html, status_code=status)

    async def unsubscribe(self, request: Request) -> Response:
        """RFC 8058's one-click unsubscribe of an observer (the https address of its mail's
        ``List-Unsubscribe``): a POST whose form says ``List-Unsubscribe=One-Click``, with the
        token of judge.mail.verp; the observer stops observing. Anything else is refused plainly."""
        body = await request.body()
        asked = self.services.verp.unsubscribe_of(str(request.path_params["token"]))
        if b"List-Unsubscribe=One-Click" not in body[:1000] or asked is None:
            return Response("400 not a one-click unsubscribe\n", status_code=400, media_type="text/plain")

        def work() -> str:
            with self.services.db.unit_of_work() as uow:
                return unsubscribe(uow, self.services, *asked)

        done = await run_in_threadpool(work)
        if "stopped observing" not in done:
            return Response("404 no such subscription\n", status_code=404, media_type="text/plain")
        return Response("200 unsubscribed: the judge sends you no more mail about this game\n", media_type="text/plain")

    def not_found(self, request: Request) -> HTMLResponse:
        return self.page(request, "missing.html", status=404)

    def read(self, work: Callable[[UnitOfWork], Response | None], request: Request) -> Response:
        """``work`` in a read-only unit of work; at most :data:`CONCURRENT_READS` pages read the
        database at once, so that however many clients ask, the pages never hold more than a few
        of the connections the mail roles share with them."""
        with self._readers, self.services.db.unit_of_work(readonly=True) as uow:
            answer = work(uow)
        return answer if answer is not None else self.not_found(request)

    # -- pages --------------------------------------------------------------------------

    def index(self, request: Request) -> Response:
        reader = self.reader(request)
        return self.read(lambda uow: self.page(request, "index.html", groups=views.game_groups(uow, reader),
                                               legend=views.legend(reader)), request)

    def game(self, request: Request) -> Response:
        name = request.path_params["name"]
        reader = self.reader(request)

        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, name)
            if game is None:
                return None
            page = views.game_page(uow, game, reader, self.centres)
            chart = centres_chart(page.centres, [(row.power, row.name) for row in page.powers],
                                  views.map_colours(game))
            return self.page(request, "game.html", game=page, chart=chart)

        return self.read(work, request)

    def phase(self, request: Request) -> Response:
        name = request.path_params["name"]
        phase = request.path_params["phase"]
        stem, dot, extension = phase.partition(".")
        if dot and extension not in ("svg", "png"):
            return self.not_found(request)
        reader = self.reader(request)

        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, name)
            if game is None:
                return None
            records = views.timeline(uow, game)
            index = views.find_phase(records, stem)
            if index is None:
                return None
            if extension:
                return self.picture(request, game, records, index, extension, reader.language)
            return self.page(request, "phase.html", phase=views.phase_page(game, records, index, reader),
                             title=game.name)

        return self.read(work, request)

    def picture(self, request: Request, game: Any, records: Any, index: int, extension: str, language: str) -> Response:
        """The map, drawn once; a browser that has this very picture gets 304 (its ETag names
        what the picture depends on, :func:`views.picture_key`)."""
        key = views.picture_key(records, index, language)
        tag = '"' + hashlib.sha256(repr((*key, extension)).encode()).hexdigest()[:32] + '"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag})
        svg = self.pictures.get((*key, "svg"), lambda: views.picture(game, records, index, language).encode("utf-8"))
        processed = records[index].processed_at is not None
        headers = {"Cache-Control": "public, max-age=86400" if processed else "public, max-age=60", "ETag": tag}
        if extension == "svg":
            return Response(svg, media_type="image/svg+xml", headers=headers)
        from judge.maps.png import svg_to_png

        png = self.pictures.get((*key, "png"), lambda: svg_to_png(svg.decode("utf-8")))
        return Response(png, media_type="image/png", headers=headers)

    def favicon(self, request: Request) -> Response:
        return Response(self.icon, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    def stylesheet(self, request: Request) -> Response:
        return Response(self.css, media_type="text/css", headers={"Cache-Control": "public, max-age=3600"})

    # -- feeds and calendars --------------------------------------------------------------

    def judge_feed(self, request: Request) -> Response:
        reader = self.reader(request)
        base = self.base_url(request)
        return self.read(lambda uow: Response(feeds.judge_feed(uow, reader, base, self.services.config.display_name),
                                              media_type="application/atom+xml"), request)

    def game_feed(self, request: Request) -> Response:
        reader = self.reader(request)
        base = self.base_url(request)

        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, request.path_params["name"])
            if game is None:
                return None
            return Response(feeds.game_feed(uow, game, reader, base), media_type="application/atom+xml")

        return self.read(work, request)

    def deadlines(self, request: Request) -> Response:
        base = self.base_url(request)
        now = self.services.clock.now()

        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, request.path_params["name"])
            if game is None:
                return None
            return Response(feeds.deadlines_ics(game, base, now), media_type="text/calendar")

        return self.read(work, request)

    # -- JSON -----------------------------------------------------------------------------

    def api_games(self, request: Request) -> Response:
        return self.read(lambda uow: _json([views.game_summary_json(g) for g in views.public_games(uow)]), request)

    def api_game(self, request: Request) -> Response:
        reader = self.reader(request)

        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, request.path_params["name"])
            return _json(views.game_json(uow, game, reader)) if game is not None else None

        return self.read(work, request)

    def api_phase(self, request: Request) -> Response:
        def work(uow: UnitOfWork) -> Response | None:
            game = views.public_game(uow, request.path_params["name"])
            if game is None:
                return None
            records = views.timeline(uow, game)
            index = views.find_phase(records, request.path_params["phase"])
            return _json(views.phase_json(game, records, index)) if index is not None else None

        return self.read(work, request)


def _json(value: object) -> Response:
    return Response(json.dumps(value, ensure_ascii=False, default=_plain), media_type="application/json")


def _plain(value: object) -> object:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


def create_app(services: Services, *, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> Guard:
    """The pages of the judge ``services`` serves, behind the guard."""
    site = Site(services)
    get = ["GET", "HEAD"]

    async def missing(request: Request, _exc: Exception) -> Response:
        return site.not_found(request)

    async def refused(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 404:
            return site.not_found(request)
        return Response(f"{status}\n", status_code=status, media_type="text/plain")

    app = Starlette(
        routes=[
            Route("/", site.index, methods=get),
            Route("/feed.atom", site.judge_feed, methods=get),
            Route("/static/judge.css", site.stylesheet, methods=get),
            Route("/static/favicon.svg", site.favicon, methods=get),
            Route("/favicon.ico", site.favicon, methods=get),
            Route("/api/games", site.api_games, methods=get),
            Route("/api/games/{name}", site.api_game, methods=get),
            Route("/api/games/{name}/{phase}", site.api_phase, methods=get),
            Route("/games/{name}", site.game, methods=get),
            Route("/games/{name}/feed.atom", site.game_feed, methods=get),
            Route("/games/{name}/deadlines.ics", site.deadlines, methods=get),
            Route("/games/{name}/{phase}", site.phase, methods=get),
            # The one POST (and the one write) of the web role: RFC 8058's one-click unsubscribe.
            Route("/unsubscribe/{token}", site.unsubscribe, methods=["POST"]),
        ],
        exception_handlers={404: missing, HTTPException: refused},
    )
    guard = Guard(app, rate=rate, burst=burst)
    guard.site = site
    return guard
