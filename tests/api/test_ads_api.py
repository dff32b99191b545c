"""The ad calls: the ad list from the placements, house VAST documents (inline, wrapped, none) and tracking hits."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from lxml import etree
from sqlalchemy import select

from app.demo.ads import CREATIVES, LONG_FILM_ID, seed_ads
from app.extensions import db
from app.models import AdPlacement, AdPosition, AdTrackingHit

NS = {"v": "http://www.iab.com/VAST"}


@pytest.fixture
def demo_ads(app, demo_catalogue):
    with app.app_context():
        seed_ads()
    return app


def vast_of(client, url: str) -> etree._Element:
    response = client.get(url)
    assert response.status_code == 200
    assert response.mimetype == "application/xml"
    assert response.headers["Cache-Control"] == "no-store"
    return etree.fromstring(response.data)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def test_the_long_film_gets_its_pre_roll_and_mid_roll(client, demo_ads):
    body = client.get(f"/ad-list.json?content_id={LONG_FILM_ID}").get_json()
    assert body == {
        "prerollList": [{"vastUrl": "http://localhost/vast.xml?creative=1"}],
        "midrollList": [{"vastUrl": "http://localhost/vast.xml?creative=1"}],
    }


def test_a_series_gets_the_wrapped_non_skippable_pre_roll_only(client, demo_ads):
    body = client.get("/ad-list.json?content_id=2").get_json()
    assert body == {"prerollList": [{"vastUrl": "http://localhost/vast.xml?creative=2&depth=2"}], "midrollList": []}


def test_targeting_order_and_the_enabled_flag(client, demo_ads, app):
    with app.app_context():
        db.session.add_all([
            AdPlacement(position=AdPosition.PREROLL, order=0, vast_url="https://ads.example/first.xml"),
            AdPlacement(position=AdPosition.PREROLL, order=9, vast_url="https://ads.example/last.xml"),
            AdPlacement(position=AdPosition.PREROLL, order=5, vast_url="https://ads.example/off.xml", enabled=False),
        ])
        db.session.commit()
    film = client.get(f"/ad-list.json?content_id={LONG_FILM_ID}").get_json()["prerollList"]
    assert [item["vastUrl"] for item in film] == [
        "https://ads.example/first.xml", "http://localhost/vast.xml?creative=1", "https://ads.example/last.xml",
    ]
    untargeted = client.get("/ad-list.json").get_json()
    assert [item["vastUrl"] for item in untargeted["prerollList"]] == [
        "https://ads.example/first.xml", "https://ads.example/last.xml",
    ]
    other_film = client.get("/ad-list.json?content_id=3").get_json()
    assert len(other_film["prerollList"]) == 2 and other_film["midrollList"] == []


@pytest.mark.parametrize(
    "query", ["content_id=abc", "content_id=0", "content_id=-1", f"content_id={2**40}", "content_id=%C2%B2"]
)
def test_a_bad_content_id_is_a_clear_400(client, demo_ads, query):
    response = client.get(f"/ad-list.json?{query}")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"
    assert "content_id" in response.get_json()["error"]["message"]


def test_an_unknown_content_gets_the_untargeted_list(client, demo_ads):
    assert client.get("/ad-list.json?content_id=999999").get_json() == {"prerollList": [], "midrollList": []}


def test_the_skippable_house_ad_as_vast_4_2(client, demo_ads):
    root = vast_of(client, "/vast.xml?creative=1")
    assert root.tag == "{http://www.iab.com/VAST}VAST" and root.get("version") == "4.2"
    ads = root.findall("v:Ad", NS)
    assert len(ads) == 1
    inline = ads[0].find("v:InLine", NS)
    assert [child.tag.split("}")[1] for child in inline] == [
        "AdSystem", "Error", "Impression", "AdServingId", "AdTitle", "Advertiser", "Creatives",
    ]
    linear = inline.find("v:Creatives/v:Creative/v:Linear", NS)
    assert linear.get("skipoffset") == "00:00:05"
    assert linear.findtext("v:Duration", namespaces=NS) == "00:00:15"
    media = linear.findall("v:MediaFiles/v:MediaFile", NS)
    assert len(media) == 1
    assert media[0].attrib["type"] == "video/mp4"
    assert (media[0].attrib["width"], media[0].attrib["height"]) == ("640", "360")
    assert media[0].text.strip() == "http://localhost/media/ads/house-15s.mp4"
    assert linear.findtext("v:VideoClicks/v:ClickThrough", namespaces=NS).strip() == "https://example.com/advertiser"
    # IAB 4.2 puts UniversalAdId after Linear
    creative = inline.find("v:Creatives/v:Creative", NS)
    assert [child.tag.split("}")[1] for child in creative] == ["Linear", "UniversalAdId"]

    events = {t.get("event"): t.text.strip() for t in linear.findall("v:TrackingEvents/v:Tracking", NS)}
    for event in ("loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "pause", "resume",
                  "mute", "unmute", "skip", "progress"):
        query = parse_qs(urlsplit(events[event]).query)
        assert query["event"] == [event] and query["creative"] == ["1"] and query["source"] == ["inline"]
        assert "[CACHEBUSTING]" in events[event] and "[ADPLAYHEAD]" in events[event]
    assert "code=[ERRORCODE]" in inline.findtext("v:Error", namespaces=NS)


def test_the_non_skippable_ad_has_no_skipoffset(client, demo_ads):
    linear = vast_of(client, "/vast.xml?creative=2").find("v:Ad/v:InLine/v:Creatives/v:Creative/v:Linear", NS)
    assert "skipoffset" not in linear.attrib
    assert linear.findtext("v:Duration", namespaces=NS) == "00:00:30"


def test_the_wrapper_chain_ends_in_the_inline(client, demo_ads):
    url = "/vast.xml?creative=2&depth=2"
    sources = []
    for _ in range(3):
        root = vast_of(client, url)
        ad = root.find("v:Ad", NS)
        body = ad[0]
        impression = parse_qs(urlsplit(body.findtext("v:Impression", namespaces=NS)).query)
        sources.append(impression["source"][0])
        if body.tag.endswith("InLine"):
            break
        url = path_of(body.findtext("v:VASTAdTagURI", namespaces=NS).strip())
        tracked = {t.get("event") for t in body.findall("v:Creatives/v:Creative/v:Linear/v:TrackingEvents/v:Tracking",
                                                         NS)}
        assert {"start", "firstQuartile", "midpoint", "thirdQuartile", "complete"} <= tracked
    assert sources == ["wrapper-2", "wrapper-1", "inline"]


def test_an_unknown_creative_is_no_fill_not_an_http_error(client, demo_ads):
    root = vast_of(client, "/vast.xml?creative=424242")
    assert root.findall("v:Ad", NS) == []


@pytest.mark.parametrize(
    "query", ["", "creative=", "creative=x", "creative=1&depth=6", "creative=1&depth=-1", "creative=1&depth=%C2%B2"]
)
def test_bad_vast_queries_are_a_clear_400(client, demo_ads, query):
    response = client.get(f"/vast.xml?{query}")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"


def test_tracking_records_each_hit_with_what_reports_need(client, demo_ads, app):
    pixel = "/ad-tracking?creative={}&event=error&source=inline&code={}&cb=12345678&playhead={}"
    response = client.get(pixel.format(1, "403", "00:00:01.250"))
    assert response.status_code == 204
    assert client.get("/ad-tracking?creative=1&event=firstQuartile&source=wrapper-1").status_code == 204
    # macros the player left unfilled, or filled with nonsense, are kept as unknown
    assert client.get(pixel.format(2, "[ERRORCODE]", "x")).status_code == 204
    with app.app_context():
        hits = db.session.scalars(select(AdTrackingHit).order_by(AdTrackingHit.id)).all()
        assert [(h.creative_id, h.event, h.error_code, h.source, h.playhead) for h in hits] == [
            (1, "error", "403", "inline", "00:00:01.250"), (1, "firstQuartile", "", "wrapper-1", ""),
            (2, "error", "", "inline", ""),
        ]


@pytest.mark.parametrize(
    "query", [
        "event=", "event=drop%20table", "event=" + "a" * 41, "event=start&creative=zz", "event=start%0A",
        "event=start&creative=1&source=inline&code=%00",  # a NUL that PostgreSQL could not store: was a 500
        "event=start&source=inline",  # no creative
        "event=start&creative=1",  # no document
        "event=lookAtMe&creative=1&source=inline",  # not a pixel of ours
        "event=start&creative=1&source=anything",
        "event=start&creative=1&source=wrapper-6",
    ]
)
def test_a_bad_tracking_hit_is_refused_and_not_recorded(client, demo_ads, app, query):
    assert client.get(f"/ad-tracking?{query}").status_code == 400
    with app.app_context():
        assert db.session.scalars(select(AdTrackingHit)).all() == []


def test_a_hit_for_a_creative_that_does_not_exist_is_refused(client, demo_ads, app):
    response = client.get("/ad-tracking?creative=424242&event=start&source=inline")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "creative_not_found"
    with app.app_context():
        assert db.session.scalars(select(AdTrackingHit)).all() == []


@pytest.mark.parametrize("url", ["/vast.xml?creative=1", "/vast.xml?creative=2&depth=2",
                                 "/vast.xml?creative=2&depth=1"])
def test_every_pixel_of_the_house_documents_is_accepted(client, demo_ads, url):
    """The pixels' events and sources are the ones the tracking endpoint takes (app/models/ads.py PIXEL_*)."""
    root = vast_of(client, url)
    pixels = [element.text.strip() for element in root.iter() if element.text and "/ad-tracking?" in element.text]
    assert len(pixels) >= 14
    for pixel in pixels:
        filled = pixel.replace("[ERRORCODE]", "405").replace("[CACHEBUSTING]", "1").replace("[ADPLAYHEAD]", "00:00:02")
        assert client.get(path_of(filled)).status_code == 204, pixel


