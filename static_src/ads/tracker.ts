// @dailymotion/vast-client's VASTTracker decides which events fire when (start, quartiles, progress, pause/resume,
// mute/unmute, impression once); this subclass only changes how a pixel leaves: our keepalive fetch with our macros
// (pixels.ts) instead of an <img>, [ASSETURI] the file actually playing rather than the document's first, and
// [ADPLAYHEAD] the time of the event rather than of the previous call.
import { VASTTracker } from '@dailymotion/vast-client';
import { pingAll, playhead, type Macros } from './pixels';
import type { LoadedAd } from './vast';

type Template = string | { url: string };

export class AdTracker extends VASTTracker {
  private now = 0;

  constructor(
    private readonly loaded: LoadedAd,
    muted: boolean,
    private readonly fetcher?: typeof fetch,
    private readonly macros: Macros = {},
  ) {
    super(null, loaded.ad, loaded.linear, null, muted);
  }

  /** The ad's current time; call before the tracker's own setProgress so that macros carry it. */
  at(seconds: number): this {
    this.now = seconds;
    return this;
  }

  override trackURLs(templates: Template[], macros: Macros = {}): void {
    const urls = templates.map((template) => (typeof template === 'string' ? template : template?.url)).filter(Boolean);
    pingAll(urls as string[], {
      ...this.macros,
      ASSETURI: this.loaded.mediaFile.fileURL ?? undefined,
      ADPLAYHEAD: playhead(this.now),
      ...macros,
    }, this.fetcher);
  }
}
