"""Ads end to end in Chromium against the demo's house ads: a live server of their own (its own database, the
demo creatives, placements set per test), the tracking endpoint read back from the database."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Blueprint, Flask, Response, request
from playwright.sync_api import Page, Request, expect
from sqlalchemy import select

from app.demo.catalogue import SEGMENT_SECONDS
from app.extensions import db
from app.models import AdPlacement, AdPosition, AdTrackingHit
from tests.browser.conftest import SHORT_AD_S, SHORT_NOT_SKIPPABLE, SHORT_SKIPPABLE, ads_server, place
from tests.browser.helpers import poll, video_state, wait_until_playing
from tests.conftest import reconfigure

LONG_FILM = 1
SKIPPABLE = 1  # the demo's 15 s creative, skippable at 5 s; and the short ones (conftest): 6 s, skippable at 1 s or not
VAST_TIMEOUT_S = 2  # the spec's 5 s per VAST request, shortened on this server (PLAYER_TEST_TIMINGS)

faults = Blueprint("faults", __name__)
UNSUPPORTED = """<VAST version="4.2"><Ad id="u"><InLine><AdSystem>t</AdSystem>
<Error><![CDATA[{base}/fault/pixel?event=error&source=fault&code=[ERRORCODE]&playhead=[ADPLAYHEAD]]]></Error>
<Impression><![CDATA[{base}/fault/pixel?event=impression&source=fault]]></Impression><AdTitle>u</AdTitle>
<Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>
<MediaFile delivery="progressive" type="video/x-flv" width="640" height="360"><![CDATA[{base}/a.flv]]></MediaFile>
</MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"""
EMPTY = """<VAST version="4.2">
<Error><![CDATA[{base}/fault/pixel?event=error&source=fault&code=[ERRORCODE]&playhead=[ADPLAYHEAD]]]></Error>
</VAST>"""
WRAPPER = """<VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>
<Error><![CDATA[{base}/fault/pixel?event=error&source=wrapper&code=[ERRORCODE]&playhead=[ADPLAYHEAD]]]></Error>
<Impression><![CDATA[{base}/fault/pixel?event=impression&source=wrapper]]></Impression>
<VASTAdTagURI><![CDATA[{base}/fault/{kind}.xml]]></VASTAdTagURI></Wrapper></Ad></VAST>"""
JS_CLICK = """<VAST version="4.2"><Ad id="j"><InLine><AdSystem>t</AdSystem><AdTitle>j</AdTitle>
<Impression><![CDATA[{base}/fault/pixel?event=impression&source=js]]></Impression>
<Creatives><Creative><Linear><Duration>00:00:15</Duration><MediaFiles>
<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">
<![CDATA[{base}/media/ads/house-15s.mp4]]></MediaFile>
</MediaFiles><VideoClicks><ClickThrough><![CDATA[javascript:document.title='pwned']]></ClickThrough>
<ClickTracking><![CDATA[{base}/fault/pixel?event=click&source=js]]></ClickTracking></VideoClicks>
</Linear></Creative></Creatives></InLine></Ad></VAST>"""
POD_AD = """<Ad id="{n}" sequence="{n}"><InLine><AdSystem>t</AdSystem><AdTitle>p</AdTitle>
<Error><![CDATA[{base}/fault/pixel?event=error&source=pod-{n}&code=[ERRORCODE]]]></Error>
<Impression><![CDATA[{base}/fault/pixel?event=impression&source=pod-{n}]]></Impression>
<Creatives><Creative><Linear><Duration>00:00:15</Duration><MediaFiles>
<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">
<![CDATA[{base}/media/ads/house-15s.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>"""
# IAB's own VAST 3.0 samples carry codec="0", which Chromium's canPlayType cannot parse ('' with it, 'maybe' without)
CODEC_0 = JS_CLICK.replace('type="video/mp4"', 'type="video/mp4" codec="0"').replace(
    "javascript:document.title='pwned'", "{base}/").replace("source=js", "source=codec0")
QUARTILES = ("firstQuartile", "midpoint", "thirdQuartile", "complete")
# A 6 s file whose document says 00:00:12 (an ad server's rounded or stale figure): quartiles follow the file
MISDECLARED = """<VAST version="4.2"><Ad id="m"><InLine><AdSystem>t</AdSystem><AdTitle>m</AdTitle>
<Impression><![CDATA[{base}/fault/pixel?event=impression&source=misdeclared]]></Impression>
<Creatives><Creative><Linear><Duration>00:00:12</Duration><TrackingEvents>
""" + "".join(f'<Tracking event="{e}"><![CDATA[{{base}}/fault/pixel?event={e}&source=misdeclared'
              "&playhead=[ADPLAYHEAD]]]></Tracking>" for e in QUARTILES) + """
</TrackingEvents><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">
<![CDATA[{base}/media/ads/test-6s.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"""
TIMED_HITS: list[tuple[str, str]] = []  # (event, playhead) of the time-based pixels of the two documents here
# The same 6 s ad, declared right, with its ViewableImpression URLs
VERDICTS = ("Viewable", "NotViewable", "ViewUndetermined")
VIEWABLE = MISDECLARED.replace("00:00:12", "00:00:06").replace("misdeclared", "viewable").replace(
    "<Creatives>", "<ViewableImpression>" + "".join(
        f"<{tag}><![CDATA[{{base}}/fault/pixel?event={tag}&source=viewable&playhead=[ADPLAYHEAD]]]></{tag}>"
        for tag in VERDICTS) + "</ViewableImpression><Creatives>")


FAULT_HITS: list[tuple[str, str, str]] = []  # (event, source, code): the pixels of the outside documents above
FAULT_PLAYHEADS: list[str] = []  # the [ADPLAYHEAD] of each of their error pixels
HUNG = threading.Event()  # set: the hung ad server (/fault/slow.xml) answers at last


@faults.get("/fault/pixel")
def fault_pixel() -> Response:
    """The outside ad server's own tracking endpoint (ours takes only house creatives' pixels)."""
    FAULT_HITS.append((request.args["event"], request.args.get("source", ""), request.args.get("code", "")))
    if request.args.get("source") in ("misdeclared", "viewable") and "playhead" in request.args:
        TIMED_HITS.append((request.args["event"], request.args["playhead"]))
    elif "playhead" in request.args:
        FAULT_PLAYHEADS.append(request.args["playhead"])
    return Response(status=204, headers={"Access-Control-Allow-Origin": "*"})


@faults.get("/fault/host.html")
def host_page() -> Response:
    """A publisher's page with the player far below the fold."""
    return Response('<!doctype html><html><body style="margin:0"><div style="height:2000px">article</div>'
                    '<iframe id="player-frame" src="/?movie_id=1&amp;auto_play=1" width="640" height="360" '
                    'allow="autoplay; fullscreen; picture-in-picture"></iframe></body></html>', mimetype="text/html")


@faults.get("/fault/wrap/<kind>.xml")
def wrapped_fault(kind: str) -> Response:
    return Response(WRAPPER.format(base=request.host_url.rstrip("/"), kind=kind), mimetype="application/xml")


@faults.get("/fault/<kind>.xml")
def fault(kind: str) -> Response:
    base = request.host_url.rstrip("/")
    if kind == "jsclick":
        return Response(JS_CLICK.format(base=base), mimetype="application/xml")
    if kind == "invalid":
        return Response("<VAST version='4.2'><Ad><InLine>", mimetype="application/xml")
    if kind in ("pod", "shortpod"):  # an IAB ad pod: two sequenced ads in one response (given in reverse order)
        template = POD_AD if kind == "pod" else POD_AD.replace("house-15s.mp4", "test-6s.mp4")
        ads = "".join(template.format(base=base, n=n) for n in (2, 1))
        return Response(f'<VAST version="4.2">{ads}</VAST>', mimetype="application/xml")
    if kind == "viewable":
        return Response(VIEWABLE.format(base=base), mimetype="application/xml")
    if kind == "misdeclared":
        return Response(MISDECLARED.format(base=base), mimetype="application/xml")
    if kind == "codec0":
        return Response(CODEC_0.format(base=base), mimetype="application/xml")
    if kind == "text":  # an ad server's error page, answered with 200
        return Response("Service unavailable", mimetype="text/plain")
    if kind == "empty":
        return Response(EMPTY.format(base=base), mimetype="application/xml")
    if kind == "unsupported":
        return Response(UNSUPPORTED.format(base=base), mimetype="application/xml")
    if kind == "slow":  # an ad server that hangs: it answers once the test is over with it, long past the timeout
        HUNG.wait(timeout=60)
        return Response(EMPTY.format(base=base), mimetype="application/xml")
    return Response("gone", status=404)


@pytest.fixture(scope="module")
def ads_app(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[Flask, str]]:
    with ads_server(make_database("ads"), demo_media, blueprints=(faults,),
                    PLAYER_TEST_TIMINGS=f"vastTimeoutMs={VAST_TIMEOUT_S * 1000}") as served:
        yield served


def hits(app: Flask) -> list[tuple[str, str, str, float]]:
    """(event, source, error code, seconds since the first hit) in arrival order."""
    with app.app_context():
        rows = db.session.scalars(select(AdTrackingHit).order_by(AdTrackingHit.id)).all()
        start = rows[0].created_at if rows else None
        return [(r.event, r.source, r.error_code, (r.created_at - start).total_seconds()) for r in rows]


def settled_hits(page: Page, app: Flask, done: Callable[[list[tuple[str, str, str, float]]], bool],
                 seconds: float = 5) -> list[tuple[str, str, str, float]]:
    """The hits once ``done`` holds for them (pixels are fire-and-forget: the film may start before they land), or
    as they are after ``seconds``."""
    return poll(page, lambda: hits(app), until=done, timeout=seconds * 1000)


def playheads_of(app: Flask, source: str) -> dict[str, float]:
    """Each event's [ADPLAYHEAD] (HH:MM:SS.mmm, the ad's time when the pixel was sent), in seconds."""
    with app.app_context():
        rows = db.session.scalars(select(AdTrackingHit).where(AdTrackingHit.source == source)).all()
    out = {}
    for row in rows:
        if row.playhead:
            h, m, sec = row.playhead.split(":")
            out[row.event] = int(h) * 3600 + int(m) * 60 + float(sec)
    return out


FaultHits = list[tuple[str, str, str]]


def settled_fault_hits(page: Page, done: Callable[[FaultHits], bool], seconds: float = 5) -> FaultHits:
    """The outside ad server's pixels once ``done`` holds for them, or as they are after ``seconds``."""
    return poll(page, lambda: list(FAULT_HITS), until=done, timeout=seconds * 1000)


def pixels_asked(page: Page, source: str) -> list[str]:
    """The events of the outside ad server's pixels for ``source`` that the page asks for from now on, as it asks:
    an ad's last ones (complete, a viewability verdict) before the player hands back to the film."""
    asked: list[str] = []

    def note(request: Request) -> None:
        query = parse_qs(urlsplit(request.url).query)
        if "/fault/pixel?" in request.url and query.get("source") == [source]:
            asked.extend(query["event"])

    page.on("request", note)
    return asked


def ad_time(page: Page) -> float:
    return page.evaluate("document.querySelector('video.ad-layer__video')?.currentTime ?? -1")


# Every window.open of the page, noted as it is called (window.__opened), before the browser decides anything.
OPENS = """window.__opened = [];
{ const open = window.open;
  window.open = function (...args) { __opened.push(String(args[0])); return open.apply(this, args); }; }"""
# How much of the player is in view, as an IntersectionObserver of the test sees it (window.__inView: each report,
# the first at once). Made after the ad layer's own observer of #player: each report reaches that one first.
WATCH_VIEW = """() => { window.__inView = [];
  new IntersectionObserver((entries) => { for (const e of entries) __inView.push(e.intersectionRatio); },
    { threshold: [0, 0.51, 1] }).observe(document.getElementById('player')); }"""
FILM_BUFFERED = """() => { const b = document.querySelector('video.player__video').buffered;
  return b.length ? b.end(b.length - 1) : 0; }"""  # the end of the film's buffer, in seconds of the film
AD_BAR_LOOK = """() => {
  const bar = document.querySelector('.ad-layer__bar');
  const skip = bar.querySelector('[data-ad-control=skip]');
  const icon = (control) => bar.querySelector(`[data-ad-control=${control}] svg`);
  const skipIcon = icon('skip');
  const style = getComputedStyle(skip);
  return {
    muted: document.querySelector('video.ad-layer__video').muted,
    icons: ['play', 'mute', 'skip'].map((control) => icon(control)?.dataset.icon ?? null),
    iconColors: ['play', 'mute'].map((control) => getComputedStyle(icon(control)).fill),
    skipIconShown: skipIcon.getBoundingClientRect().width > 0,
    text: bar.innerText.replace(/\\s+/g, ' ').trim(),
    skip: { color: style.color, border: style.borderTopColor, background: style.backgroundColor },
  };
}"""


def test_a_skippable_pre_roll_counts_down_skips_at_its_offset_and_the_film_plays(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, creative_id=SKIPPABLE, content_id=LONG_FILM))
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    skip = page.locator("button[data-ad-control='skip']")
    expect(skip).to_have_text("Пропустить 5", timeout=15_000)
    expect(skip).to_be_disabled()
    assert page.evaluate("document.querySelector('video.player__video').paused") is True  # the film waits
    waiting = page.evaluate(AD_BAR_LOOK)
    expect(skip).to_have_text("Пропустить", timeout=10_000)
    assert ad_time(page) >= 5
    # the bar draws the player's own white icons, no emoji; the countdown looks unlike the button it becomes (the ad
    # starts muted where the browser refuses autoplay with sound, as CI's Chromium does: the icon says which)
    ready = page.evaluate(AD_BAR_LOOK)
    assert ready["icons"] == ["pause", "muted" if ready["muted"] else "volume", "next"]
    assert ready["iconColors"] == ["rgb(255, 255, 255)"] * 2
    page.locator("[data-ad-control=mute]").click()  # the icon follows the sound
    expect(page.locator("[data-ad-control=mute] svg")).to_have_attribute(
        "data-icon", "volume" if ready["muted"] else "muted")
    assert page.evaluate(AD_BAR_LOOK)["muted"] is not ready["muted"]
    assert re.fullmatch("Реклама Пропустить [1-5]", waiting["text"]) and ready["text"] == "Реклама Пропустить"
    assert not waiting["skipIconShown"] and ready["skipIconShown"]
    assert ready["skip"]["border"] == "rgb(255, 255, 255)" and waiting["skip"]["border"] == "rgba(0, 0, 0, 0)"
    assert ready["skip"]["color"] == "rgb(255, 255, 255)" and waiting["skip"]["color"] != ready["skip"]["color"]
    # 5 s into the ad on loopback, the film under it has what the switch needs and no more (DEFAULTS'
    # prerollBufferAheadS, 8 s: two whole segments); once it plays, its own buffer policy (30 s and more) takes over
    under_ad = page.evaluate(FILM_BUFFERED)
    assert 0 < under_ad <= 8 + SEGMENT_SECONDS, under_ad
    skip.click()
    expect(page.locator(".ad-layer")).to_have_count(0)
    wait_until_playing(page, 1)
    # past the pre-roll's 8 s (and its last segment): the film's own buffer policy has taken over
    page.wait_for_function(f"() => ({FILM_BUFFERED})() - document.querySelector('video.player__video').currentTime"
                           " >= 20", timeout=10_000)
    events = [event for event, *_ in settled_hits(page, app, lambda rows: any(r[0] == "skip" for r in rows))]
    # once each; impression and start go out in the same task as two keepalive requests, so which one the server
    # records first is the network's order, not the player's (the unit tests check the order they are sent in)
    assert events.count("impression") == 1 and events.count("start") == 1 and events.count("loaded") == 1
    assert events.count("skip") == 1 and "complete" not in events
    assert events.count("firstQuartile") == 1  # 3.75 s of 15 s came before the skip at 5 s
    assert page.errors == []


def test_a_non_skippable_wrapped_pre_roll_completes_with_each_quartile_once_in_time(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, creative_id=SHORT_NOT_SKIPPABLE, wrapper_depth=2, content_id=2))
    page.goto(f"{base}/?movie_id=2&auto_play=1")
    expect(page.locator(".ad-layer")).to_have_count(1, timeout=15_000)
    expect(page.locator("button[data-ad-control='skip']")).to_be_hidden()
    expect(page.locator(".ad-layer")).to_have_count(0, timeout=SHORT_AD_S * 1000 + 10_000)
    wait_until_playing(page, 1)
    recorded = settled_hits(page, app, lambda rows: sum(r[0] == "complete" for r in rows) == 3)
    inline = [(event, seconds) for event, source, _, seconds in recorded if source == "inline"]
    order = [event for event, _ in inline if event in ("start", "firstQuartile", "midpoint", "thirdQuartile",
                                                        "complete")]
    assert order == ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
    # the ad's own time when each pixel went out ([ADPLAYHEAD], filled by the player), within 0.5 s of its moment
    playheads = playheads_of(app, "inline")
    for event, moment in (("firstQuartile", SHORT_AD_S / 4), ("midpoint", SHORT_AD_S / 2),
                          ("thirdQuartile", SHORT_AD_S * 3 / 4)):
        assert abs(playheads[event] - moment) < 0.5, (event, playheads[event])
    # every document of the chain counted the impression and the quartiles, once each
    for source in ("wrapper-2", "wrapper-1", "inline"):
        events = [event for event, src, *_ in recorded if src == source]
        assert events.count("impression") == 1, source
        assert events.count("midpoint") == 1 and events.count("complete") == 1, source
    assert page.errors == []


def test_a_mid_roll_plays_once_at_half_of_the_long_film(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.MIDROLL, creative_id=SHORT_SKIPPABLE, content_id=LONG_FILM))
    vasts: list[str] = []  # a mid-roll asks for its VAST as it becomes due (ads/scheduler), before anything shows
    page.on("request", lambda r: vasts.append(r.url) if "/vast.xml" in r.url else None)
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1&t=928")
    wait_until_playing(page, 928.3)
    expect(page.locator(".ad-layer")).to_have_count(1, timeout=15_000)  # at 930 s of 1860
    position = video_state(page)["time"]
    assert 929 <= position <= 932
    expect(page.locator("button[data-ad-control='skip']")).to_have_text("Пропустить", timeout=10_000)
    assert page.evaluate("() => navigator.mediaSession.metadata.title") == "Объявление"
    # the keyboard under an ad: Space pauses and resumes the ad, the arrows and the speed keys leave the film alone
    ad_paused = "() => document.querySelector('video.ad-layer__video').paused"
    page.keyboard.press("Space")
    page.wait_for_function(ad_paused)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Period")
    state = video_state(page)
    assert state["state"] == "paused" and abs(state["time"] - position) < 0.5
    assert page.evaluate("document.querySelector('video.player__video').playbackRate") == 1
    page.keyboard.press("Space")
    page.wait_for_function(f"() => !({ad_paused})()")
    assert video_state(page)["state"] == "paused"
    page.locator("button[data-ad-control='skip']").click()
    wait_until_playing(page, position + 0.5)
    assert abs(video_state(page)["time"] - position) < 3  # the film goes on where it stopped
    # the media session is the film's again (the ad's handlers and title gone)
    assert page.evaluate("() => navigator.mediaSession.metadata.title") == page.title()
    page.evaluate("document.querySelector('video.player__video').currentTime = 900")
    wait_until_playing(page, 900)
    page.evaluate("document.querySelector('video.player__video').currentTime = 1000")
    wait_until_playing(page, 1001)  # a second of film past half, again: its time updates would have made it due
    assert len(vasts) == 1, vasts
    expect(page.locator(".ad-layer")).to_have_count(0)
    assert [event for event, *_ in hits(app)].count("impression") == 1


