// Which ads of a parsed response a break plays (ads/vastPods): the media file choice per ad, and pods with stand-ins.
import { AdError } from './rules';
import type { LoadedAd, VastAd, VastMediaFile, VastResponse } from './vast';
import { errorUrlsOf, pickBreak, resolveAd } from './vastPods';

const file = (fileURL: string, mimeType = 'video/mp4'): VastMediaFile =>
  ({ fileURL, mimeType, width: 640, height: 360, codec: null, apiFramework: null });

const vastAd = (id: string, files: VastMediaFile[] | null, sequence: number | null = null): VastAd => ({
  id,
  sequence,
  creatives: files ? [{ type: 'linear', duration: 10, skipDelay: null, mediaFiles: files, trackingEvents: {},
    videoClickThroughURLTemplate: null, videoClickTrackingURLTemplates: [] } as VastAd['creatives'][number]] : [],
  errorURLTemplates: [`https://t.test/error/${id}`],
  impressionURLTemplates: [],
});

const RESPONSE: VastResponse = { ads: [], errorURLTemplates: ['https://t.test/root'], version: '4.2' };
const canPlay = (type: string) => type === 'video/mp4';

describe('resolveAd', () => {
  it('gives the ad its playable file and every Error URL that hears about it', () => {
    const ad = vastAd('a', [file('https://cdn.test/a.flv', 'video/x-flv'), file('https://cdn.test/a.mp4')]);
    const loaded = resolveAd(ad, RESPONSE, 'https://ads.test/v', canPlay) as LoadedAd;
    expect(loaded.mediaFile.fileURL).toBe('https://cdn.test/a.mp4');
    expect([loaded.url, loaded.errorUrls]).toEqual(['https://ads.test/v', ['https://t.test/error/a', 'https://t.test/root']]);
    expect(errorUrlsOf(ad, RESPONSE)).toEqual(loaded.errorUrls);
  });

  it('is 401 without a linear creative or a usable file, 403 without a playable one', () => {
    const code = (ad: VastAd) => (resolveAd(ad, RESPONSE, 'u', canPlay) as AdError).code;
    expect(code(vastAd('none', null))).toBe(401);
    expect(code(vastAd('sizeless', [{ ...file('https://cdn.test/a.mp4'), width: 0 }]))).toBe(401);
    expect(code(vastAd('flash', [file('https://cdn.test/a.flv', 'video/x-flv')]))).toBe(403);
  });
});

describe('pickBreak', () => {
  /** Judges each ad by its id: those named 'bad…' cannot play; the order they were judged in is kept. */
  function judge() {
    const judged: string[] = [];
    const resolve = (ad: VastAd): LoadedAd | AdError => {
      judged.push(ad.id ?? '');
      return ad.id?.startsWith('bad') ? new AdError(403, 'Not found supported mediaFile') : ({ ad } as LoadedAd);
    };
    return { judged, resolve };
  }
  const ids = (picked: LoadedAd[] | AdError) => (picked as LoadedAd[]).map((loaded) => loaded.ad.id);

  it('without pods plays the first ad only, or its error', () => {
    const { judged, resolve } = judge();
    expect(ids(pickBreak([vastAd('a', []), vastAd('b', [])], false, resolve))).toEqual(['a']);
    expect((pickBreak([vastAd('bad', [])], false, resolve) as AdError).code).toBe(403);
    expect(judged).toEqual(['a', 'bad']);
  });

  it('plays a pod in sequence order, a stand-alone ad standing in for each pod ad that cannot play', () => {
    const { judged, resolve } = judge();
    const ads = [vastAd('two', [], 2), vastAd('spare', []), vastAd('one', [], 1), vastAd('bad3', [], 3)];
    expect(ids(pickBreak(ads, true, resolve))).toEqual(['one', 'two', 'spare']);
    expect(judged).toEqual(['one', 'two', 'bad3', 'spare']);
  });

  it('without a pod plays the first stand-alone ad that can (a waterfall), else the last error', () => {
    const { judged, resolve } = judge();
    expect(ids(pickBreak([vastAd('bad1', []), vastAd('w2', []), vastAd('w3', [])], true, resolve))).toEqual(['w2']);
    expect(judged).toEqual(['bad1', 'w2']);
    expect(pickBreak([vastAd('bad1', []), vastAd('bad2', [])], true, resolve)).toBeInstanceOf(AdError);
  });
});
