"""The parent-page bridge end to end (spec §4, §7): a publisher's page on another origin embeds the player with /lib.js.

One application served twice: the player on http://127.0.0.1:P, the publisher's page on http://localhost:P (the same
server under another host name: another origin), and a third origin on http://127.0.0.1:Q for pages that must not
be obeyed. The demo series (content 2: episodes 2-4 of 52, 60, 68 s, then 5-7) and, for the ad, the film with the
demo's 15 s skippable pre-roll. FULLSCREEN_MODE=pseudo, so the fullscreen button posts enterFullScreen/exitFullScreen.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Blueprint, Flask, Response, request
from flask_migrate import upgrade
from playwright.sync_api import Frame, Page, expect
from sqlalchemy import delete

from app import create_app
from app.database import unhurried
from app.demo.ads import generate_creatives, seed_ads
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import AdPlacement, AdPosition
from tests.browser.conftest import serving
from tests.browser.helpers import still_over_frames
from tests.conftest import reconfigure

SERIES, FILM, SKIPPABLE = 2, 1, 1
EVENT_TYPES = ["ready", "enterFullScreen", "exitFullScreen", "episodeChanged", "timeProgressChanged", "statistics"]

# Records, in every frame, what must never happen: uncaught errors, unhandled rejections, CSP violations. (The player
# runs without 'unsafe-eval': Playwright's checks in its frame are functions, never expression strings, which it evals.)
WATCH = """
window.__problems = [];
addEventListener('error', (e) => __problems.push('error: ' + e.message));
addEventListener('unhandledrejection', (e) => __problems.push('rejection: ' + e.reason));
document.addEventListener('securitypolicyviolation', (e) => __problems.push('csp: ' + e.violatedDirective));
"""

PUBLISHER_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Издатель</title></head>
<body style="margin:0">
<div id="slot" style="width:640px;height:360px"></div>
<iframe id="third" title="third" src="THIRD/publisher/attacker.html" width="200" height="60"></iframe>
<iframe id="twin" title="twin" srcdoc="ATTACKER" width="200" height="60"></iframe>
<script src="PLAYER/lib.js"></script>
<script>
  window.received = [];  // every message this window gets: who sent it, from where
  addEventListener('message', (e) => received.push({
    origin: e.origin, data: e.data, fromPlayer: !!window.player && e.source === player.iframe.contentWindow }));
  window.events = [];  // what lib.js handed to the listeners
  window.stats = [];  // the publisher's own statistics function (spec §7), which /lib.js calls for the player
  window.sendStatistics = function (event, payload) { stats.push({ event, payload, self: this === window }); };
  window.embed = (options, pageHeaders) => {
    if (pageHeaders) window.playerRequestHeaders = pageHeaders;  // spec §7's window-level headers, on this page
    window.player = PlayerHost.createPlayer('#slot', options);
    for (const type of TYPES) player.on(type, (payload) => events.push({ type, payload }));
  };
  window.attack = () => {  // the other frames of this page post commands to their sibling frames
    for (const id of ['third', 'twin']) document.getElementById(id).contentWindow.postMessage('attack', '*');
  };
</script>
</body></html>"""

# Posts every command to each frame of its parent except itself: a sibling, never the player's parent.
ATTACKER = """<!doctype html><meta charset="utf-8"><script>
addEventListener('message', (e) => {
  if (e.data !== 'attack') return;
  const commands = [{actionType: 'pause'}, {actionType: 'seek', time: 1}, {actionType: 'setEpisode', episodeId: 7}];
  for (let i = 0; i < parent.frames.length; i++) {
    if (parent.frames[i] === window) continue;
    for (const command of commands) parent.frames[i].postMessage(command, '*');
  }
  window.sent = true;
});
</script>"""

publisher = Blueprint("publisher", __name__)


@publisher.get("/publisher/page.html")
def publisher_view() -> Response:
    attacker = ATTACKER.replace("&", "&amp;").replace('"', "&quot;")
    html = (PUBLISHER_PAGE.replace("PLAYER", request.args["player"]).replace("THIRD", request.args["third"])
            .replace("ATTACKER", attacker).replace("TYPES", json.dumps(EVENT_TYPES)))
    return Response(html, mimetype="text/html")