@pytest.mark.parametrize(
    ("kind", "code", "wrapped"),
    [("invalid", 100, 100), ("text", 100, 100), ("empty", 901, 901), ("unsupported", 403, 403), ("slow", 350, 301),
     ("missing", 900, 900)],
)
def test_a_broken_vast_reports_its_code_and_the_film_plays(ads_app, page: Page, kind, code, wrapped):
    """Straight from the list, a document that never parsed has no Error URL to report to: the code is logged. Behind
    a wrapper, the wrapper's Error URL receives it, with [ADPLAYHEAD] at zero (a hung target: 301, IAB's code for a
    wrapper's timeout). A document that is not XML costs no Content-Security-Policy violation (Chromium's DOMParser
    styles its error block inline)."""
    app, base = ads_app
    error_pixels: list[str] = []  # asked for by the page (sent with the error, before the film goes on)
    page.on("request", lambda r: error_pixels.append(r.url) if "/fault/pixel?event=error" in r.url else None)
    for url, expected, reported in ((f"{base}/fault/{kind}.xml", code, kind in ("empty", "unsupported")),
                                    (f"{base}/fault/wrap/{kind}.xml", wrapped, True)):
        place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=url, content_id=LONG_FILM))
        FAULT_HITS.clear()
        FAULT_PLAYHEADS.clear()
        error_pixels.clear()
        HUNG.clear()
        warnings: list[str] = []
        page.on("console", lambda message, into=warnings: into.append(message.text) if message.type == "warning"
                else None)
        policy: list[str] = []
        page.on("console", lambda message, into=policy: into.append(message.text)
                if "Content Security Policy" in message.text else None)
        started = time.monotonic()
        try:
            page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
            wait_until_playing(page, 1, timeout=20_000)
        finally:
            HUNG.set()
        assert time.monotonic() - started < VAST_TIMEOUT_S + 8  # a hung ad server costs the film at most the timeout
        assert any(f"ads: {expected} " in warning for warning in warnings), warnings
        expected_source = "wrapper" if url.endswith(f"wrap/{kind}.xml") else "fault"
        if not reported:  # the page asked for no error pixel by the time the film played: none will land
            assert error_pixels == [] and [hit for hit in FAULT_HITS if hit[0] == "error"] == []
            recorded = list(FAULT_HITS)
        else:
            assert error_pixels, "asked for as the error came, before the film played"  # so seen where none came
            recorded = settled_fault_hits(page, lambda rows, src=expected_source: any(r[:2] == ("error", src)
                                                                                      for r in rows), seconds=3)
        errors = [(source, error) for event, source, error in recorded if event == "error"]
        if not reported:
            assert errors == []
        elif url.endswith(f"wrap/{kind}.xml"):
            assert ("wrapper", str(expected)) in errors and all(error == str(expected) for _, error in errors)
        else:
            assert errors == [("fault", str(expected))]
        assert len(FAULT_PLAYHEADS) == len(errors) and set(FAULT_PLAYHEADS) <= {"00:00:00.000"}  # it never played
        assert page.locator(".ad-layer").count() == 0
        assert policy == []
    assert page.errors == []


