// The stream's playlists, asked for ahead of hls.js instead of by hls.js once it runs: each was one more request in a
// row before the first frame (a round trip of 562 ms on a slow 4G network). The chosen episode's master comes in the
// page itself (the context's firstPlaylist), or is asked for the moment the master JSON names it; the media playlists
// hls.js starts on, which the page names beside it (app/http/media.py starting_playlists), are asked for at once, while
// the hls.js chunk still downloads. hls.js gets the responses through its public loader interface (`pLoader`);
// anything else it loads, a retry, and a prefetch that failed go to its own loader as they always did.
import type {
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderStats,
  PlaylistLoaderConstructor,
  PlaylistLoaderContext,
} from 'hls.js';
import { nextTask } from '../core/timing';

/** A playlist fetched ahead of hls.js: its text, or null when it failed (hls.js then asks the network itself). */
interface Prefetched {
  url: string; // after redirects, as hls.js resolves the playlist's relative links against it
  status: number;
  text: string;
  first: number; // performance.now() of the response's headers
  end: number; // and of its end
}

/** A GET's outcome: the status (0 for a network failure), the address after redirects, the body. */
export interface TextResponse {
  status: number;
  url: string;
  text: string;
  first: number; // performance.now() of the headers
}

export type GetText = (url: string) => Promise<TextResponse>;

/**
 * An XMLHttpRequest, as hls.js's own loader makes: its load event hands over the whole body in one task, where a
 * fetch()'s body comes through a stream read over several tasks, each behind whatever else the main thread is doing
 * (measured: the text came 10-20 ms after the response had ended, while hls.js was starting).
 */
export const getText: GetText = (url) =>
  new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    let first = 0;
    xhr.onreadystatechange = () => {
      if (xhr.readyState >= XMLHttpRequest.HEADERS_RECEIVED && !first) first = performance.now();
    };
    xhr.onloadend = () => resolve({ status: xhr.status, url: xhr.responseURL || url, text: xhr.responseText, first });
    xhr.open('GET', url);
    xhr.send();
  });

/** What a prefetch answers: the master (hls.js's 'manifest') or a media playlist ('level', 'audioTrack'). */
type Kind = 'manifest' | 'media';

export class PlaylistPrefetch {
  private pending = new Map<string, { kind: Kind; response: Promise<Prefetched | null> }>();

  constructor(
    private readonly get: GetText = getText,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Starts fetching `url`, or, given its text (`known`: the page carried it), keeps that without a request, and fetches
   * the `media` playlists hls.js will ask for first (absolute addresses, as hls.js resolves them). A later start
   * replaces them all (only the episode being loaded is kept).
   */
  start(url: string, known?: string, media: readonly string[] = []): void {
    const now = this.now();
    const master =
      known === undefined
        ? this.fetch(url)
        : Promise.resolve<Prefetched>({ url, status: 200, text: known, first: now, end: now });
    this.pending = new Map([[url, { kind: 'manifest', response: master }]]);
    for (const address of media) this.pending.set(address, { kind: 'media', response: this.fetch(address) });
  }

  /** The prefetch of `url` as `kind`, once: a second ask (hls.js's retry) gets null and goes to the network. */
  take(url: string, kind: Kind = 'manifest'): Promise<Prefetched | null> | null {
    const entry = this.pending.get(url);
    if (entry?.kind !== kind) return null;
    this.pending.delete(url);
    return entry.response;
  }

  private fetch(url: string): Promise<Prefetched | null> {
    return this.get(url).then(
      (res): Prefetched | null =>
        res.status >= 200 && res.status < 300
          ? { url: res.url, status: res.status, text: res.text, first: res.first || this.now(), end: this.now() }
          : null,
      () => null,
    );
  }
}

type PlaylistLoader = Loader<PlaylistLoaderContext>;

/**
 * hls.js's playlist loader (`pLoader`) over `Base` (its default loader): the manifest and the first media playlists
 * come from `prefetch` when it has them, each in a task of its own (so parsing it never joins the task that started
 * hls.js) that goes before timers and the like, with hls.js's own load timeout.
 */
export function prefetchingLoader(
  Base: new (config: HlsConfig) => PlaylistLoader,
  prefetch: PlaylistPrefetch,
): PlaylistLoaderConstructor {
  return class PrefetchingPlaylistLoader implements PlaylistLoader {
    private readonly inner: PlaylistLoader;
    private own: { stats: LoaderStats; context: PlaylistLoaderContext } | null = null;
    private callbacks: LoaderCallbacks<PlaylistLoaderContext> | null = null;
    private timer: ReturnType<typeof setTimeout> | undefined;

    constructor(config: HlsConfig) {
      this.inner = new Base(config);
    }

    get stats(): LoaderStats {
      return this.own?.stats ?? this.inner.stats;
    }

    get context(): PlaylistLoaderContext | null {
      return this.own?.context ?? this.inner.context;
    }

    load(
      context: PlaylistLoaderContext,
      config: LoaderConfiguration,
      callbacks: LoaderCallbacks<PlaylistLoaderContext>,
    ) {
      const media = context.type === 'level' || context.type === 'audioTrack';
      const kind = context.type === 'manifest' ? 'manifest' : media ? 'media' : null;
      const prefetched = kind ? prefetch.take(context.url, kind) : null;
      if (!prefetched) return this.inner.load(context, config, callbacks);
      const stats = this.inner.stats; // hls.js's own LoadStats, filled in as its loader would
      stats.loading.start = performance.now();
      this.own = { stats, context };
      this.callbacks = callbacks;
      const toNetwork = () => {
        this.own = null;
        this.callbacks = null;
        stats.loading.start = 0; // the inner loader starts its own clock ('can only be used once' otherwise)
        this.inner.load(context, config, callbacks);
      };
      this.timer = setTimeout(toNetwork, config.loadPolicy.maxLoadTimeMs);
      void prefetched.then((response) => {
        if (this.callbacks !== callbacks) return; // aborted, destroyed or timed out meanwhile
        clearTimeout(this.timer);
        nextTask(() => {
          if (this.callbacks !== callbacks) return;
          if (!response) return toNetwork();
          stats.loading.first = Math.max(response.first, stats.loading.start);
          stats.loading.end = Math.max(response.end, stats.loading.first);
          stats.loaded = stats.total = response.text.length;
          stats.bwEstimate = (stats.total * 8000) / Math.max(1, stats.loading.end - stats.loading.first);
          this.callbacks = null;
          callbacks.onSuccess({ url: response.url, data: response.text, code: response.status }, stats, context, null);
        });
      });
    }

    getCacheAge = (): number | null => (this.own ? null : (this.inner.getCacheAge?.() ?? null));

    getResponseHeader = (name: string): string | null =>
      this.own ? null : (this.inner.getResponseHeader?.(name) ?? null);

    abort(): void {
      if (!this.own) return this.inner.abort();
      clearTimeout(this.timer);
      const callbacks = this.callbacks;
      this.callbacks = null;
      this.own.stats.aborted = true;
      callbacks?.onAbort?.(this.own.stats, this.own.context, null);
    }

    destroy(): void {
      clearTimeout(this.timer);
      this.callbacks = null;
      this.own = null;
      this.inner.destroy();
    }
  };
}