@publisher.get("/publisher/attacker.html")
def attacker_page() -> Response:
    # a frame of the publisher's page: it sets its own policy, so the app's refusal to be framed does not apply
    return Response(ATTACKER, mimetype="text/html", headers={"Content-Security-Policy": "frame-ancestors *"})


@pytest.fixture(scope="module")
def servers(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[Flask, str, str, str]]:
    """(app, player origin, publisher origin, third origin)."""
    generate_creatives(demo_media)
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("bridge"), "MEDIA_ROOT": str(demo_media),
                      "FULLSCREEN_MODE": "pseudo"})
    app.register_blueprint(publisher)
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        seed_ads()
        db.session.execute(delete(AdPlacement))
        db.session.commit()
    with serving(app) as player_origin, serving(app) as third_origin:
        yield app, player_origin, player_origin.replace("127.0.0.1", "localhost"), third_origin


@pytest.fixture
def publisher_page(servers, page: Page) -> Iterator[Callable[..., Frame]]:
    """Opens the publisher's page and embeds the player with the given lib.js options; returns the player's frame."""
    app, player_origin, publisher_origin, third_origin = servers
    page.context.add_init_script(WATCH)

    def open_(page_headers: dict[str, str] | None = None, **options: Any) -> Frame:
        page.goto(f"{publisher_origin}/publisher/page.html?player={player_origin}&third={third_origin}")
        page.evaluate("([options, headers]) => embed(options, headers)", [options, page_headers])
        page.wait_for_function("() => events.some((e) => e.type === 'ready')", timeout=15_000)
        frame = page.locator("#slot iframe").element_handle().content_frame()
        assert frame is not None
        return frame

    yield open_
    for frame in page.frames:  # nothing went wrong in any frame, the player's included
        assert frame.evaluate("window.__problems || []") == [], frame.url
    reconfigure(app, PUBLISHER_ORIGINS="")
    with app.app_context():
        db.session.execute(delete(AdPlacement))
        db.session.commit()


def video(frame: Frame) -> dict:
    return frame.evaluate("""() => { const v = document.querySelector('video.player__video');
      return {time: v.currentTime, paused: v.paused, duration: v.duration}; }""")


def wait_playing(frame: Frame, seconds: float, timeout: float = 20_000) -> None:
    frame.wait_for_function("""(s) => { const v = document.querySelector('video.player__video');
      return !!v && !v.paused && v.currentTime >= s && v.getVideoPlaybackQuality().totalVideoFrames > 0; }""",
                            arg=seconds, timeout=timeout)


def events_of(page: Page, kind: str) -> list:
    return page.evaluate("(kind) => events.filter((e) => e.type === kind).map((e) => e.payload)", kind)


def listen(frame: Frame) -> None:
    """From now on the player's window notes each message it receives (window.__heard), in a listener added after
    the player's own: a message noted there has been through the player's listener (embed/bridge) already."""
    frame.evaluate("() => { window.__heard = []; addEventListener('message', (e) => { __heard.push(e.data); }); }")


def wait_heard(frame: Frame, count: int) -> None:
    """Until the player's window has received `count` messages since listen(): the player has handled them."""
    frame.wait_for_function("(count) => window.__heard.length >= count", arg=count)


def test_each_outgoing_message_arrives_with_its_payload_at_the_parent(servers, publisher_page, page: Page):
    _, player_origin, _publisher_origin, _ = servers
    frame = publisher_page(movieId=SERIES, autoPlay=True)
    assert frame.url.startswith(f"{player_origin}/?movie_id={SERIES}&auto_play=1&origin=")
    # the origin parameter is not listed, so the server names no parent (the page is the same on every site): the
    # player takes the browser's word for it (location.ancestorOrigins), and every message below arrives there
    assert frame.evaluate("JSON.parse(document.getElementById('player-context').textContent).config.parentOrigin") \
        is None
    wait_playing(frame, 1.5)

    page.wait_for_function("() => events.filter((e) => e.type === 'timeProgressChanged').length >= 2")
    progress = events_of(page, "timeProgressChanged")
    assert all(round(p["duration"]) == 52 for p in progress), progress  # the first episode's length
    assert progress[-1]["currentTime"] > progress[0]["currentTime"] >= 0

    box = page.locator("#slot iframe").bounding_box()
    page.mouse.move(box["x"] + 320, box["y"] + 150)
    page.mouse.move(box["x"] + 330, box["y"] + 160)
    frame.locator('[data-control="fullscreen"]').click()
    page.wait_for_function("() => events.some((e) => e.type === 'enterFullScreen')")
    stretched = page.locator("#slot iframe").bounding_box()
    assert (stretched["width"], stretched["height"]) == (960, 540)  # lib.js stretched the frame over the page
    frame.locator('[data-control="fullscreen"]').click()
    page.wait_for_function("() => events.some((e) => e.type === 'exitFullScreen')")
    restored = page.locator("#slot iframe").bounding_box()
    assert (restored["width"], restored["height"]) == (box["width"], box["height"])

    frame.evaluate("() => document.querySelector('video.player__video').currentTime = 51.5")  # the end: next episode
    page.wait_for_function("() => events.some((e) => e.type === 'episodeChanged')", timeout=15_000)
    [episode] = events_of(page, "episodeChanged")
    assert (episode["id"], episode["title"], episode["season"]["order"], episode["order"]) == (3, "Шторм", 1, 2)

    from_player = page.evaluate("received.filter((m) => m.fromPlayer)")
    assert {m["data"]["type"] for m in from_player} == set(EVENT_TYPES)
    assert {m["origin"] for m in from_player} == {player_origin}
    assert all(m["data"]["source"] == "player" for m in from_player)
    assert events_of(page, "ready") == [None]


