// The player context the server resolved and put in the page as one JSON blob (spec §3 "Player context").

export interface ContentData {
  id: number;
  title: string;
  hasMultipleEpisodes: boolean;
  posterUrl: string | null;
  contentType: { slug: string };
  year: number | null;
  countries: Array<{ slug: string }>;
  languages: Array<{ code: string }>;
  kinopoiskId: number | null;
  imdbId: string | null;
  rating: { kinopoisk: { value: number | null }; imdb: { value: number | null; url: string | null } };
}

export interface SeasonData {
  id: number;
  order: number;
  title: string | null;
}

export interface EpisodeData {
  id: number;
  order: number;
  title: string;
  description: string;
  duration: number | null;
  posterPath: string | null;
  m3u8MasterFilePath: string | null;
  isCompleted: boolean;
  season: { id: number; order: number } | null;
  // Issue 35's markers, seconds from the start (the page's blob has only those set; the API has all, null when not)
  introStart?: number | null;
  introEnd?: number | null;
  creditsStart?: number | null;
}

export interface RuntimeConfig {
  baseUrl: string;
  adListUrl: string | null;
  adPods?: boolean; // AD_PODS: a multi-ad root document plays as IAB's pod and buffet (ads/vast loadVastAds)
  adHeaderOrigins?: string[]; // the ad servers whose VAST requests carry the ad headers (AD_HEADER_ORIGINS); ads/list
  fullscreenMode: 'native' | 'pseudo';
  sentryProject: string;
  sentryDsn: string | null; // the browser's Sentry DSN (SENTRY_BROWSER_DSN); null loads no error reporting
  widgetAssetsPath: string;
  placeholderUrl: string; // the tiny clip played when the content is not available here (spec §4)
  parentOrigin: string | null; // the embedding page's origin as the server resolved it (spec §7); embed/bridge
  statisticsFunction: string; // the window-level analytics function's name (spec §7), '' for none; analytics/record
  timings?: Record<string, number>; // the test suite's shorter waits over core/defaults (core/defaults applyTimings)
}

export interface PlayerContext {
  content: ContentData;
  seasons: SeasonData[];
  episodes: EpisodeData[];
  episodeId: number | null;
  episodeTime: number | null;
  timeCode: number | null;
  isEnabledShare: boolean;
  isAvailable: boolean;
  isPreload: boolean;
  autoPlay: boolean;
  voiceAuthor: string | null;
  userId: string | null;
  langOrder: string[];
  pageUrl?: string | null; // the embedding page's address as the embed says it (page_url); share/link checks it
  awaitRequestHeaders?: boolean; // request_headers=1: the embedding page relays ad-request headers (embed/requestHeaders)
  // The chosen episode's first HLS playlist (its master JSON's default source) as the server read it: its signed address
  // (origin-relative) and text; hls.js gets it without a request (player/prefetch). Absent when not ours to read.
  firstPlaylist?: { url: string; text: string; media?: string[] } | null; // media: the playlists hls.js starts on
  config: RuntimeConfig;
}

/** What the console says when the runtime config names no ad list (spec §7: the film then plays without ads). */
export const AD_LIST_MISSING = 'ENV_AD_LIST_URL is not defined';

export function readContext(doc: Document = document): PlayerContext | null {
  const blob = doc.getElementById('player-context');
  if (!blob?.textContent) return null;
  try {
    return JSON.parse(blob.textContent) as PlayerContext;
  } catch (error) {
    console.error('player: the context blob is not JSON', error);
    return null;
  }
}
