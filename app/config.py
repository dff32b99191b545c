"""Every configuration key, its default and who reads it: the one place defaults live.

Each key can be overridden by an environment variable of the same name (``Settings.from_env``), or by the
mapping handed to ``create_app(config)`` in tests. Values are checked once, at start.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field, fields
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from app.database import engine_options
from app.http.embeds import parse_publisher_keys
from app.http.origins import origin_of, parse_origin_list
from app.http.proxies import parse_networks
from app.http.reporting import reporting_connect_origins

PROJECT_ROOT = Path(__file__).resolve().parent.parent
INSTANCE_DIR = PROJECT_ROOT / "instance"

MIN_SECRET_BYTES = 32  # HMAC keys (sessions, JWT, device identities, media signatures) shorter than this are refused
SECRET_FILE = "secret_key"  # noqa: S105 - a file name: development's generated key, kept in instance/
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # STATISTICS_FUNCTION: a plain name on window, nothing else
_TIMING = re.compile(r"[a-z][A-Za-z0-9]*(?:Ms|S)")  # PLAYER_TEST_TIMINGS: a name of static_src/core/defaults.ts


@dataclass
class Settings:
    # Deployment: "development" or "production". Production refuses the development secret.
    ENV: str = "development"
    # The key of everything the service signs: sessions, device identities, media addresses, and JWTs unless
    # JWT_SECRET_KEY is set. At least 32 bytes. Production must set it; in development, when it is empty, a random one
    # is generated once and kept in instance/secret_key (resolve_secrets), so no key is ever a public string.
    SECRET_KEY: str = ""
    # JWT signing key for the authenticator (flask-jwt-extended), at least 32 bytes. Defaults to SECRET_KEY.
    JWT_SECRET_KEY: str = ""
    # SQLAlchemy URL. SQLite in instance/ by default; PostgreSQL in production and CI (postgresql+psycopg://…).
    DATABASE_URL: str = f"sqlite:///{INSTANCE_DIR / 'app.db'}"
    # The database when it is slow or gone (app/database.py): every statement's deadline, the pool's size (per process,
    # and as many again on demand) and how long a request waits for a free connection, and how long after a failure
    # to reach it the service answers 503 at once before trying again (also its Retry-After); a pooled connection
    # given back less than DB_ALIVE_WINDOW_MS ago is taken without the ping that checks it is still open (HikariCP's
    # aliveBypassWindowMs; 0 pings every time).
    DB_STATEMENT_TIMEOUT_MS: int = 1500
    DB_POOL_SIZE: int = 5
    DB_POOL_TIMEOUT_MS: int = 1000
    DB_RETRY_AFTER: int = 3
    DB_ALIVE_WINDOW_MS: int = 500
    # Cache (Flask-Caching): an in-process cache by default; Redis when REDIS_URL is set (app/caching.py): its keys'
    # namespace (deployments or test runs sharing one Redis keep apart by it), and how long a process uses its own
    # cache after Redis failed before it tries Redis again.
    REDIS_URL: str = ""
    CACHE_KEY_PREFIX: str = "player-cache"
    CACHE_RETRY_AFTER: int = 5
    # Shared responses (app/http/shared.py): how long the embed page and the catalogue's reads, as every anonymous
    # viewer of one address in one country gets them, are kept by this service and may be kept by a CDN
    # (s-maxage), and how much longer a CDN may serve them while it fetches a fresh one (stale-while-revalidate).
    # 0 keeps nothing and sends them as private.
    SHARED_CACHE_SECONDS: int = 60
    # Suggestions from memory (app/services/search/suggest.py): each worker keeps an index of the catalogue's search
    # documents per generation, made in the background (about 50 MB at 100,000 titles), and answers the first page of
    # a few search results from it; False: the database answers every search.
    SUGGESTION_INDEX: bool = True
    # ... made again at most once per this many seconds after the catalogue changes (the database answers meanwhile).
    SUGGESTION_REBUILD_SECONDS: float = 30.0
    # ... made by one process of the machine and read by the others from a file in this folder (app/suggestion_files.py:
    # 25 MB at 100,000 titles, the newest two generations kept); empty: each process makes its own.
    SUGGESTION_INDEX_DIR: str = str(INSTANCE_DIR / "suggestions")
    # The catalogue's part of a player page (app/snapshots.py), kept under the catalogue's generation.
    CATALOGUE_CACHE_SECONDS: int = 300
    SHARED_STALE_SECONDS: int = 300
    # Error reporting: nothing is sent without a DSN. The project label reaches the browser too.
    SENTRY_DSN: str = ""
    SENTRY_PROJECT: str = "player"
    # Error reporting in the browser (spec §1): the player's Sentry DSN, public by nature (it is in the page), often a
    # project of its own. Empty (the default): the player loads no Sentry code at all. Set: a lazy chunk loads after
    # the first frame (static_src/reporting/) and the embed page's CSP lets it reach the DSN's ingest host
    # (app/http/reporting.py). Tagged with SENTRY_PROJECT as project_label.
    SENTRY_BROWSER_DSN: str = ""
    # Where generated demo media live on disk and the URL path they are served under (a CDN's job in production).
    MEDIA_ROOT: str = str(INSTANCE_DIR / "media")
    MEDIA_URL_PATH: str = "/media"
    # Serve MEDIA_ROOT from this application. Off in production, where a CDN serves the media.
    SERVE_MEDIA: bool = True
    # Licensed media (app/http/media.py): the top folders of MEDIA_ROOT whose files are served only at signed addresses
    # (comma-separated; each title a folder below one), how long a signed address lasts (seconds; a film and its pauses
    # must fit), and the signing secret shared with the proxy or CDN that checks them (at least 32 bytes; empty: one
    # derived from SECRET_KEY, for when this application alone serves the media).
    SIGNED_MEDIA_PREFIXES: str = "titles"
    MEDIA_URL_TTL: int = 14_400
    MEDIA_URL_SECRET: str = ""
    # Source maps carry the whole front-end source: served in development only, unless this says otherwise.
    PUBLIC_SOURCE_MAPS: bool = False
    # The address this service is reached at ("https://player.example"): absolute addresses it hands out (VAST
    # documents, their media and pixels) are built from it, never from the Host header (app/http/urls.py), and only its
    # host and ALLOWED_HOSTS are accepted in Host (Flask's TRUSTED_HOSTS: 400 otherwise). Production must set it.
    # Empty (development): the request's host, which must be localhost, 127.0.0.1, ::1 or in ALLOWED_HOSTS.
    PUBLIC_URL: str = ""
    # More host names accepted in the Host header (comma-separated; ".example.com" takes every subdomain).
    ALLOWED_HOSTS: str = ""
    # The reverse proxies in front (comma-separated addresses or networks, "127.0.0.1, ::1" for nginx on this host):
    # only a request from one of them has its X-Forwarded-For and COUNTRY_HEADER believed (app/http/proxies.py); the
    # proxy must set both and drop what the client sent. Empty (the default): nobody's, so DEFAULT_COUNTRY applies.
    TRUSTED_PROXIES: str = ""
    # The request header the trusted proxy or CDN sets to the viewer's ISO 3166-1 country code (Cloudflare's
    # CF-IPCountry, nginx's geoip2 module, …), and the country assumed when there is none to believe.
    COUNTRY_HEADER: str = "X-Viewer-Country"
    DEFAULT_COUNTRY: str = "ru"
    # A query parameter that overrides the viewer's country: for the demo page and manual checks in development only
    # (refused in production: a viewer could name any country). Empty disables it (the default); `make start` sets it
    # to "country".
    COUNTRY_QUERY_PARAM: str = ""
    # The publishers allowed to embed the player (spec §7), comma-separated origins ("https://a.example,
    # https://b.example:8443"). Empty (the default): any http(s) site may frame the player, and the player talks to
    # the page its Referer names. When set: only these (and this origin, for the demo page) may frame it
    # (frame-ancestors), and the `origin` query parameter /lib.js adds is believed for them
    # (app/http/origins.py). A page framed inside another frame needs its ancestors listed too.
    PUBLISHER_ORIGINS: str = ""
    # Sites on their own origins that call the API from their pages' scripts (app/http/cors.py), comma- or
    # space-separated origins ("https://kino.example https://www.kino.example"): their browsers may read the API's
    # answers, with credentials (the authToken cookie, a bearer token) and the Authorization header of sign-in and
    # refresh. Empty (the default): no other origin may (a site's server still calls it as any client does).
    SITE_ORIGINS: str = ""
    # Publishers that sign their embed addresses (app/http/embeds.py), comma-separated "domain=key" pairs (each key at
    # least 32 bytes without a comma, shared with that publisher's server). A title licensed to named sites, framed on
    # such a domain, plays only with a valid embed_exp and embed_sig for it. Empty (the default): no publisher signs.
    PUBLISHER_EMBED_KEYS: str = ""
    # The embed page's Content-Security-Policy (app/http/csp.py) lets media, ad documents, creatives and pixels
    # come from any https: host; this lets plain http: ones in too (always so when ENV=development).
    PLAYER_CSP_ALLOW_HTTP: bool = False
    # Runtime configuration handed to the player (spec §1): API base URL ("" = this origin), the ad-list URL,
    # the fullscreen mode ("native" or "pseudo"), and the path the lazy player chunks load from.
    PLAYER_BASE_URL: str = ""
    # The ad list (spec §3): this application's own (app/player/ads.py, placements in the database) by default, or
    # an outside ad server's. Empty leaves the player without one: it reports 'ENV_AD_LIST_URL is not defined'
    # and plays the film without ads.
    AD_LIST_URL: str = "/ad-list.json"
    # Spec §7 sends ad requests "with the same headers" (X-Session-Context and the publisher's window-level ones).
    # The ad list gets them; a VAST request gets them only on this origin and on these (comma-separated origins of
    # ad servers that allow them): a custom header makes every cross-origin VAST fetch a CORS preflight, and a
    # standard ad server that does not allow it would get no request at all. Empty (the default): a simple GET.
    AD_HEADER_ORIGINS: str = ""
    # Beyond spec §5 (one <Ad> per document, else 901): for ad servers that answer with IAB ad pods, play a root
    # document's pod in sequence order, its stand-alone (buffet) ads standing in for pod ads that cannot play, or,
    # without a pod, the first stand-alone ad that can (a waterfall). Off by default: the spec's rule.
    AD_PODS: bool = False
    FULLSCREEN_MODE: str = "native"
    WIDGET_ASSETS_PATH: str = "/assets/"
    # Analytics (spec §7): the name of the window-level statistics function the player calls as
    # ``window[name](eventName, payload)`` for every analytics event (static_src/analytics/). It is looked up when
    # each event is sent, so a script of the page may define it late; a missing or throwing one never stops
    # playback. A JavaScript identifier, or empty to send no analytics at all.
    STATISTICS_FUNCTION: str = "sendStatistics"
    # For the test suite only, refused in production: shorter waits for the player than the spec's, as
    # "name=value,…" over static_src/core/defaults.ts (e.g. "analyticsTimeupdateMs=2000,vastTimeoutMs=1500"), so that
    # the browser tests prove a rule driven by a wait without sitting through it. Handed to the player as
    # config.timings; empty (the default) hands nothing.
    PLAYER_TEST_TIMINGS: str = ""
    # Built front end: esbuild writes hashed files and its metafile here (`npm run build`).
    ASSETS_DIR: str = str(PROJECT_ROOT / "app" / "static" / "dist")
    # Cache lifetime of hashed assets: one year, they never change under a name.
    ASSETS_MAX_AGE: int = 31_536_000
    # The largest request body taken, in bytes (Flask's MAX_CONTENT_LENGTH: 413 beyond it). The API's bodies are a few
    # hundred bytes of JSON; a view that takes uploads raises its own limit (request.max_content_length).
    MAX_REQUEST_BYTES: int = 65_536
    # Rate limits (app/http/rates.py), as Flask-Limiter's strings ("60 per minute", "10 per second; 1000 per day"):
    # the progress and history calls per viewer and per client address, the ad pixel per address, device identities
    # handed out per address. Generous for a real player (a progress save every 10 s; a pre-roll's pixels come in
    # bursts of a dozen) and for many viewers behind one address (a carrier's NAT), tight for a script.
    RATE_LIMIT_VIEWER: str = "60 per minute"
    RATE_LIMIT_IP: str = "600 per minute"
    RATE_LIMIT_TRACKING: str = "1200 per minute"
    RATE_LIMIT_SESSION_CONTEXT: str = "30 per minute"
    # The catalogue's reads that cost the database a query of their own (the lists with filters, search, a type's
    # facets, the most relevant), per client address, one count for all of them. Only requests the shared-response
    # store did not answer are counted (a kept answer costs nothing): generous for people browsing behind one address,
    # tight for a script walking every filter. A site that calls the API from its own server needs a higher one, or to
    # come through TRUSTED_PROXIES with its viewers' addresses.
    RATE_LIMIT_CATALOGUE_READS: str = "300 per minute"
    # Playlists (app/api/playlists.py): their changes (create, change, delete, add or remove a content) per account, and
    # the caps: playlists per account, contents per playlist (422 beyond either; docs/api.md "Playlists").
    RATE_LIMIT_PLAYLIST_WRITES: str = "120 per minute"
    PLAYLIST_MAX_PER_ACCOUNT: int = 100
    PLAYLIST_MAX_CONTENTS: int = 500
    # A viewer's reviews (create, change, delete together), votes on reviews, and abuse reports, per account (abuse
    # reports: per account or device identity, and per address too): plenty for a person, little for a script.
    RATE_LIMIT_REVIEW_WRITES: str = "10 per minute; 60 per day"
    RATE_LIMIT_REVIEW_VOTES: str = "60 per minute; 1000 per day"
    RATE_LIMIT_ABUSE_REPORTS: str = "10 per minute; 50 per day"
    RATE_LIMIT_ABUSE_IP: str = "30 per minute; 300 per day"
    # The counters' namespace in Redis: deployments (or test runs) sharing one Redis keep apart by it.
    RATE_LIMIT_KEY_PREFIX: str = "player-limits"
    # Accounts (app/services/accounts/accounts.py, sessions.py): how long an access token lasts (minutes; its cookie
    # authToken expires with it), a sign-in session's refresh tokens (days), how long a refresh token already used
    # may be used again and get the same new pair (the honest race of two tabs refreshing at once; at most 10 s,
    # after that a reuse revokes the session), how long a mailed code lasts (minutes), how many wrong tries it takes.
    ACCESS_TOKEN_MINUTES: int = 15
    REFRESH_TOKEN_DAYS: int = 30
    REFRESH_GRACE_SECONDS: int = 10
    ACCOUNT_CODE_MINUTES: int = 30
    ACCOUNT_CODE_ATTEMPTS: int = 5
    # Sign-in, sign-up, restore and refresh: per client address and per account (the email, or the refresh token's
    # session), counted before any password is hashed (app/api/accounts.py).
    RATE_LIMIT_AUTH_IP: str = "30 per minute; 300 per hour"
    RATE_LIMIT_AUTH_ACCOUNT: str = "10 per minute; 60 per hour"
    # How long an editor stays signed in to the admin without signing in again.
    ADMIN_SESSION_HOURS: int = 12
    # The admin's forms (app/admin): a series' page with its episodes, an upload. A poster at most ADMIN_POSTER_BYTES
    # (the page says so and refuses a larger file before sending it; the server checks again).
    ADMIN_MAX_REQUEST_BYTES: int = 64 * 1_048_576
    ADMIN_POSTER_BYTES: int = 5 * 1_048_576
    ADMIN_AD_VIDEO_BYTES: int = 50 * 1_048_576
    # Identify (app/services/editorial/identify.py): a title's data fetched from TMDB by its IMDb id, for the editor to
    # accept field by field. Off while TMDB_API_KEY is empty (a v3 API key, or a v4 read token). The API's base URL,
    # its posters' base URL, and how long one request to it may take.
    TMDB_API_KEY: str = ""
    TMDB_API_URL: str = "https://api.themoviedb.org/3"
    TMDB_IMAGE_URL: str = "https://image.tmdb.org/t/p/w500"
    IDENTIFY_TIMEOUT_SECONDS: int = 5
    # Mail (Flask-Mailman over SMTP): with no MAIL_SERVER, each mail is written to the log and to instance/outbox/
    # (the demo works with nothing installed). MAIL_TIMEOUT bounds a slow SMTP server (mail goes out after the answer).
    MAIL_SERVER: str = ""
    MAIL_PORT: int = 25
    MAIL_USERNAME: str = ""
    MAIL_PASSWORD: str = ""
    MAIL_USE_TLS: bool = False
    MAIL_USE_SSL: bool = False
    MAIL_TIMEOUT: int = 10
    MAIL_DEFAULT_SENDER: str = "Плеер <no-reply@player.example>"
    MAIL_OUTBOX: str = str(INSTANCE_DIR / "outbox")
    # Subscriptions: the plans (name=days, comma-separated) and the payment provider's webhook secret, which signs each
    # POST /subscription/notify body (HMAC-SHA256 in X-Signature). Empty: notifications are refused (503).
    SUBSCRIPTION_PLANS: str = "month=30,year=365"
    PAYMENT_WEBHOOK_SECRET: str = ""
    # Sitemaps (app/services/seo/sitemaps.py, generated ahead by `flask sitemap generate`): the most <url> entries and
    # uncompressed bytes one /sitemap{n}.xml may hold (the sitemaps.org protocol's limits are the defaults and the
    # largest allowed: 50,000 and 50 MiB), and how long robots.txt, the index and the files may be kept (max-age).
    SITEMAP_MAX_URLS: int = 50_000
    SITEMAP_MAX_BYTES: int = 52_428_800
    SITEMAP_CACHE_SECONDS: int = 3600
    # The <loc> of each episode: the site's page for it, a template with {id}, {slug}, {type}, {season}, {episode}
    # and {episode_id} ("https://site.example/{type}/{slug}/season-{season}/episode-{episode}"; {season} is empty for
    # an episode without one; origin-relative is taken as this service's). Empty (the default): our player page.
    SITEMAP_PAGE_URL: str = ""
    # The job queue (app/jobs/queue.py, docs/jobs.md): work that outlives a request (a catalogue import) runs on Huey's
    # workers, `flask jobs worker` (started by `make start` and the production shape), each with QUEUE_WORKERS threads.
    # The queue is Redis when REDIS_URL is set, else a SQLite file (QUEUE_FILE; on one machine only), under the name
    # QUEUE_NAME (deployments or test runs sharing one Redis keep apart by it); an idle worker looks at a SQLite queue
    # at least every QUEUE_POLL_SECONDS. The jobs themselves are rows of our database (app/models/jobs.py): a running
    # job's worker shows it is alive every JOB_HEARTBEAT_SECONDS; one not heard of for JOB_STALE_SECONDS (its worker
    # was killed) is queued again, up to JOB_MAX_ATTEMPTS runs in all, as is one that failed (after
    # JOB_RETRY_SECONDS). Progress is written at most every JOB_PROGRESS_SECONDS. Files handed to jobs (uploads) wait
    # in JOB_FILES_DIR, which every worker must see.
    QUEUE_WORKERS: int = 1
    QUEUE_FILE: str = str(INSTANCE_DIR / "queue.db")
    QUEUE_NAME: str = "player-jobs"
    QUEUE_POLL_SECONDS: float = 1.0
    JOB_HEARTBEAT_SECONDS: float = 5.0
    JOB_STALE_SECONDS: float = 60.0
    JOB_MAX_ATTEMPTS: int = 3
    JOB_RETRY_SECONDS: float = 10.0
    JOB_PROGRESS_SECONDS: float = 0.5
    JOB_FILES_DIR: str = str(INSTANCE_DIR / "jobs")
    # How much lower than the web workers' the CPU priority of background work is (os.nice): the job worker (the
    # sitemaps asked from the admin or the API, imports, transcoding and its ffmpeg) and `flask sitemap generate`, so
    # that on a machine they share the requests come first. 0: the same.
    BACKGROUND_NICE: int = 10
    # The catalogue import's upload in the admin (app/admin/imports.py): the largest file taken (JSON Lines or CSV).
    CATALOGUE_IMPORT_MAX_BYTES: int = 64 * 1_048_576
    # The transcoding job (app/jobs/transcode.py, docs/video-transcoding.md): Debian's ffmpeg makes an episode's HLS
    # ladder from TRANSCODE_LADDER, "height:kbit/s" rungs (maxrate 1.07 and bufsize 1.5 times the bitrate), those no
    # taller than the source; x264 at TRANSCODE_PRESET; segments (and keyframes) every TRANSCODE_SEGMENT_SECONDS;
    # every audio stream AAC stereo at TRANSCODE_AUDIO_KBPS, loudness normalised by ffmpeg's loudnorm with
    # TRANSCODE_LOUDNORM (one pass); TRANSCODE_THREADS for ffmpeg (0: as many as it likes).
    TRANSCODE_LADDER: str = "360:800,480:1400,720:2800,1080:5000"
    TRANSCODE_PRESET: str = "veryfast"
    TRANSCODE_SEGMENT_SECONDS: int = 6
    TRANSCODE_AUDIO_KBPS: int = 128
    TRANSCODE_LOUDNORM: str = "I=-16:TP=-1.5:LRA=11"
    TRANSCODE_THREADS: int = 0
    # The admin's resumable upload of an episode's source video (tus; app/admin/uploads.py, docs/video-upload.md):
    # the largest file, the size of each PATCH the page sends (nginx's body limit on the upload's address follows
    # it), where uploads under way wait (not under JOB_FILES_DIR, whose unneeded files are swept; best on the same
    # file system, so that a finished upload is renamed there, not copied), how long one not written to is kept,
    # how many one account may have under way, and the room kept free on that disk beyond every upload's remainder.
    VIDEO_UPLOAD_MAX_BYTES: int = 20 * 1_073_741_824
    VIDEO_UPLOAD_CHUNK_BYTES: int = 8 * 1_048_576
    VIDEO_UPLOAD_DIR: str = str(INSTANCE_DIR / "uploads")
    VIDEO_UPLOAD_EXPIRE_HOURS: float = 24.0
    VIDEO_UPLOADS_PER_ACCOUNT: int = 3
    VIDEO_UPLOAD_RESERVE_BYTES: int = 1_073_741_824
    # Extra keys for tests (TESTING=True etc.) pass straight through to Flask.
    extra: dict[str, object] = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        environ = dict(os.environ if environ is None else environ)
        values: dict[str, object] = {}
        for f in fields(cls):
            if f.name == "extra" or f.name not in environ:
                continue
            raw = environ[f.name]
            if f.type == "bool":
                values[f.name] = raw.strip().lower() in {"1", "true", "yes", "on"}
            elif f.type == "int":
                values[f.name] = int(raw)
            elif f.type == "float":
                values[f.name] = float(raw)
            else:
                values[f.name] = raw
        return cls(**values)  # type: ignore[arg-type]

    def resolve_secrets(self, instance_dir: Path) -> None:
        """Development without a SECRET_KEY: the one generated earlier in ``instance_dir``, else a new random one kept
        there (mode 600). Production keeps what it was given: ``check`` refuses a missing or short key."""
        if self.SECRET_KEY or self.ENV != "development":
            return
        path = instance_dir / SECRET_FILE
        if not path.is_file():
            instance_dir.mkdir(parents=True, exist_ok=True)
            tmp = instance_dir / f".{SECRET_FILE}.{os.getpid()}"
            tmp.write_text(secrets.token_urlsafe(48), encoding="ascii")
            tmp.chmod(0o600)
            try:
                os.link(tmp, path)  # atomic, and fails if another process made it first: theirs wins
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
        self.SECRET_KEY = path.read_text(encoding="ascii").strip()

    def check(self) -> None:
        """Refuse, once at start, a configuration that would run but run wrong."""
        if self.ENV not in {"development", "production"}:
            raise ValueError(f"ENV must be development or production, not {self.ENV!r}")
        if self.FULLSCREEN_MODE not in {"native", "pseudo"}:
            raise ValueError(f"FULLSCREEN_MODE must be native or pseudo, not {self.FULLSCREEN_MODE!r}")
        parse_origin_list(self.PUBLISHER_ORIGINS)  # raises ValueError naming a bad entry
        parse_publisher_keys(self.PUBLISHER_EMBED_KEYS)  # likewise
        parse_origin_list(self.AD_HEADER_ORIGINS, "AD_HEADER_ORIGINS")
        parse_origin_list(self.SITE_ORIGINS, "SITE_ORIGINS")
        parse_networks(self.TRUSTED_PROXIES)  # likewise
        if self.ENV == "production" and self.COUNTRY_QUERY_PARAM:
            raise ValueError("COUNTRY_QUERY_PARAM lets a viewer choose a country: development only")
        if self.PUBLIC_URL and (origin_of(self.PUBLIC_URL) is None or urlsplit(self.PUBLIC_URL).path not in ("", "/")):
            raise ValueError(f"PUBLIC_URL must be an origin like https://player.example, not {self.PUBLIC_URL!r}")
        if self.ENV == "production" and not self.PUBLIC_URL:
            raise ValueError("PUBLIC_URL must be set in production: absolute addresses are built from it")
        reporting_connect_origins(self.SENTRY_BROWSER_DSN)  # raises ValueError for a malformed DSN
        if not self.MEDIA_URL_PATH.startswith("/"):
            raise ValueError("MEDIA_URL_PATH must start with /")
        if self.STATISTICS_FUNCTION and not _IDENTIFIER.fullmatch(self.STATISTICS_FUNCTION):
            raise ValueError(f"STATISTICS_FUNCTION must be a JavaScript identifier, not {self.STATISTICS_FUNCTION!r}")
        if self.PLAYER_TEST_TIMINGS and self.ENV == "production":
            raise ValueError("PLAYER_TEST_TIMINGS is for the test suite: it changes the spec's timings")
        parse_timings(self.PLAYER_TEST_TIMINGS)  # raises ValueError naming a bad entry
        if not 0 <= self.REFRESH_GRACE_SECONDS <= 10:
            raise ValueError("REFRESH_GRACE_SECONDS must be 0 to 10: a longer window lets a stolen token in")
        parse_plans(self.SUBSCRIPTION_PLANS)  # raises ValueError naming a bad entry
        if not 1 <= self.SITEMAP_MAX_URLS <= 50_000:
            raise ValueError("SITEMAP_MAX_URLS must be 1 to 50,000 (the sitemaps protocol's limit)")
        if not 4096 <= self.SITEMAP_MAX_BYTES <= 52_428_800:
            raise ValueError("SITEMAP_MAX_BYTES must be 4096 to 52,428,800 (50 MiB, the sitemaps protocol's limit)")
        parse_ladder(self.TRANSCODE_LADDER)  # raises ValueError naming a bad rung
        if not 2 <= self.TRANSCODE_SEGMENT_SECONDS <= 10:
            raise ValueError("TRANSCODE_SEGMENT_SECONDS must be 2 to 10 (HLS segments of 4-6 s are the usual)")
        if int(self.PLAYLIST_MAX_PER_ACCOUNT) < 1 or int(self.PLAYLIST_MAX_CONTENTS) < 1:
            raise ValueError("PLAYLIST_MAX_PER_ACCOUNT and PLAYLIST_MAX_CONTENTS must be at least 1")
        try:
            self.SITEMAP_PAGE_URL.format(id=1, slug="s", type="film", season="1", episode="1", episode_id=1)
        except (KeyError, IndexError, ValueError) as error:
            raise ValueError(f"SITEMAP_PAGE_URL: {self.SITEMAP_PAGE_URL!r} is not a template of {{id}}, {{slug}}, "
                             f"{{type}}, {{season}}, {{episode}}, {{episode_id}} ({error})") from None
        if int(self.VIDEO_UPLOAD_CHUNK_BYTES) < 65_536 or int(self.VIDEO_UPLOAD_CHUNK_BYTES) > min(
                int(self.ADMIN_MAX_REQUEST_BYTES), 256 * 1_048_576):
            raise ValueError("VIDEO_UPLOAD_CHUNK_BYTES must be 64 KiB to ADMIN_MAX_REQUEST_BYTES (and 256 MiB at most)")
        if int(self.VIDEO_UPLOADS_PER_ACCOUNT) < 1:
            raise ValueError("VIDEO_UPLOADS_PER_ACCOUNT must be at least 1")
        if int(self.QUEUE_WORKERS) < 1 or int(self.JOB_MAX_ATTEMPTS) < 1:
            raise ValueError("QUEUE_WORKERS and JOB_MAX_ATTEMPTS must be at least 1")
        if not 0 < float(self.JOB_HEARTBEAT_SECONDS) < float(self.JOB_STALE_SECONDS):
            raise ValueError("JOB_HEARTBEAT_SECONDS must be above 0 and below JOB_STALE_SECONDS: a live job would "
                             "look dead")
        if self.MEDIA_URL_TTL < 600:
            raise ValueError("MEDIA_URL_TTL must be at least 600 seconds: signed addresses are rounded to 10 minutes")
        for name in ("SECRET_KEY", "JWT_SECRET_KEY", "MEDIA_URL_SECRET", "PAYMENT_WEBHOOK_SECRET"):
            value = getattr(self, name)
            if (value or name == "SECRET_KEY") and len(value.encode()) < MIN_SECRET_BYTES:
                raise ValueError(f"{name} must be set, at least {MIN_SECRET_BYTES} bytes (`python -c 'import secrets; "
                                 f"print(secrets.token_urlsafe(48))'`)")

    def trusted_hosts(self) -> list[str]:
        """Flask's TRUSTED_HOSTS: PUBLIC_URL's host and ALLOWED_HOSTS; in development without them, this machine."""
        hosts = [host.strip().lower() for host in self.ALLOWED_HOSTS.split(",") if host.strip()]
        if self.PUBLIC_URL:
            hosts.insert(0, urlsplit(self.PUBLIC_URL).hostname or "")
        elif self.ENV == "development":
            hosts += ["localhost", "127.0.0.1", "::1", "[::1]"]
        return hosts

    def flask_mapping(self) -> dict[str, object]:
        """The Flask and extension keys derived from these settings."""
        mapping: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        mapping.update(
            PLAYER_TEST_TIMINGS=parse_timings(self.PLAYER_TEST_TIMINGS),
            MAX_CONTENT_LENGTH=self.MAX_REQUEST_BYTES,
            TRUSTED_HOSTS=self.trusted_hosts(),
            SQLALCHEMY_DATABASE_URI=normalise_database_url(self.DATABASE_URL),
            SQLALCHEMY_ENGINE_OPTIONS=engine_options(normalise_database_url(self.DATABASE_URL), self),
            JWT_SECRET_KEY=self.JWT_SECRET_KEY or self.SECRET_KEY,
            # flask-jwt-extended (app/http/tokens.py): spec §3's cookie names, a bearer header or the cookies (a
            # cookie-authenticated write needs the double-submit CSRF header), the refresh token also in the body
            JWT_ACCESS_TOKEN_EXPIRES=timedelta(minutes=self.ACCESS_TOKEN_MINUTES),
            JWT_REFRESH_TOKEN_EXPIRES=timedelta(days=self.REFRESH_TOKEN_DAYS),
            JWT_TOKEN_LOCATION=["headers", "cookies"],
            JWT_ACCESS_COOKIE_NAME="authToken",
            JWT_REFRESH_COOKIE_NAME="refreshToken",
            JWT_ACCESS_COOKIE_PATH="/",
            JWT_REFRESH_COOKIE_PATH="/",
            JWT_ACCESS_CSRF_COOKIE_PATH="/",
            JWT_REFRESH_CSRF_COOKIE_PATH="/",
            JWT_COOKIE_CSRF_PROTECT=True,
            JWT_JSON_KEY="accessToken",
            JWT_REFRESH_JSON_KEY="refreshToken",
            SUBSCRIPTION_PLANS=parse_plans(self.SUBSCRIPTION_PLANS),
            MAIL_BACKEND="smtp" if self.MAIL_SERVER else "app.http.mail.EmailBackend",
            CACHE_TYPE="RedisCache" if self.REDIS_URL else "SimpleCache",
            CACHE_REDIS_URL=self.REDIS_URL or None,
            CACHE_DEFAULT_TIMEOUT=300,
            CACHE_KEY_PREFIX=f"{self.CACHE_KEY_PREFIX}:",
            CACHE_OPTIONS={"socket_connect_timeout": 0.5, "socket_timeout": 0.5} if self.REDIS_URL else {},
            # Flask-Limiter (app/http/rates.py): a Redis that fails or hangs costs half a second, then memory counts
            RATELIMIT_STORAGE_URI=self.REDIS_URL or "memory-swept://",  # app/http/limiter.py
            RATELIMIT_STORAGE_OPTIONS={"socket_connect_timeout": 0.5, "socket_timeout": 0.5} if self.REDIS_URL else {},
            RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
            RATELIMIT_SWALLOW_ERRORS=True,
            RATELIMIT_HEADERS_ENABLED=True,  # X-RateLimit-* on limited calls, Retry-After on a 429
            RATELIMIT_KEY_PREFIX=self.RATE_LIMIT_KEY_PREFIX,
            # The admin's sign-in (app/admin/access.py): Flask's signed session cookie, sent to /admin only, over
            # HTTPS when the service is public on HTTPS, for a working day at most
            SESSION_COOKIE_PATH="/admin",
            SESSION_COOKIE_HTTPONLY=True,
            SESSION_COOKIE_SAMESITE="Lax",
            SESSION_COOKIE_SECURE=self.PUBLIC_URL.startswith("https://"),
            PERMANENT_SESSION_LIFETIME=timedelta(hours=self.ADMIN_SESSION_HOURS),
            BABEL_DEFAULT_LOCALE="ru",
            BABEL_DEFAULT_TIMEZONE="Europe/Moscow",
            # flask-smorest: the OpenAPI document at /openapi.json
            API_TITLE="Player catalogue API",
            API_VERSION="v1",
            OPENAPI_VERSION="3.0.3",
            OPENAPI_URL_PREFIX="/",
            OPENAPI_JSON_PATH="openapi.json",
            # merged into the document: every 429 (app/http/rates.py) says when to try again
            API_SPEC_OPTIONS={"components": {"responses": {"TOO_MANY_REQUESTS": {"headers": {"Retry-After": {
                "description": "seconds until the limit lets this caller's next request through",
                "schema": {"type": "integer", "minimum": 0}}}}}}},
        )
        mapping.update(self.extra)
        return mapping


def parse_timings(raw: str) -> dict[str, float]:
    """``PLAYER_TEST_TIMINGS``: "analyticsTimeupdateMs=2000, vastTimeoutMs=1500" → {name: value}; each name a
    timing's (ending in Ms or S), each value a positive number."""
    timings: dict[str, float] = {}
    for entry in raw.split(","):
        if not entry.strip():
            continue
        name, _, value = (part.strip() for part in entry.partition("="))
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if not _TIMING.fullmatch(name) or not 0 < number < 10**7:
            raise ValueError(f"PLAYER_TEST_TIMINGS: {entry.strip()!r} is not like vastTimeoutMs=1500")
        timings[name] = int(number) if number.is_integer() else number
    return timings