def test_commands_from_the_parent_play_pause_seek_and_change_the_episode(publisher_page, page: Page):
    frame = publisher_page(movieId=SERIES)
    assert video(frame)["paused"]
    page.evaluate("player.play()")
    wait_playing(frame, 0.5)

    page.evaluate("player.pause()")
    frame.wait_for_function("() => document.querySelector('video.player__video').paused")
    expect(frame.locator("#player")).to_have_attribute("data-state", "paused")

    page.evaluate("player.seek(30)")
    frame.wait_for_function("() => Math.abs(document.querySelector('video.player__video').currentTime - 30) < 0.5")
    page.evaluate("player.play()")
    wait_playing(frame, 30.5)

    page.evaluate("player.setEpisode(5)")  # season 2, episode 1
    expect(frame.locator(".player__subtitle")).to_have_text("Сезон 2, серия 1. Возвращение")
    frame.wait_for_function("() => Math.round(document.querySelector('video.player__video').duration) === 76")
    wait_playing(frame, 0.5)  # playback had started: the new episode plays
    assert [e["id"] for e in events_of(page, "episodeChanged")] == [5]


def test_pages_on_other_origins_and_sibling_frames_cannot_command_the_player(publisher_page, page: Page):
    frame = publisher_page(movieId=SERIES, autoPlay=True)
    wait_playing(frame, 2)
    listen(frame)
    before = video(frame)["time"]
    page.evaluate("attack()")
    for sibling in ("#third", "#twin"):  # another origin, and the publisher's own origin in a sibling frame
        page.locator(sibling).element_handle().content_frame().wait_for_function("() => window.sent === true")
    frame.evaluate("window.postMessage({actionType: 'pause'}, '*')")  # the player's own window is not its parent
    wait_heard(frame, 2 * 3 + 1)  # each sibling's three commands, and its own: all refused by now
    state = video(frame)  # a pause, a seek or a new episode obeyed would show at once (the video paused or moved)
    assert not state["paused"] and state["time"] >= before and round(state["duration"]) == 52  # nor seeked, nor another
    assert events_of(page, "episodeChanged") == []


