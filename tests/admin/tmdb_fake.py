"""A local stand-in for TMDB's API v3 (issue 31's Identify): an HTTP server in the test's process answering /find and
the film's and series' details with documents of TMDB's shape, recorded from its documentation; a slow answer for the
timeout. Never the internet."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

KEY = "test-key-0123456789"
FILM_IMDB, SERIES_IMDB, SLOW_IMDB = "tt0000001", "tt0000002", "tt9999999"
FIND = {
    FILM_IMDB: {"movie_results": [{"id": 550, "media_type": "movie", "title": "Долгий путь домой"}],
                "person_results": [], "tv_results": [], "tv_episode_results": [], "tv_season_results": []},
    SERIES_IMDB: {"movie_results": [], "person_results": [], "tv_results": [{"id": 1399, "media_type": "tv"}],
                  "tv_episode_results": [], "tv_season_results": []},
}
DETAILS = {
    "/3/movie/550": {
        "id": 550, "imdb_id": FILM_IMDB, "title": "Долгий путь домой", "original_title": "The Long Way Home",
        "overview": "Отец и сын едут домой через всю страну.", "release_date": "2020-11-05", "runtime": 31,
        "genres": [{"id": 18, "name": "драма"}, {"id": 12, "name": "приключения"}, {"id": 99, "name": "вестерн"}],
        "production_countries": [{"iso_3166_1": "RU", "name": "Russia"}, {"iso_3166_1": "FR", "name": "France"}],
        "poster_path": "/abc123.jpg", "vote_average": 7.3},
    "/3/tv/1399": {
        "id": 1399, "name": "Тихая гавань", "original_name": "Quiet Harbour", "overview": "Маяк и посёлок.",
        "first_air_date": "2023-04-01", "genres": [{"id": 9648, "name": "детектив"}], "origin_country": ["RU"],
        "poster_path": "/tv.jpg"},
}


class Handler(BaseHTTPRequestHandler):
    asked: ClassVar[list[str]] = []  # the paths asked, for the tests to read

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        Handler.asked.append(self.path)
        if query.get("api_key") != [KEY]:
            return self._answer(401, {"status_code": 7, "status_message": "Invalid API key"})
        if parts.path == f"/3/find/{SLOW_IMDB}":
            time.sleep(3)
        if parts.path.startswith("/3/find/"):
            found = FIND.get(parts.path.rsplit("/", 1)[1])
            empty = {"movie_results": [], "tv_results": []}
            return self._answer(200, found or empty)
        if parts.path in DETAILS and query.get("language") == ["ru-RU"]:
            return self._answer(200, DETAILS[parts.path])
        return self._answer(404, {"status_code": 34, "status_message": "not found"})

    def _answer(self, status: int, document: dict[str, object]) -> None:
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@contextmanager
def fake_tmdb() -> Iterator[str]:
    """The fake's base URL (like https://api.themoviedb.org/3) while the block runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/3"
    finally:
        server.shutdown()
        server.server_close()
