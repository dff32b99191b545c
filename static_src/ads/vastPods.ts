// Which ads of a parsed VAST response a break plays (spec §5, and IAB's pods and buffets with AD_PODS): each ad with
// the media file it plays (rules chooseMediaFile), and the pod's order with stand-ins. Pure: the caller pings.
import { AdError, AdErrorCode, adError, chooseMediaFile } from './rules';
import type { LoadedAd, VastAd, VastLinear, VastResponse } from './vast';

/** Every Error URL that hears about `ad`: its own and its document's. */
export function errorUrlsOf(ad: VastAd, response: VastResponse): string[] {
  return [...(ad.errorURLTemplates ?? []), ...response.errorURLTemplates];
}

/** One ad of `url`'s response with the file it plays, or why it cannot play (401 no usable file, 403 none playable). */
export function resolveAd(
  ad: VastAd,
  response: VastResponse,
  url: string,
  canPlay: (mimeType: string, codec: string | null) => boolean,
): LoadedAd | AdError {
  const linear = ad.creatives.find((creative): creative is VastLinear => creative.type === 'linear');
  const chosen = chooseMediaFile(linear?.mediaFiles ?? [], canPlay);
  if (chosen instanceof AdError) return chosen;
  if (!linear) return adError(AdErrorCode.NO_MEDIA_FILE);
  return { url, ad, linear, mediaFile: chosen, errorUrls: errorUrlsOf(ad, response) };
}

/**
 * The ads a break plays from `ads` (the response's, at least one), `resolve` judging each in turn: without `pods`
 * the first one; with `pods`, the pod (the ads with a sequence) in sequence order, a stand-alone (buffet) ad standing
 * in for each pod ad that cannot play, or with no pod the first stand-alone ad that can (a waterfall). The error of
 * the last ad that could not play when none can.
 */
export function pickBreak(
  ads: VastAd[],
  pods: boolean,
  resolve: (ad: VastAd) => LoadedAd | AdError,
): LoadedAd[] | AdError {
  if (!pods) {
    const single = resolve(ads[0]);
    return single instanceof AdError ? single : [single];
  }
  const order = (ad: VastAd) => Number(ad.sequence) || 0;
  const pod = ads.filter((ad) => order(ad) > 0).sort((a, b) => order(a) - order(b));
  const buffet = ads.filter((ad) => order(ad) === 0);
  let lastError: AdError = adError(AdErrorCode.NO_SUPPORTED_MEDIA);
  const nextFromBuffet = (): LoadedAd | null => {
    for (let ad = buffet.shift(); ad; ad = buffet.shift()) {
      const loaded = resolve(ad);
      if (!(loaded instanceof AdError)) return loaded;
      lastError = loaded;
    }
    return null;
  };
  const played: LoadedAd[] = [];
  for (const ad of pod) {
    const loaded = resolve(ad);
    if (loaded instanceof AdError) lastError = loaded;
    const use = loaded instanceof AdError ? nextFromBuffet() : loaded;
    if (use) played.push(use);
  }
  if (pod.length === 0) {
    const first = nextFromBuffet();
    if (first) played.push(first);
  }
  return played.length === 0 ? lastError : played;
}