def test_malformed_messages_and_a_flood_change_nothing(publisher_page, page: Page):
    page.clock.install()  # the second the player counts the parent's commands in is on the page's clock (running)
    frame = publisher_page(movieId=SERIES, autoPlay=True)
    wait_playing(frame, 1)
    listen(frame)
    before = video(frame)["time"]
    page.evaluate("""(origin) => {
      const target = player.iframe.contentWindow;
      const proto = Object.create({actionType: 'pause'});
      for (const data of ['pause', '{"actionType":"pause"}', null, undefined, 42, [], [{actionType: 'pause'}], proto,
          {actionType: 'unknown'}, {actionType: '__proto__'}, {actionType: 'constructor'}, {actionType: 'toString'},
          {actionType: 'PAUSE'}, {actionType: ['pause']}, {actionType: 'seek', time: NaN},
          {actionType: 'seek', time: Infinity}, {actionType: 'seek', time: -5}, {actionType: 'seek', time: '40'},
          {actionType: 'setEpisode', episodeId: '5'}, {actionType: 'setEpisode', episodeId: 2.5},
          {actionType: 'setEpisode', episodeId: 999999}, JSON.parse('{"__proto__": {"actionType": "pause"}}')]) {
        target.postMessage(data, origin);
      }
      target.postMessage({actionType: 'pause'}, 'http://elsewhere.example');  // the browser drops it: wrong target
      target.postMessage('done', origin);  // not a command either; it comes after the others
    }""", frame.url.split("/?")[0])
    frame.wait_for_function("() => window.__heard.includes('done')")  # so the player has handled them all
    state = video(frame)  # a pause, a seek or a new episode obeyed would show at once
    assert not state["paused"] and round(state["duration"]) == 52 and before <= state["time"] < before + 5

    # a flood: 5000 seeks as fast as the parent can post them; the player takes 20 a second and drops the rest
    frame.evaluate("""() => { window.__seeks = 0;
      document.querySelector('video.player__video').addEventListener('seeking', () => { window.__seeks += 1; }); }""")
    seconds = page.evaluate("""(origin) => {
      const started = performance.now();
      for (let i = 0; i < 5000; i++) player.iframe.contentWindow.postMessage({actionType: 'seek', time: 40}, origin);
      player.iframe.contentWindow.postMessage('flooded', origin);
      return (performance.now() - started) / 1000;
    }""", frame.url.split("/?")[0])
    # every seek handled, and the ones taken done with (each counted as it began)
    frame.wait_for_function("""() => window.__heard.includes('flooded')
      && !document.querySelector('video.player__video').seeking""")
    taken = frame.evaluate("() => window.__seeks")
    assert 1 <= taken <= 20 * (int(seconds) + 3), (taken, seconds)
    assert not video(frame)["paused"]
    page.clock.fast_forward(1000)
    page.evaluate("player.seek(10)")  # a second later the parent is heard again
    frame.wait_for_function("() => { const t = document.querySelector('video.player__video').currentTime; "
                            "return t >= 10 && t < 20; }")


def test_an_ad_obeys_only_the_parent(servers, publisher_page, page: Page):
    app, *_ = servers
    with app.app_context():
        db.session.add(AdPlacement(position=AdPosition.PREROLL, creative_id=SKIPPABLE, content_id=FILM))
        db.session.commit()
    frame = publisher_page(movieId=FILM, autoPlay=True)
    layer = frame.locator(".ad-layer")
    expect(layer).to_have_attribute("data-status", "PLAYING", timeout=15_000)

    listen(frame)
    page.evaluate("attack()")
    wait_heard(frame, 2 * 3)  # each sibling's three commands, refused by now: a pause obeyed pauses the ad at once
    assert frame.evaluate("document.querySelector('video.ad-layer__video').paused") is False
    expect(layer).to_have_attribute("data-status", "PLAYING")

    page.evaluate("player.pause()")
    expect(layer).to_have_attribute("data-status", "PAUSED")
    paused_at = frame.evaluate("document.querySelector('video.ad-layer__video').currentTime")
    assert still_over_frames(frame, selector="video.ad-layer__video") == {"moved": 0, "presented": 0}
    assert frame.evaluate("document.querySelector('video.ad-layer__video').currentTime") == paused_at
    assert video(frame)["paused"]  # the film under it waits too
    page.evaluate("player.play()")
    expect(layer).to_have_attribute("data-status", "PLAYING")
    assert video(frame)["paused"]  # play went to the ad, not to the film under it


def test_a_claimed_origin_gets_nothing_and_commands_nothing(servers, publisher_page, page: Page):
    """A page that lies about its origin: the claim is allow-listed, so the server believes it, and the player posts
    only there; the page that really embeds it hears nothing and is not obeyed."""
    app, player_origin, publisher_origin, third_origin = servers
    reconfigure(app, PUBLISHER_ORIGINS=f"{publisher_origin},{third_origin}")  # the liar may frame the player
    page.goto(f"{third_origin}/publisher/page.html?player={player_origin}&third={third_origin}")
    page.evaluate("""([player, claimed]) => {
      const iframe = document.createElement('iframe');
      iframe.src = `${player}/?movie_id=2&auto_play=1&origin=${encodeURIComponent(claimed)}`;
      iframe.allow = 'autoplay';
      document.getElementById('slot').append(iframe);
      window.liar = iframe;
    }""", [player_origin, publisher_origin])
    frame = page.locator("#slot iframe").element_handle().content_frame()
    frame.wait_for_selector("video.player__video", state="attached")
    assert frame.evaluate("JSON.parse(document.getElementById('player-context').textContent).config.parentOrigin") \
        == publisher_origin
    wait_playing(frame, 1.5)  # the player has posted ready and its progress meanwhile, to the claimed origin only
    listen(frame)
    page.evaluate("(origin) => liar.contentWindow.postMessage({actionType: 'pause'}, origin)", player_origin)
    wait_heard(frame, 1)
    assert not video(frame)["paused"]
    assert page.evaluate("(origin) => received.filter((m) => m.origin === origin)", player_origin) == []


