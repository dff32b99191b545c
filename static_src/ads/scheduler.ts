// When ads play (spec §4): the ad list, a pre-roll before the content, one mid-roll past half of content longer than
// 1800 s, a new start on a new episode; and the ad history (§3). How an ad plays is the caller's (`playAd`: the ad
// layer runs an AdUnit to its end); this module never touches the DOM.
import type { AdHistoryItem, AdType } from '../core/events';
import { fetchAdList, type AdList } from './list';
import { AdError, codeOf, midrollDue, percentPlayed } from './rules';
import type { AdStatus } from './unit';
import type { LoadedAd } from './vast';

export type { AdHistoryItem, AdType };

export interface SchedulerOptions {
  adListUrl: string | null;
  headers(): Record<string, string>; // the common headers and the window-level ones, read at each request
  fetcher?: typeof fetch;
  loadAd(vastUrl: string, signal: AbortSignal): Promise<LoadedAd[]>; // one ad, or a pod's (AD_PODS) in order
  playAd(ad: LoadedAd, type: AdType, signal: AbortSignal): Promise<AdStatus>;
  content(): { currentTime: number; duration: number };
  minMidrollContentS?: number;
  timeoutMs?: number; // the ad list's request, body included (5 s by default)
  list?: Promise<AdList>; // the first break's list, when the entry has requested it already (ads/list.ts)
}

export class AdScheduler {
  readonly history: AdHistoryItem[] = [];
  private list: Promise<AdList> | null = null;
  private controller = new AbortController();
  private midrollShown = false;
  private midrollRunning = false;

  constructor(private readonly options: SchedulerOptions) {
    if (options.list) this.keep(options.list);
  }

  /** The pre-roll: resolves when the content may play (ads done, failed or absent). Never rejects. */
  async preroll(): Promise<void> {
    const signal = this.controller.signal;
    let list: AdList;
    try {
      list = await this.adList(signal);
    } catch (error) {
      if (signal.aborted) return;
      console.warn('ads: the ad list failed, the content plays without ads:', String((error as Error)?.message ?? error));
      return;
    }
    await this.run(list.prerollList, 'preroll', signal);
  }

  /** Call on every content time update: starts the mid-roll once when it is due; resolves when the content may go on. */
  maybeMidroll(): Promise<void> | null {
    const { currentTime, duration } = this.options.content();
    if (this.midrollRunning || !midrollDue(duration, currentTime, this.midrollShown, this.options.minMidrollContentS)) {
      return null;
    }
    this.midrollShown = true; // once, even after a seek back (spec §4)
    this.midrollRunning = true;
    const signal = this.controller.signal;
    return this.adList(signal)
      .then((list) => this.run(list.midrollList, 'midroll', signal))
      .catch(() => undefined) // a failed list: the content goes on without the mid-roll
      .finally(() => (this.midrollRunning = false));
  }

  /** A new episode (spec §4): the current ad stops, the list is fetched again, the mid-roll may come again. */
  reset(): void {
    this.controller.abort(new DOMException('a new episode', 'AbortError'));
    this.controller = new AbortController();
    this.list = null;
    this.midrollShown = false;
    this.midrollRunning = false;
  }

  private adList(signal: AbortSignal): Promise<AdList> {
    return this.list ?? this.keep(fetchAdList(this.options.adListUrl, {
      headers: this.options.headers(),
      signal,
      timeoutMs: this.options.timeoutMs ?? 5000,
      fetcher: this.options.fetcher,
    }));
  }

  private keep(list: Promise<AdList>): Promise<AdList> {
    this.list = list;
    list.catch(() => {
      if (this.list === list) this.list = null; // a failure may be retried by the next break
    });
    return list;
  }

  /** Loads every VAST of a break in parallel (failures dropped), then plays them in list order. */
  private async run(urls: string[], type: AdType, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return; // the entry's list may settle after a new episode reset the break
    if (urls.length === 0) return;
    const perc = percentPlayed(this.options.content().currentTime, this.options.content().duration);
    const loads = urls.map((url) =>
      this.options.loadAd(url, signal).catch((error: unknown) => {
        if (!signal.aborted) console.warn(`ads: ${codeOf(error)} ${(error as AdError)?.message ?? error} (${url})`);
        return [];
      }),
    );
    const ads = async function* (): AsyncGenerator<LoadedAd> { // each VAST's ads in list order, a pod's in its own
      for (const pending of loads) yield* await pending;
    };
    for await (const ad of ads()) {
      if (signal.aborted) return;
      this.history.push({
        id: ad.ad.id ?? ad.url,
        type,
        position: this.history.length + 1,
        duration: Math.round(ad.linear.duration > 0 ? ad.linear.duration : 0),
        perc,
      });
      const status = await this.options.playAd(ad, type, signal).catch(() => 'ERROR' as AdStatus);
      if (signal.aborted || status === 'STOPPED') break; // a stop ends the break; any other end moves on
    }
  }
}
