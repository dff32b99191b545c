"""What the browser tests read off a page."""

from playwright.sync_api import Page

PLAYED_ENOUGH = """
(seconds) => {
  const video = document.querySelector('video.player__video');
  return !!video && video.currentTime >= seconds && !video.paused
    && video.getVideoPlaybackQuality().totalVideoFrames > 0 && video.videoWidth > 0;
}
"""

# Resolves once the compositor presents a new video frame: proof that a frame was really rendered.
NEXT_FRAME = """
() => new Promise((resolve, reject) => {
  const video = document.querySelector('video.player__video');
  const timer = setTimeout(() => reject(new Error('no video frame presented within 5 s')), 5000);
  video.requestVideoFrameCallback((now, meta) => { clearTimeout(timer); resolve(meta.presentedFrames); });
})
"""


def wait_until_playing(page: Page, seconds: float = 1.5, timeout: float = 20_000) -> None:
    page.wait_for_function(PLAYED_ENOUGH, arg=seconds, timeout=timeout)


def video_state(page: Page) -> dict:
    return page.evaluate(
        """() => { const v = document.querySelector('video.player__video');
          return {time: v.currentTime, paused: v.paused, width: v.videoWidth, height: v.videoHeight,
                  frames: v.getVideoPlaybackQuality().totalVideoFrames,
                  state: document.getElementById('player').dataset.state}; }"""
    )
