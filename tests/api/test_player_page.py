"""The player page: validated and resolved on the server, its shell and error screens rendered there (spec §2)."""

import json
import re

import pytest

from app import texts


def page_context(response):
    html = response.get_data(as_text=True)
    match = re.search(r'<script id="player-context" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the page carries no context blob"
    return json.loads(match.group(1))


def test_the_shell_has_poster_title_button_and_one_context_blob(client, demo_catalogue):
    response = client.get("/?movie_id=1")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<img class="player__poster-img" src="/media/posters/film-long.jpg"' in html
    assert '<h1 class="player__title">Долгая дорога домой</h1>' in html
    assert "data-player-start" in html
    assert html.count('id="player-context"') == 1
    context = page_context(response)
    assert context["content"]["id"] == 1
    assert context["episodeId"] == 1
    assert context["isAvailable"] is True
    assert context["config"]["widgetAssetsPath"] == "/assets/"


def head_of(html):
    return html.split("</head>", 1)[0]


def test_script_and_style_tags_come_from_the_build(client, demo_catalogue, app):
    manifest = app.extensions["assets_manifest"]
    player = manifest.entry("player.tsx")
    html = client.get("/?movie_id=1").get_data(as_text=True)
    head = head_of(html)
    assert f'<script type="module" src="{player.script}"></script>' in head
    assert re.search(r"/assets/player-[A-Z0-9]{8}\.js", player.script)

    # The shell's own styles are inline, and so is one small script after the markup (where it does not split the
    # parse); the page's policy allows both by their hashes, so every response of a build is the same.
    shell_css = str(manifest.inline_css("styles/shell.css"))
    assert ".player__start" in shell_css and "sourceMappingURL" not in shell_css
    assert f"<style>{shell_css}</style>" in head
    assert "<script>" not in head and html.index("<script>") > html.index("data-player-start")
    assert "nonce" not in html

    # The controls' styles are named on #player for the bundle to apply (static_src/shell/styles.ts) and preloaded when
    # the viewer is to press play; nothing blocks the first paint.
    assert player.styles, "the player entry has a stylesheet"
    assert f'data-styles="{" ".join(player.styles)}"' in html
    for href in player.styles:
        assert f'<link rel="preload" as="style" href="{href}">' in head
    assert not re.search(r"<link[^>]*rel=\"?stylesheet", html)
    autoplay = client.get("/?movie_id=1&auto_play=1").get_data(as_text=True)
    assert f'data-styles="{" ".join(player.styles)}"' in autoplay
    assert not any(href in head_of(autoplay) for href in player.styles), "asked for after the first frame"


def test_error_pages_link_no_stylesheet(client, demo_catalogue, app):
    shell_css = str(app.extensions["assets_manifest"].inline_css("styles/shell.css"))
    for query, headers, status in (
        ("/", {}, 400),
        ("/?movie_id=404404", {}, 404),
        ("/?movie_id=5", {"Referer": "https://elsewhere.example/"}, 403),
    ):
        response = client.get(query, headers=headers)
        html = response.get_data(as_text=True)
        assert response.status_code == status
        assert shell_css in html
        assert re.findall(r"<link[^>]*>", html) == ['<link rel="icon" href="data:,">']
        assert "<script type=\"module\"" not in html and "<script nonce" not in html


def test_hashed_assets_are_cached_for_a_year(client, app):
    script = app.extensions["assets_manifest"].entry("player.tsx").script
    response = client.get(script)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/assets/meta.json").status_code == 404


def test_episode_choice_reaches_the_context(client, demo_catalogue):
    assert page_context(client.get("/?movie_id=2&season=2&episode=3"))["episodeId"] == 7
    assert page_context(client.get("/?movie_id=2&season=2"))["episodeId"] == 5
    assert page_context(client.get("/?movie_id=2&episode_id=4&season=2"))["episodeId"] == 4
    assert page_context(client.get("/?movie_id=2&episode_id=1"))["episodeId"] == 2  # episode 1 is the film's
    assert page_context(client.get("/?movie_id=2"))["episodeId"] == 2
    html = client.get("/?movie_id=2&season=2&episode=3").get_data(as_text=True)
    assert "Сезон 2, серия 3. Рассвет" in html


def test_player_parameters_reach_the_context(client, demo_catalogue):
    context = page_context(client.get(
        "/?movie_id=2&t=61.9&episode_time=abc&auto_play=1&enabled_share=1&user_id=u7&voice_author=Оригинал"
        "&lang_order=en,ru"
    ))
    assert context["timeCode"] == 61
    assert context["episodeTime"] is None
    assert context["autoPlay"] is True
    assert context["isPreload"] is False
    assert context["isEnabledShare"] is True
    assert context["userId"] == "u7"
    assert context["voiceAuthor"] == "Оригинал"
    assert context["langOrder"] == ["en", "ru"]


@pytest.mark.parametrize("query", ["/", "/?movie_id=", "/?season=1"])
def test_missing_movie_id_screen(client, query):
    response = client.get(query)
    assert response.status_code == 400
    assert texts.MISSING_MOVIE_ID in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ["/?movie_id=999", "/?movie_id=abc", "/?movie_id=-1", "/?movie_id=1%00"])