def test_a_pod_is_refused_to_each_of_its_ads_and_a_file_with_codec_0_plays(ads_app, page: Page):
    """Spec §5's one Ad per document: each ad of a multi-ad response hears 901 (no root Error to carry it) and the
    film plays; a MediaFile whose codec attribute Chromium cannot parse is chosen by its type, and plays."""
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=f"{base}/fault/pod.xml", content_id=LONG_FILM))
    FAULT_HITS.clear()
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    wait_until_playing(page, 1, timeout=20_000)
    assert sorted(FAULT_HITS) == [("error", "pod-1", "901"), ("error", "pod-2", "901")]

    place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=f"{base}/fault/codec0.xml", content_id=LONG_FILM))
    FAULT_HITS.clear()
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    expect(page.locator(".ad-layer")).to_have_attribute("data-status", "PLAYING", timeout=15_000)
    assert page.evaluate("document.querySelector('video').canPlayType('video/mp4; codecs=\"0\"')") == ""
    assert page.evaluate("document.querySelector('video.ad-layer__video').currentSrc").endswith("/house-15s.mp4")
    # the impression pixel, sent as the ad starts
    assert ("impression", "codec0", "") in settled_fault_hits(page, lambda rows: ("impression", "codec0", "") in rows)
    assert page.errors == []


