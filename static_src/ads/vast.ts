// Loading one VAST URL into the ads of a break: @dailymotion/vast-client parses, follows wrappers and merges their
// tracking (ads/vastLibrary: the one place that touches its internals); the spec's rules go on top (§5, §8): our own
// fetch (headers, abort, a 5 s timeout per request), each document checked and each failure coded (ads/vastErrors:
// 100, 102, 900, 901, a hung root 350 and a hung wrapper 301), then the ads with their media files (ads/vastPods:
// 401/403, pods). Every error pings the Error URLs of every document in the chain with its code, through our
// keepalive pixels instead of the library's <img> ones.
import { fetchWithin, type AdRequest } from './list';
import { pingError } from './pixels';
import { AdError, AdErrorCode, adError, type AdMediaFile } from './rules';
import { checkDocument, fetchFailure, libraryErrorCode } from './vastErrors';
import { createVastClient } from './vastLibrary';
import { errorUrlsOf, pickBreak, resolveAd } from './vastPods';

export interface VastMediaFile extends AdMediaFile {
  fileURL: string | null;
  mimeType: string | null;
  codec: string | null;
  apiFramework: string | null;
}

export interface VastUrlTemplate {
  id?: string | null;
  url: string;
}

export interface VastLinear {
  type: 'linear';
  duration: number; // seconds, -1 unknown
  skipDelay: number | null; // seconds; null or -1: not skippable
  mediaFiles: VastMediaFile[];
  trackingEvents: Record<string, string[]>;
  videoClickThroughURLTemplate: VastUrlTemplate | null;
  videoClickTrackingURLTemplates: VastUrlTemplate[];
}

export interface VastAd {
  id: string | null;
  sequence: number | null;
  title?: string | null;
  creatives: { type: string }[];
  errorURLTemplates: string[];
  impressionURLTemplates: VastUrlTemplate[];
}

export interface VastResponse {
  ads: VastAd[];
  errorURLTemplates: string[];
  version: string | null;
}

/** A VAST URL resolved to something the ad unit can play and track. */
export interface LoadedAd {
  url: string;
  ad: VastAd;
  linear: VastLinear;
  mediaFile: VastMediaFile;
  errorUrls: string[]; // every Error URL of the chain, ad-level and document-level
}

export interface LoadOptions extends AdRequest {
  maxWrappers: number; // wrappers followed before an inline (spec: 5)
  canPlay(mimeType: string, codec: string | null): boolean;
  ping?(urls: string[], code: AdErrorCode): void;
  headersFor?(url: string): Record<string, string>; // per document of the chain (ads/list vastRequestHeaders)
  // Beyond spec §5 (AD_PODS): a root document with several <Ad>s is played as IAB says, its pod in sequence order,
  // its stand-alone (buffet) ads replacing pod ads that cannot play, or, with no pod, the first stand-alone ad that
  // can; multi-ad wrapper targets stay 901
  pods?: boolean;
}

/** What the library's urlHandler answers for one document of the chain. */
interface HandlerResult {
  xml?: Document;
  error?: Error;
  statusCode?: number | null;
  details?: { byteLength: number; statusCode: number; rawXml: string };
}

/** One GET under the spec's timeout (body included), aborted with the caller's signal too. */
function fetchText(url: string, options: LoadOptions): Promise<{ status: number; ok: boolean; text: string }> {
  const request = options.headersFor ? { ...options, headers: options.headersFor(url) } : options;
  return fetchWithin(url, request, async (response) => ({ status: response.status, ok: response.ok, text: await response.text() }));
}

/**
 * The ads `url` plays in one break: one under spec §5, a pod (with buffet stand-ins) when `options.pods`. Throws an
 * AdError (an abort rethrows the AbortError); the pings of every error have gone out when it returns or throws.
 */
export async function loadVastAds(url: string, options: LoadOptions): Promise<LoadedAd[]> {
  const ping = options.ping ?? ((urls: string[], code: AdErrorCode) => void pingError(urls, code));
  let rootFailure: AdError | null = null; // why our handler refused the list's own document
  let wrapperFailure: AdError | null = null; // why it refused a wrapper's target
  let libraryCode: AdErrorCode | null = null; // the last error the library reported
  const client = createVastClient((urls, code, data) => {
    libraryCode = libraryErrorCode(code, data, wrapperFailure);
    ping(urls, libraryCode);
  });

  const urlHandler = {
    async get(documentUrl: string): Promise<HandlerResult> {
      const isRoot = documentUrl === url;
      const refuse = (error: AdError, statusCode: number | null = null): HandlerResult => {
        if (isRoot) rootFailure = error;
        else wrapperFailure = error;
        return { error, statusCode };
      };
      let answer;
      try {
        answer = await fetchText(documentUrl, options);
      } catch (error) {
        if (options.signal?.aborted) return { error: error as Error };
        return refuse(fetchFailure(error, isRoot));
      }
      const checked = checkDocument(answer, Boolean(options.pods && isRoot));
      if ('error' in checked) {
        if (checked.pingUrls) ping(checked.pingUrls, checked.error.code);
        return refuse(checked.error, answer.status);
      }
      return {
        xml: checked.xml,
        details: { byteLength: answer.text.length, statusCode: answer.status, rawXml: answer.text },
      };
    },
  };

  let response: VastResponse;
  try {
    response = (await client.get(url, {
      urlHandler,
      wrapperLimit: options.maxWrappers + 1, // the library counts documents, the spec wrappers
      timeout: options.timeoutMs,
      resolveAll: Boolean(options.pods), // every ad of a pod response, wrappers followed; else the first only
    })) as VastResponse;
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    throw rootFailure ?? adError(AdErrorCode.UNDEFINED, { failedLoad: true });
  }
  if (response.ads.length === 0) throw adError(libraryCode ?? AdErrorCode.NO_RESPONSE); // the library pinged already
  const chosen = pickBreak(response.ads, Boolean(options.pods), (ad) => {
    const loaded = resolveAd(ad, response, url, options.canPlay);
    if (loaded instanceof AdError) ping(errorUrlsOf(ad, response), loaded.code); // its own Error URLs and the document's
    return loaded;
  });
  if (chosen instanceof AdError) throw chosen;
  return chosen;
}