def test_with_an_allow_list_a_page_not_on_it_cannot_frame_the_player(servers, publisher_page, page: Page):
    app, player_origin, publisher_origin, third_origin = servers
    reconfigure(app, PUBLISHER_ORIGINS=third_origin)
    page.goto(f"{publisher_origin}/publisher/page.html?player={player_origin}&third={third_origin}")
    # Chromium reports the refused frame: once it has, no player can load in it
    with page.expect_console_message(lambda m: "frame-ancestors" in m.text, timeout=15_000):
        page.evaluate("(options) => embed(options)", {"movieId": SERIES})
    assert page.evaluate("events") == []  # no player, so no ready


def test_the_iframe_fills_its_container_or_keeps_16_9_of_its_width(servers, publisher_page, page: Page):
    """/lib.js sizes the iframe: the publisher's 640×360 slot is filled; a block in the flow with no height (the
    README's snippet in a 1000-pixel column) gets a 16:9 player as wide as the column."""
    _, player_origin, _, _ = servers
    publisher_page(movieId=FILM)
    box = page.locator("#slot iframe").bounding_box()
    assert (box["width"], box["height"]) == (640, 360)
    page.evaluate("""(player) => {
      const column = document.createElement('div');
      column.id = 'column';
      column.style.width = '1000px';
      document.body.append(column);
      PlayerHost.createPlayer(column, { movieId: 1, playerUrl: player + '/' });
    }""", player_origin)
    box = page.locator("#column iframe").bounding_box()
    assert box["width"] == 1000 and abs(box["height"] - 562.5) < 1
    assert page.locator("#column").bounding_box()["height"] == box["height"]  # the column holds it, nothing spills


def test_a_share_link_from_a_publisher_page_keeps_its_path_and_query(servers, publisher_page, page: Page):
    """Spec §2 from a page on another origin: /lib.js passes the page's address (page_url), and the player takes it
    because its origin is the embedding page's; the link is that page's path and query with the episode's segments."""
    _, player_origin, publisher_origin, third_origin = servers
    frame = publisher_page(movieId=SERIES, season=2, episode=3, enabledShare=True, autoPlay=True)
    assert "page_url=" in frame.url
    wait_playing(frame, 0.5)
    box = page.locator("#slot iframe").bounding_box()
    page.mouse.move(box["x"] + 320, box["y"] + 150)
    page.mouse.move(box["x"] + 327, box["y"] + 153)
    frame.locator('.player__controls [data-control="share"]').click(timeout=5_000)
    field = frame.get_by_role("dialog", name="Поделиться").get_by_role("textbox")
    # the page's own path and query, byte for byte, with the episode's segments (the page is not the player's origin)
    expect(field).to_have_value(
        f"{publisher_origin}/publisher/page.html/season-2/episode-3?player={player_origin}&third={third_origin}")


def test_the_publishers_own_statistics_function_receives_the_players_events(servers, publisher_page, page: Page):
    """Spec §7's analytics from a page on another origin: the player's window cannot reach the publisher's function,
    so /lib.js calls it with what the player posts (statistics), and hands the same to the player object's listeners."""
    frame = publisher_page(movieId=SERIES, autoPlay=True)
    wait_playing(frame, 1)
    page.wait_for_function("() => stats.some((s) => s.event === 'play')", timeout=10_000)
    play = page.evaluate("() => stats.find((s) => s.event === 'play')")
    assert play["payload"]["video_id"] == SERIES and play["payload"]["video_title"] == "Тихая гавань"
    assert play["self"] is True  # called as the player calls it: `this` is the page's window
    heard = page.evaluate("""() => new Promise((resolve) => {
      player.on('statistics', (call) => resolve(call));
      player.pause();
    })""")
    assert heard["event"] == "pause" and heard["name"] == "sendStatistics"
    page.wait_for_function("() => stats.some((s) => s.event === 'pause')")


