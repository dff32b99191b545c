// Every behavioural constant of the player in one place, each with the spec section it comes from and its owner: the
// file under static_src/ that reads it (as hls.js's src/config.ts names the controller each setting is for).
// Change a number here, never at the place that uses it.

export const DEFAULTS = {
  controlsHideMs: 2000, // §9: controls hide after 2000 ms (never while preloading); owner ui/useIdleControls
  progressSaveMs: 10_000, // §5, §9: progress saved at most every 10 s, never on the first tick; owner player/progress
  // ours: a call the service refused with 503 (its database away a moment) goes again after its Retry-After (this when
  // it names none, at most apiRetryMaxMs), up to apiRetries times, unless a newer call to the same address went out
  // meanwhile (a newer position); owner api/client
  apiRetries: 3,
  apiRetryMs: 2000,
  apiRetryMaxMs: 30_000,
  timeSavingThrottleMs: 1000, // §9: time saving throttle 1 s (timeProgressChanged); owner embed/bridge
  parentCommandsPerSecond: 20, // ours: commands the parent page may send a second, the rest dropped; owner embed/bridge
  // ours: with request_headers=1 (/lib.js relays the publisher's ad-request headers) the first ad request waits this
  // long at most for them: a message round trip takes milliseconds, a publisher page busy with its own scripts longer,
  // and past this the ads go without them rather than hold the film; owner player.tsx (embed/requestHeaders waits)
  parentHeadersWaitMs: 1000,
  // §9: skip buttons, double tap on the side fifths, media session default step; owners ui/Controls, ui/useGestures,
  // ui/keys (j, l), player/platformController (the media session's)
  skipStepS: 10,
  keySeekS: 5, // §9: keyboard seek step; owner ui/keys
  keySeekShiftS: 10, // §9: keyboard seek step with shift; owner ui/keys
  keyVolumeStep: 0.05, // §9: keyboard volume step (and the volume slider's); owners ui/keys, ui/Controls
  keyVolumeShiftStep: 0.1, // §9: keyboard volume step with shift; owner ui/keys
  rateStep: 0.25, // §9: keyboard rate step; owners ui/keys, player/limits (rates snap to it)
  rateMin: 0.25, // §9: playback-rate range; owner player/limits
  rateMax: 2, // §9: playback-rate range; owners player/limits, analytics/clock
  rates: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2], // §9: rate menu, 1 labelled 'Обычная'; owner ui/menus/RateMenu
  gains: [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4], // §9: gain menu, as percentages, 1 'Disabled'; owner ui/menus/AudioMenu
  singleTapMs: 250, // §9: gesture debounce, single tap; owner ui/gestures
  doubleTapMs: 275, // §9: gesture debounce, double tap; owners ui/gestures, ui/uiState (the length of its tapGuard)
  sideZoneFraction: 0.2, // §9: double tap on a side fifth seeks; owner ui/gestures
  captionsSampleMs: 2500, // §9: 'Captions look like this.' shown this long after a style change; owner ui/uiState
  menuDragClearMs: 300, // §9: a menu's drag state clears 300 ms after drag end; owner ui/Menu
  liveEdgeToleranceS: 10, // §9: within this of the live edge counts as live; owner player/live
  minLiveDvrWindowS: 60, // §9: a shorter seekable window is not offered as DVR; owner player/live
  // §9: sentinel for an unknown duration or remaining time; owners player/format, ui/Controls, analytics/payload
  unknownTime: -2,
  smallBreakpointPx: 640, // §2: the mobile layout at and below this width; owner ui/useLayout (styles/controls.css)
  // ours: the next-episode card shows over an episode's last 10 s (§4: and at its end); owner ui/Player
  nextCardLeadS: 10,
  // ours: an episode picked from a menu resumes its saved time unless this much of it was played; owner player/progress
  resumeBelowFraction: 0.95,
  seekFlashMs: 600, // ours: how long a double tap's '+10 с' stays on screen; owner ui/uiState
  // ours: a pointer moving further than this inside a menu is a drag, not a choice; owner ui/Menu
  menuDragThresholdPx: 8,
  // ours: the entry runs after the first paint, or after this when no frame comes (hidden); owner player.tsx
  firstPaintFallbackMs: 100,
  // ours: with auto_play the interface mounts after the first frame, or after this at the latest; owner player.tsx
  uiDeadlineMs: 4000,
  // ours: under a pre-roll that has not shown its first frame by then, the episode loads anyway; owner player/hold
  contentLoadGateMs: 1500,
  // ours: under a pre-roll the film buffers this far ahead, no further (hls.js; native HLS decides itself): about two
  // segments of the usual 4-6 s, so that the film starts at the ad's end without a stall while loading resumes; the
  // rest of the forward buffer (HLS_CONFIG) only once the film plays, so a viewer who leaves during the ad costs
  // a few seconds of film, not a minute; owner player/controller
  prerollBufferAheadS: 8,
  // §8 (301/350): each VAST request, body included, and the ad list's; owners ads/boot (ads/vast), player.tsx
  vastTimeoutMs: 5000,
  vastMaxWrappers: 5, // wrappers followed before an inline; owner ads/boot (ads/vast follows them)
  adMediaTimeoutMs: 8000, // §8 (402): an ad file that neither loads nor starts by then; owner ads/boot (ads/unit)
  adVisibleRatio: 0.51, // §4, §9: an ad plays only while this much of the player is seen; owners ads/rules, ads/layer
  // §4, §9: a mid-roll only in content longer than this, at its half; owner ads/boot (ads/scheduler)
  midrollMinContentS: 1800,
  analyticsTimeupdateMs: 60_000, // §7, §9: the timeupdate analytics event every 60 s of playing; owner analytics/clock
  adProgressThrottleMs: 1000, // §7, §9: videoplayer_ad_timeupdate at most once a second; owner analytics/session
  // §9: progress analytics, once each per episode; owner analytics/clock
  progressMilestones: [0.1, 0.25, 0.5, 0.75, 0.95, 1],
  // §9: network classes by estimated bandwidth in KB/s (1 KB = 1000 bytes), each below its bound, 'wifi' above the
  // last; owner analytics/classify
  networkClassesKBps: [['gprs', 50], ['2g', 300], ['3g', 1000], ['4g', 4000]],
  // ours: a longer gap between time updates (a stall, a throttled tab) is not playing time; owner analytics/clock
  analyticsTickCapMs: 1000,
  // ours: events kept until the analytics chunk has loaded, the rest dropped; owner analytics/record
  analyticsBufferMax: 500,
  defaultVolume: 1, // §3: player-volume default; owners core/storage, player/limits, player/controller (unmute at 0)
  defaultMuted: false, // §3: player-muted default; owner core/storage
  fingerprintTimeoutMs: 1000, // §9: past this the fingerprint is the quick hash, not SHA-256; owner api/fingerprint
  fingerprintCookieDays: 365, // §3, §9: the device_fp cookie's lifetime; owner api/fingerprint
  // §4: an access token this close to its exp counts as expired and is refreshed before the call (the request's
  // flight, a clock a little off); progress saved every 10 s then renews it before it lapses; owner api/client
  authRefreshSkewS: 30,
  // ours (§4): after a failed refresh none for this long, the calls go without the token (a dead session must not
  // cost a refresh per progress save); owner api/refresh
  authRefreshBackoffMs: 60_000,
  idleTimeoutMs: 2000, // ours: work put off to idle time runs by then at the latest; owner core/timing (whenIdle)
  reportQueueMax: 20, // ours: errors kept while Sentry loads, the rest dropped (a flood); owner reporting/report
} as const;