def test_quartiles_follow_the_files_own_length_not_a_wrong_declared_duration(ads_app, page: Page):
    """A 6 s file declared as 12 s: each quartile once, at a quarter, a half and three quarters of the file, then
    complete (with the declared figure, midpoint came with complete and thirdQuartile never)."""
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=f"{base}/fault/misdeclared.xml", content_id=LONG_FILM))
    TIMED_HITS.clear()
    asked = pixels_asked(page, "misdeclared")
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    wait_until_playing(page, 0.5, timeout=30_000)  # the ad is over: every pixel of it has been asked for
    assert sorted(event for event in asked if event in QUARTILES) == sorted(QUARTILES), asked
    poll(page, lambda: list(TIMED_HITS), until=lambda rows: any(event == "complete" for event, _ in rows), timeout=3000)
    seconds = {event: sum(float(part) * 60 ** i for i, part in enumerate(reversed(stamp.split(":"))))
               for event, stamp in TIMED_HITS}
    assert sorted(event for event, _ in TIMED_HITS) == ["complete", "firstQuartile", "midpoint", "thirdQuartile"]
    for event, share in (("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75)):
        assert abs(seconds[event] - SHORT_AD_S * share) < 0.5, (event, seconds)
    assert page.errors == []


def test_an_ad_in_view_is_a_viewable_impression_once_after_two_seconds(ads_app, page: Page):
    """VAST's ViewableImpression by the MRC video rule: the 6 s ad plays in full view, so Viewable fires once, at 2 s
    of play or a little after (the player reads at each timeupdate), and neither NotViewable nor ViewUndetermined."""
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=f"{base}/fault/viewable.xml", content_id=LONG_FILM))
    TIMED_HITS.clear()
    asked = pixels_asked(page, "viewable")
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    wait_until_playing(page, 0.5, timeout=30_000)  # the ad is over, the film plays: the ad's verdict was given
    assert [event for event in asked if event in VERDICTS] == ["Viewable"], asked
    poll(page, lambda: list(TIMED_HITS), until=lambda rows: any(event == "complete" for event, _ in rows), timeout=2000)
    verdicts = [(event, stamp) for event, stamp in TIMED_HITS if event in VERDICTS]
    assert [event for event, _ in verdicts] == ["Viewable"], TIMED_HITS
    seconds = float(verdicts[0][1].rsplit(":", 1)[1])
    assert 2.0 <= seconds <= 3.0, verdicts
    assert page.errors == []