PUBLIC = {"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store"}


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        (f"/ad-list.json?content_id={LONG_FILM_ID}", "/ad-list.json?content_id=x"),
        ("/vast.xml?creative=1", "/vast.xml"),
        ("/vast.xml?creative=2&depth=2", "/vast.xml?creative=2&depth=6"),
        ("/ad-tracking?creative=1&event=start&source=inline", "/ad-tracking?event="),
    ],
)
def test_ad_calls_are_public_and_uncached_but_their_400s_are_not(client, demo_ads, good, bad):
    response = client.get(good)
    assert response.status_code in (200, 204)
    assert {name: response.headers.get(name) for name in PUBLIC} == PUBLIC
    # the errors come from the app's JSON error handler, as every API's do, without these headers
    response = client.get(bad)
    assert response.status_code == 400
    assert {name: response.headers.get(name) for name in PUBLIC} == dict.fromkeys(PUBLIC)


def test_the_demo_creatives_match_the_catalogue(app, demo_ads):
    from app.models import AdCreative

    with app.app_context():
        rows = db.session.scalars(select(AdCreative).order_by(AdCreative.id)).all()
        assert [(r.id, r.duration, r.skip_offset) for r in rows] == [
            (c.id, c.duration, c.skip_offset) for c in CREATIVES
        ]