/**
 * The test suite's shorter waits (PLAYER_TEST_TIMINGS on the server, app/config.py; never set in production), applied
 * by the entry before anything reads them: numeric defaults only, each by its name here. Everything reads DEFAULTS
 * when it acts, never a copy taken at import.
 */
export function applyTimings(timings: Readonly<Record<string, unknown>> | undefined): void {
  const target = DEFAULTS as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(timings ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(target, name) || typeof target[name] !== 'number') continue;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) target[name] = value;
  }
}

/** localStorage keys (spec §3); read and written only through core/storage. */
export const STORAGE_KEYS = {
  progress: 'episodesTimeProgress', // map of episodeId to seconds
  favoriteAudio: 'favoriteAudioTracks', // map of content id to audio label
  volume: 'player-volume',
  muted: 'player-muted',
  captionStyle: 'player-caption-style', // ours: the viewer's caption style settings
} as const;

/** hls.js settings that differ from its defaults (hls.js src/config.ts documents each). */
export const HLS_CONFIG = {
  capLevelToPlayerSize: true, // abr-controller: a small iframe on a cheap phone never fetches more pixels than it shows
  // The forward buffer: 30 s of film ahead of the playhead, never more. base-stream-controller getMaxBufferLength keeps
  // max(maxBufferLength, 8 × maxBufferSize ÷ the level's bitrate) seconds ahead, capped by maxMaxBufferLength; with
  // its defaults (60 MB, 600 s) the byte budget decides, and at the demo's 0.6 Mbit/s that is the whole 600 s, about
  // 43 MB fetched in the first seconds, mostly wasted when a viewer leaves early (their data plan, our CDN bill). So
  // seconds decide here, not bytes: 30 s rides out a tunnel or a cell handover and is what a viewer plausibly watches
  // next (hls.js's and video.js's own goal); a viewer who leaves costs at most that. Measured: `make bench`, data use.
  maxBufferLength: 30, // stream-controller: the seconds kept topped up ahead
  maxBufferSize: 0, // stream-controller: no byte budget above the seconds
  maxMaxBufferLength: 30, // stream-controller: the ceiling (hls.js halves it on a full SourceBuffer, never raises it)
  backBufferLength: 30, // buffer-controller: evict what was played over 30 s ago; the default keeps it all (memory)
  startFragPrefetch: true, // stream-controller: fetch the first fragment while the codecs are being set up
  // transmuxer-interface: even fMP4 passthrough parses each fragment (~90 ms for the first one on the main thread
  // here), so it runs in the worker; player/engine fetches the worker file early so it never waits on the network.
  enableWorker: true,
} as const;