@pytest.mark.parametrize("where", ["option", "page"])
def test_the_publishers_request_headers_go_with_the_players_ad_requests(servers, publisher_page, page: Page, where):
    """Spec §7's window-level request headers from a page on another origin: /lib.js relays the requestHeaders option,
    or the page's own window.playerRequestHeaders, and the player sends them with the ad list and VAST requests of
    the pre-roll that starts at once (it waits for them: request_headers=1), then the ones set later."""
    app, *_ = servers
    with app.app_context():
        db.session.add(AdPlacement(position=AdPosition.PREROLL, creative_id=SKIPPABLE, content_id=FILM))
        db.session.add(AdPlacement(position=AdPosition.MIDROLL, creative_id=SKIPPABLE, content_id=FILM))
        db.session.commit()
    sent: list[tuple[str, dict[str, str]]] = []
    page.on("request", lambda r: sent.append((r.url, r.headers)) if "/ad-list.json" in r.url or "/vast.xml" in r.url
            else None)
    headers = {"X-Publisher": "news-site", "X-Ad-Token": "t-1"}
    frame = (publisher_page(movieId=FILM, autoPlay=True, requestHeaders=headers) if where == "option"
             else publisher_page(page_headers=headers, movieId=FILM, autoPlay=True))
    assert "request_headers=1" in frame.url
    expect(frame.locator(".ad-layer")).to_have_attribute("data-status", "PLAYING", timeout=15_000)
    assert [url.split("?")[0].rsplit("/", 1)[1] for url, _ in sent] == ["ad-list.json", "vast.xml"]
    assert all((h.get("x-publisher"), h.get("x-ad-token")) == ("news-site", "t-1") for _, h in sent), sent

    sent.clear()  # a token renewed by the page: the mid-roll's request carries the new one
    page.evaluate("player.setRequestHeaders({ 'X-Ad-Token': 't-2' })")
    frame.locator("button[data-ad-control='skip']").click(timeout=10_000)
    wait_playing(frame, 0.5)
    duration = video(frame)["duration"]
    frame.evaluate("(t) => { document.querySelector('video.player__video').currentTime = t; }", duration / 2 - 1)
    expect(frame.locator(".ad-layer")).to_have_count(1, timeout=15_000)
    vast = [h for url, h in sent if "/vast.xml" in url]
    assert vast and all(h.get("x-ad-token") == "t-2" and "x-publisher" not in h for h in vast), sent


def test_a_vast_on_another_ad_server_is_a_simple_get_and_plays(servers, publisher_page, page: Page):
    """Spec §7's "same headers", narrowed (README "Ads"): the ad list and the player's own VAST carry the session
    context and the publisher's headers; a VAST on another origin (here the publisher's host name for the same
    server, which answers with Access-Control-Allow-Origin: * and allows no custom header) gets a simple GET, so the
    browser sends it without a preflight and the ad plays."""
    app, _, publisher_origin, _ = servers
    with app.app_context():
        db.session.add(AdPlacement(position=AdPosition.PREROLL, content_id=FILM,
                                   vast_url=f"{publisher_origin}/vast.xml?creative={SKIPPABLE}"))
        db.session.commit()
    sent: list[tuple[str, str, dict[str, str]]] = []
    page.on("request", lambda r: sent.append((r.method, r.url, r.headers)) if "/ad-list.json" in r.url
            or "/vast.xml" in r.url else None)
    frame = publisher_page(movieId=FILM, autoPlay=True, requestHeaders={"X-Publisher": "news-site"})
    expect(frame.locator(".ad-layer")).to_have_attribute("data-status", "PLAYING", timeout=15_000)
    [(_, _, listed)] = [(m, u, h) for m, u, h in sent if "/ad-list.json" in u]
    assert listed.get("x-publisher") == "news-site" and "x-session-context" in listed
    vast = [(method, headers) for method, url, headers in sent if url.startswith(f"{publisher_origin}/vast.xml")]
    assert vast and all(method == "GET" for method, _ in vast)  # no OPTIONS preflight
    assert all("x-session-context" not in h and "x-publisher" not in h for _, h in vast), vast