def parse_plans(raw: str) -> dict[str, int]:
    """``SUBSCRIPTION_PLANS``: "month=30, year=365" → {plan: days}; each name [a-z0-9-], each length 1 to 3660 days."""
    plans: dict[str, int] = {}
    for entry in raw.split(","):
        name, _, days = (part.strip() for part in entry.partition("="))
        if not entry.strip():
            continue
        if not re.fullmatch(r"[a-z0-9-]{1,32}", name) or not days.isdigit() or not 0 < int(days) <= 3660:
            raise ValueError(f"SUBSCRIPTION_PLANS: {entry.strip()!r} is not like month=30")
        plans[name] = int(days)
    if not plans:
        raise ValueError("SUBSCRIPTION_PLANS names no plan")
    return plans


def parse_ladder(raw: str) -> tuple[tuple[int, int], ...]:
    """``TRANSCODE_LADDER``: "360:800,720:2800" → ((height, kbit/s), …), lowest first (app/services/media/ladder.py
    makes its rungs); ValueError naming what is wrong."""
    rungs: list[tuple[int, int]] = []
    for part in (part.strip() for part in raw.split(",")):
        height, _, kbps = (value.strip() for value in part.partition(":"))
        if not (height.isdigit() and kbps.isdigit()):
            raise ValueError(f"TRANSCODE_LADDER: {part!r} is not height:kbit/s (e.g. 720:2800)")
        if not (64 <= int(height) <= 4320 and 50 <= int(kbps) <= 100_000):
            raise ValueError(f"TRANSCODE_LADDER: {part!r}: height 64-4320, bitrate 50-100000 kbit/s")
        rungs.append((int(height), int(kbps)))
    if not rungs or len({height for height, _ in rungs}) != len(rungs):
        raise ValueError("TRANSCODE_LADDER needs at least one rung, each height once")
    return tuple(sorted(rungs))


def normalise_database_url(url: str) -> str:
    """Heroku-style postgres:// URLs name the psycopg 3 driver SQLAlchemy should use."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url