def test_with_ad_pods_on_a_pod_plays_in_sequence_then_the_film(ads_app, page: Page):
    """AD_PODS (beyond spec §5): the two ads of a pod, listed 2 then 1, play 1 then 2, each with its impression, and
    the film follows; the page's runtime configuration says so (a new address: the one above is cached)."""
    app, base = ads_app
    reconfigure(app, AD_PODS=True)
    try:
        pod = f"{base}/fault/shortpod.xml"
        place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=pod, content_id=LONG_FILM))
        FAULT_HITS.clear()
        page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1&lang_order=ru")
        wait_until_playing(page, 0.5, timeout=40_000)
        impressions = [source for event, source, _ in FAULT_HITS if event == "impression"]
        assert impressions == ["pod-1", "pod-2"], FAULT_HITS
        assert not any(event == "error" for event, *_ in FAULT_HITS)
    finally:
        reconfigure(app, AD_PODS=False)
    assert page.errors == []


def test_a_click_through_opens_a_new_tab_and_leaves_the_player_where_it_is(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, creative_id=SKIPPABLE, content_id=LONG_FILM))
    advertiser = "https://example.com/**"  # no internet here: the advertiser's page is answered locally
    page.context.route(advertiser, lambda route: route.fulfill(body="advertiser", content_type="text/plain"))
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    expect(page.locator("button[data-ad-control='skip']")).to_be_visible(timeout=15_000)
    player_url = page.url
    with page.context.expect_page() as popup:
        page.locator("button.ad-layer__click").click()
    assert popup.value.url.startswith("https://example.com/advertiser")
    assert page.url == player_url
    assert popup.value.evaluate("window.opener") is None  # noopener
    assert [event for event, *_ in settled_hits(page, app, lambda rows: any(r[0] == "click" for r in rows))].count(
        "click") == 1
    expect(page.locator(".ad-layer")).to_have_attribute("data-status", "PAUSED")  # the ad waits for the viewer


