"""The phone layout with every control option on (a series with sharing: episodes, share, settings, PiP, fullscreen),
at the narrow phones' widths, both as the page itself on a portrait screen (a share link opened on the phone) and as
a 16:9 frame on a publisher's page (the frame's own viewport): one control row inside the player, the poster framed
as the video is so nothing moves at the start, the big buttons inside the tap zones of the same action (spec §9),
controls that let the second tap of a double tap through, and a share sheet that can be read."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import watch_errors
from tests.browser.helpers import open_player, player, wait_until_playing

WIDTHS = {360: 740, 390: 844, 430: 932}  # portrait screens of common phones
SHAPES = [(width, height, "page") for width, height in WIDTHS.items()] + [
    (width, round(width * 9 / 16), "frame") for width in WIDTHS
]
QUERY = "movie_id=2&enabled_share=1"

# Every button of the control row and its box, the player's box, and what the viewer sees at the buttons' centres.
ROW = """() => {
  const box = (node) => { const r = node.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
  const bar = document.querySelector('.player__bar');
  const inRow = [...bar.querySelectorAll('button')].filter((b) => getComputedStyle(b).position !== 'absolute'
    && b.getClientRects().length > 0);
  const row = inRow.map((b) => ({ name: b.dataset.control ?? b.ariaLabel, ...box(b) }));
  return { row, time: box(document.querySelector('.player__time-current')) };
}"""


@pytest.fixture(params=SHAPES, ids=[f"{w}x{h}-{kind}" for w, h, kind in SHAPES])
def phone_shape(request, browser: Browser) -> Iterator[Page]:
    width, height, _ = request.param
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  locale="ru-RU")
    yield watch_errors(context.new_page())
    context.close()


def box_of(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box


def test_one_row_the_poster_framed_as_the_video_and_the_buttons_in_their_tap_zones(phone_shape, live_server):
    page = phone_shape
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    open_player(page, live_server, QUERY)
    frame = box_of(page, "#player")
    assert frame["width"] == width and abs(frame["height"] - width * 9 / 16) < 1  # the film's frame
    assert abs(frame["y"] + frame["height"] / 2 - height / 2) < 1  # in the middle of a portrait screen
    # the poster is drawn where the video will be: contained in the same box, nothing moves at the start
    poster = page.locator(".player__poster-img").evaluate(
        "(img) => ({ fit: getComputedStyle(img).objectFit, ...img.getBoundingClientRect().toJSON() })")
    assert poster["fit"] == "contain" and (poster["width"], poster["height"]) == (frame["width"], frame["height"])
    page.locator("button[data-player-start]").tap()
    wait_until_playing(page, 0.3)
    video = page.locator("video.player__video").evaluate(
        "(v) => ({ fit: getComputedStyle(v).objectFit, ...v.getBoundingClientRect().toJSON() })")
    assert video["fit"] == "contain" and (video["y"], video["height"]) == (poster["y"], poster["height"])
    assert box_of(page, "#player") == frame

    expect(player(page)).to_have_attribute("data-controls", "visible")
    layout = page.evaluate(ROW)
    names = [button["name"] for button in layout["row"]]
    assert names[1:] == ["episodes", "share", "settings", "pip", "fullscreen"], names  # the mute button, then these
    tops = {round(button["y"]) for button in layout["row"]}
    assert len(tops) == 1, layout["row"]  # one row
    right = frame["x"] + frame["width"]
    assert all(frame["x"] <= b["x"] and b["x"] + b["w"] <= right for b in layout["row"]), (layout["row"], right)
    assert layout["time"]["w"] > 0 and round(layout["time"]["y"]) >= min(tops)  # the current time stays in the row

    # rewind and forward inside the side fifths that seek the same way, play in the centre: no spot on screen
    # means one thing with the controls shown and another with them hidden
    fifth = frame["width"] / 5
    rewind, forward, play = (box_of(page, f'[data-control="{name}"]') for name in ("rewind", "forward", "play"))
    assert frame["x"] <= rewind["x"] and rewind["x"] + rewind["width"] <= frame["x"] + fifth
    assert right - fifth <= forward["x"] and forward["x"] + forward["width"] <= right
    assert frame["x"] + fifth <= play["x"] and play["x"] + play["width"] <= right - fifth
    assert play["y"] + play["height"] <= box_of(page, ".player__seek")["y"]  # the big button clear of the row
    assert page.errors == []  # type: ignore[attr-defined]


def test_controls_shown_by_a_tap_let_the_second_tap_of_a_double_tap_through(phone_shape, live_server):
    page = phone_shape
    open_player(page, live_server, QUERY)
    page.locator("button[data-player-start]").tap()
    wait_until_playing(page, 0.3)
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=5000)
    play = box_of(page, '[data-control="play"]')
    centre = [play["x"] + play["width"] / 2, play["y"] + play["height"] / 2]
    # what a finger at the big button's place meets: the video once the controls have faded out, then (after the
    # first tap's single, 250 ms later) the video again while the guard is up, and the button once it is down
    # (elementFromPoint honours visibility and pointer-events); each wait gives up after 3 s
    at = """([x, y]) => document.elementFromPoint(x, y)?.closest('[data-control], .player__surface')?.className"""
    watch = """async ([x, y, phase]) => {
      const player = document.querySelector('#player');
      const at = () => document.elementFromPoint(x, y)?.closest('[data-control], .player__surface');
      const deadline = performance.now() + 3000;
      const when = (test) => new Promise((resolve) => {
        const check = () => (test() ? resolve(at())
          : performance.now() > deadline ? resolve(null) : requestAnimationFrame(check));
        check();
      });
      if (phase === 'faded') return (await when(() => at()?.classList.contains('player__surface')))?.className;
      const guarded = await when(() => 'tapGuard' in player.dataset);
      const visible = player.dataset.controls;
      const after = await when(() => !('tapGuard' in player.dataset));
      return { guarded: guarded?.className, visible, after: after?.dataset.control };
    }"""
    assert page.evaluate(watch, [*centre, "faded"]) == "player__surface", page.evaluate(at, centre)
    page.touchscreen.tap(*centre)
    hit = page.evaluate(watch, [*centre, "tap"])
    assert hit == {"guarded": "player__surface", "visible": "visible", "after": "play"}


def test_the_share_sheet_reads_whole_over_the_paused_player(phone_shape, live_server):
    page = phone_shape
    open_player(page, live_server, QUERY)
    page.locator("button[data-player-start]").tap()
    wait_until_playing(page, 1.2)
    page.locator('[data-control="play"]').tap()  # paused: the big start button is back in the middle
    expect(page.locator("button[data-player-start]")).to_be_visible()
    page.locator('[data-control="share"]').tap()
    sheet = page.get_by_role("dialog", name="Поделиться")
    expect(sheet).to_be_visible()
    frame = box_of(page, "#player")
    start = box_of(page, "button[data-player-start]")
    look = sheet.evaluate("""(sheet, [x, y]) => {
      const field = sheet.querySelector('textarea');
      const label = sheet.querySelector('.player__share-check span');
      const lines = label.getClientRects();
      return {
        background: getComputedStyle(sheet).backgroundColor,
        onTop: sheet.contains(document.elementFromPoint(x, y)),
        whole: field.scrollHeight <= field.clientHeight + 1 && field.scrollWidth <= field.clientWidth + 1,
        labelLines: Math.round(label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight)),
        labelText: label.textContent, labelRects: lines.length,
        box: sheet.getBoundingClientRect().toJSON(),
        overflow: sheet.scrollHeight - sheet.clientHeight,
      };
    }""", [start["x"] + start["width"] / 2, start["y"] + start["height"] / 2])
    assert look["background"] == "rgb(20, 20, 24)"  # opaque: the start button underneath does not show through
    assert look["onTop"]
    link = sheet.get_by_role("textbox").input_value()
    assert link.startswith(live_server) and "season-1/episode-1" in link
    assert look["whole"], look  # the whole address, over lines, not its tail in one
    assert look["labelText"].startswith("С таймкодом 0:00:0") and look["labelLines"] == 1, look
    assert (look["box"]["width"], look["box"]["height"]) == (frame["width"], frame["height"])
    assert look["overflow"] <= 0, look  # everything in the sheet without scrolling
    assert page.errors == []  # type: ignore[attr-defined]