def test_unknown_content_screen(client, demo_catalogue, query):
    response = client.get(query)
    assert response.status_code == 404
    assert texts.CONTENT_NOT_AVAILABLE in response.get_data(as_text=True)
    assert "data-player-start" not in response.get_data(as_text=True)


def test_a_viewer_in_a_blocked_country_gets_the_player_shell_with_451(client, demo_catalogue, behind_proxy):
    response = client.get("/?movie_id=3", headers={"X-Viewer-Country": "RU"})
    assert response.status_code == 451
    html = response.get_data(as_text=True)
    assert '<img class="player__poster-img" src="/media/posters/film-short.jpg"' in html
    assert '<h1 class="player__title">Закрытый показ</h1>' in html
    assert "data-player-start" in html
    assert 'role="alert"' not in html  # not the server's error screen: the player shows the text after the clip
    assert f'<noscript><p class="player__notice">{texts.BLOCKED_IN_COUNTRY}</p></noscript>' in html
    context = page_context(response)
    assert context["isAvailable"] is False
    assert context["config"]["placeholderUrl"] == "/clips/not-available.mp4"
    assert client.get("/?movie_id=3", headers={"X-Viewer-Country": "DE"}).status_code == 200
    assert texts.NO_SCRIPT in client.get("/?movie_id=3", headers={"X-Viewer-Country": "DE"}).get_data(as_text=True)


def test_the_placeholder_clip_is_served(client):
    response = client.get("/clips/not-available.mp4")
    assert response.status_code == 200
    assert response.mimetype == "video/mp4"
    assert 0 < len(response.data) < 64_000
    response.close()


def test_country_header_is_configurable(app, demo_catalogue, behind_proxy):
    app.config["COUNTRY_HEADER"] = "CF-IPCountry"
    client = app.test_client()
    assert client.get("/?movie_id=3", headers={"CF-IPCountry": "de"}).status_code == 200
    assert client.get("/?movie_id=3", headers={"X-Viewer-Country": "de"}).status_code == 451


def test_country_override_parameter_only_when_configured(app, demo_catalogue):
    client = app.test_client()
    assert client.get("/?movie_id=3&country=de").status_code == 451
    app.config["COUNTRY_QUERY_PARAM"] = "country"
    assert client.get("/?movie_id=3&country=de").status_code == 200


FRAMED = {"Sec-Fetch-Dest": "iframe"}  # what a browser sends for a page it loads into a frame


def test_disable_checking_available_never_lifts_a_country_block(client, demo_catalogue):
    """Spec §4 lets the embed disable the check; a viewer could then watch a title licensed away from their country.
    The country rule holds whatever the query says (docs/licences.md)."""
    response = client.get("/?movie_id=3&disable_checking_available=1")
    assert response.status_code == 451
    assert page_context(response)["isAvailable"] is False


def test_disable_checking_available_lifts_a_domain_rule_for_a_trusted_publisher_only(app, client, demo_catalogue):
    elsewhere = {"Referer": "https://news.example/films/5", **FRAMED}
    assert client.get("/?movie_id=5&disable_checking_available=1", headers=elsewhere).status_code == 403
    app.config["PUBLISHER_ORIGINS"] = "https://news.example"
    response = client.get("/?movie_id=5&disable_checking_available=1", headers=elsewhere)
    assert response.status_code == 200 and page_context(response)["isAvailable"] is True
    # the origin parameter names a publisher; it is not the browser's word for who embeds us
    claimed = {"Referer": "https://pirate.example/", **FRAMED}
    assert client.get("/?movie_id=5&disable_checking_available=1&origin=https://news.example",
                      headers=claimed).status_code == 403


def test_domain_limited_content_follows_the_embedding_page(client, demo_catalogue):
    partner = {"Referer": "https://partner.example/films/5"}
    assert client.get("/?movie_id=5", headers={**partner, **FRAMED}).status_code == 200
    # the partner's address on a load that is not a frame's (a script, a link): no page embeds us
    assert client.get("/?movie_id=5", headers={"Referer": "https://partner.example/films/5"}).status_code == 403
    response = client.get("/?movie_id=5", headers={"Referer": "https://elsewhere.example/", **FRAMED})
    assert response.status_code == 403
    html = response.get_data(as_text=True)
    assert f'<p class="player__error-text">{texts.CONTENT_NOT_AVAILABLE}</p>' in html  # the server's error screen
    assert "data-player-start" not in html


def test_data_is_escaped_in_the_page(client, demo_catalogue, app):
    from app.extensions import db
    from app.models import Content

    with app.app_context():
        db.session.get(Content, 1).title = '</script><script>alert(1)</script>&"'
        db.session.commit()
    html = client.get("/?movie_id=1").get_data(as_text=True)
    assert "<script>alert(1)" not in html
    assert page_context(client.get("/?movie_id=1"))["content"]["title"] == '</script><script>alert(1)</script>&"'