def test_a_javascript_click_through_is_refused(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, vast_url=f"{base}/fault/jsclick.xml", content_id=LONG_FILM))
    popups: list[str] = []
    page.context.on("page", lambda p: popups.append(p.url))
    page.add_init_script(OPENS)
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    expect(page.locator(".ad-layer")).to_have_count(1, timeout=15_000)
    expect(page.locator("button.ad-layer__click")).to_be_hidden()
    page.locator(".ad-layer__video").click(force=True)  # returns once the page has handled the click
    # No wait: a window opened by the click would be in window.__opened already. (A popup's arrival is no fence: a
    # noopener window, as the player opens them, arrived after one the page opened after it, in two tries of two.)
    assert page.evaluate("window.__opened") == []
    assert popups == [] and page.title() != "pwned"
    assert "javascript" not in page.url


def test_the_ad_list_is_asked_with_the_content_and_the_window_headers(ads_app, page: Page):
    app, base = ads_app
    place(app)
    requests: list[tuple[str, dict]] = []
    page.on("request", lambda r: requests.append((r.url, r.headers)) if "/ad-list.json" in r.url else None)
    page.add_init_script("window.playerRequestHeaders = { 'X-Publisher': 'demo', 'Bad Header': 'x', 'X-Num': 5 };")
    page.goto(f"{base}/?movie_id={LONG_FILM}&auto_play=1")
    wait_until_playing(page, 1)
    assert len(requests) == 1
    url, headers = requests[0]
    assert parse_qs(url.split("?", 1)[1]) == {"content_id": [str(LONG_FILM)]}
    assert headers.get("x-publisher") == "demo" and "x-num" not in headers


def test_an_ad_plays_only_while_the_player_is_in_view_unless_the_viewer_chose(ads_app, page: Page):
    app, base = ads_app
    place(app, AdPlacement(position=AdPosition.PREROLL, creative_id=SKIPPABLE, content_id=LONG_FILM))
    page.goto(f"{base}/fault/host.html")
    frame = page.frame_locator("#player-frame")
    ad_video = frame.locator("video.ad-layer__video")
    expect(ad_video).to_have_count(1, timeout=15_000)
    player_frame = page.locator("#player-frame").element_handle().content_frame()
    assert player_frame
    # the ad has what it needs to play (HAVE_FUTURE_DATA), and the layer has had the report the test's observer gets
    player_frame.wait_for_function("() => document.querySelector('video.ad-layer__video').readyState >= 3")
    player_frame.evaluate(WATCH_VIEW)
    player_frame.wait_for_function("() => window.__inView.length > 0")
    assert player_frame.evaluate("() => window.__inView") == [0]
    assert ad_video.evaluate("v => v.paused && v.currentTime === 0")  # loaded, out of view: it waits
    page.locator("#player-frame").scroll_into_view_if_needed()
    expect(frame.locator(".ad-layer")).to_have_attribute("data-status", "PLAYING", timeout=10_000)
    frame.locator("button[data-ad-control='play']").click()  # the viewer pauses: that decides
    expect(frame.locator(".ad-layer")).to_have_attribute("data-status", "PAUSED")
    page.mouse.wheel(0, -3000)
    player_frame.wait_for_function("() => window.__inView.at(-1) === 0")  # out of view, as the layer saw
    page.locator("#player-frame").scroll_into_view_if_needed()
    player_frame.wait_for_function("() => window.__inView.at(-1) >= 0.51")  # in view again: it would play now
    assert ad_video.evaluate("v => v.paused")
    expect(frame.locator(".ad-layer")).to_have_attribute("data-status", "PAUSED")