def test_demo_page_embeds_the_player_through_lib_js(client, demo_catalogue):
    html = client.get("/demo").get_data(as_text=True)
    assert '<script src="/lib.js"></script>' in html  # the iframe is lib.js's (tests/browser/test_bridge.py)
    assert "data-demo-frame" in html
    assert html.count("<option") == 5


def test_an_unexpected_failure_on_the_page_shows_an_error_id_and_reload(client, demo_catalogue, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("app.player.views.resolve_player_context", explode)
    response = client.get("/?movie_id=1&season=1")
    html = response.get_data(as_text=True)
    assert response.status_code == 500
    assert texts.GENERIC_ERROR in html
    assert re.search(r"Идентификатор ошибки: <span data-error-id>[0-9a-f]{32}</span>", html)
    assert f'href="/?movie_id=1&amp;season=1">{texts.RELOAD_PAGE}</a>' in html
    assert "secret" not in html and "Traceback" not in html


def test_module_preloads_name_each_chunk_once_and_hls_only_with_auto_play(client, demo_catalogue, app):
    app.config["AD_LIST_URL"] = ""  # no ads: the first frame is the film's
    hls = app.extensions["assets_manifest"].entry("hls.ts")
    autoplay = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/?movie_id=1&auto_play=1").text)
    assert len(autoplay) == len(set(autoplay)), "a chunk the entry and hls.js share is preloaded once"
    assert hls.script in autoplay
    clicked = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/?movie_id=1").text)
    assert hls.script not in clicked


def test_with_auto_play_the_first_frames_chunk_is_asked_for_before_the_entrys_files(client, demo_catalogue, app):
    app.config["AD_LIST_URL"] = ""
    manifest = app.extensions["assets_manifest"]
    hls, entry = manifest.entry("hls.ts"), manifest.entry("player.tsx")
    head = client.get("/?movie_id=1&auto_play=1").text.split("</head>")[0]
    urls = re.findall(r'<link rel="(?:modulepreload|preload)"[^>]* href="([^"]+)"', head)
    urls += re.findall(r'<script type="module" src="([^"]+)"', head)
    later = [*entry.preloads, entry.script]
    assert all(urls.index(hls.script) < urls.index(href) for href in later), urls


def test_with_auto_play_and_an_ad_list_the_ad_path_is_preloaded_instead_of_hls(client, demo_catalogue, app):
    manifest = app.extensions["assets_manifest"]
    ads, hls = manifest.entry("boot.ts"), manifest.entry("hls.ts")
    autoplay = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/?movie_id=1&auto_play=1").text)
    assert ads.script in autoplay and len(autoplay) == len(set(autoplay))
    assert hls.script not in autoplay, "hls.js loads under the pre-roll, after its first frame"
    clicked = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/?movie_id=1").text)
    assert ads.script not in clicked


@pytest.mark.parametrize(("path", "expected"), [
    ("/season-2/episode-3?movie_id=2&enabled_share=1", 7),
    ("/season-1/episode-2?movie_id=2&episode_id=7&season=2", 3),  # the path chooses; the query's choice gives way
])
def test_a_share_link_made_on_the_player_page_opens_its_episode(client, demo_catalogue, path, expected):
    """Spec §2's share link when the player page is the top page: its own path plus season-N/episode-M."""
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert page_context(response)["episodeId"] == expected


def test_a_share_path_without_a_movie_id_is_the_spec_error_screen(client, demo_catalogue):
    response = client.get("/season-1/episode-1")
    assert response.status_code == 400 and "Пропущен movie_id в запросе" in response.get_data(as_text=True)


@pytest.mark.parametrize(("page_url", "kept"), [
    ("https://site.example/serials/harbour/watch/season-1/episode-2?ref=abc", True),
    ("http://site.example/", True),
    ("javascript:alert(1)", False),
    ("data:text/html,x", False),
    ("/relative/path", False),
    ("https://site.example/" + "a" * 2100, False),
    ("https://site.example/a b", False),
])
def test_the_embedding_pages_address_reaches_the_player_only_as_an_http_url(client, demo_catalogue, page_url, kept):
    response = client.get("/", query_string={"movie_id": 2, "page_url": page_url})
    assert page_context(response)["pageUrl"] == (page_url if kept else None)


@pytest.mark.parametrize(("value", "awaited"), [("1", True), ("0", False), (None, False), ("yes", True)])
def test_request_headers_tells_the_player_to_wait_for_the_relayed_ones(client, demo_catalogue, value, awaited):
    query = {"movie_id": 2} | ({"request_headers": value} if value is not None else {})
    assert page_context(client.get("/", query_string=query))["awaitRequestHeaders"] is awaited


def test_the_player_learns_which_ad_servers_take_the_ad_headers(app, client, demo_catalogue):
    config = page_context(client.get("/?movie_id=2"))["config"]
    assert config["adHeaderOrigins"] == [] and config["adPods"] is False  # spec §5's one Ad per document
    app.config["AD_HEADER_ORIGINS"] = "https://Ads.example:443, https://b.example:8443"
    # (a new address: the page for the first is cached, and configuration changes come with a restart)
    assert page_context(client.get("/?movie_id=2&t=1"))["config"]["adHeaderOrigins"] == [
        "https://ads.example", "https://b.example:8443"]
