// Loading one VAST URL into a playable ad: @dailymotion/vast-client parses, follows wrappers and merges their
// tracking; the spec's rules go on top (§5, §8): our own fetch (headers, abort, a 5 s timeout per request), XML
// that fails to parse is 100, a document without exactly one Ad is 901, a bad HTTP answer 900, a hung root 350 and
// a hung wrapper 301, then the media file choice (401/403). Every error pings the Error URLs of every document in
// the chain with its code, through our keepalive pixels instead of the library's <img> ones.
import { VASTClient } from '@dailymotion/vast-client';
import { fetchWithin, type AdRequest } from './list';
import { pingError } from './pixels';
import { AdError, AdErrorCode, adError, chooseMediaFile, type AdMediaFile } from './rules';
import { parseXml } from './xml';

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

interface HandlerResult {
  xml?: Document;
  error?: Error;
  statusCode?: number | null;
  details?: { byteLength: number; statusCode: number; rawXml: string };
}

/** In-memory capping storage: the library must not touch the page's localStorage (it may throw or be shared). */
function memoryStorage() {
  const values = new Map<string, unknown>();
  return { getItem: (key: string) => values.get(key), setItem: (key: string, value: unknown) => values.set(key, value) };
}

/** The child elements of `parent` named `names`. */
function childrenNamed(parent: Element | null, ...names: string[]): Element[] {
  return Array.from(parent?.children ?? []).filter((child) => names.includes(child.localName));
}

function adsOf(xml: Document): Element[] {
  return childrenNamed(xml.documentElement, 'Ad');
}

/** The document's own Error URLs, and those of each <Ad>'s InLine or Wrapper: where an ad server hears why the
 * document will not play (an ad-level one is all a pod or a buffet has). */
function documentErrorUrls(xml: Document): string[] {
  const bodies = adsOf(xml).flatMap((ad) => childrenNamed(ad, 'InLine', 'Wrapper'));
  return [xml.documentElement, ...bodies]
    .flatMap((element) => childrenNamed(element, 'Error'))
    .map((child) => (child.textContent ?? '').trim())
    .filter(Boolean);
}

/** One GET under the spec's timeout (body included), aborted with the caller's signal too. */
function fetchText(url: string, options: LoadOptions): Promise<{ status: number; ok: boolean; text: string }> {
  const request = options.headersFor ? { ...options, headers: options.headersFor(url) } : options;
  return fetchWithin(url, request, async (response) => ({ status: response.status, ok: response.ok, text: await response.text() }));
}

/**
 * Resolves `url` to a playable ad or throws an AdError (an abort rethrows the AbortError). The pings of every
 * error have gone out when it returns or throws.
 */
export async function loadVast(url: string, options: LoadOptions): Promise<LoadedAd> {
  return (await loadVastAds(url, { ...options, pods: false }))[0];
}

/** The ads `url` plays in one break: one under spec §5, a pod (with buffet replacements) when `options.pods`. */
export async function loadVastAds(url: string, options: LoadOptions): Promise<LoadedAd[]> {
  const ping = options.ping ?? ((urls: string[], code: AdErrorCode) => void pingError(urls, code));
  let rootFailure: AdError | null = null; // why our handler refused the list's own document
  const client = new VASTClient(0, 0, memoryStorage() as unknown as ConstructorParameters<typeof VASTClient>[2]);
  const parser = client.getParser();
  // The library's own error pixels (a failed or too deep wrapper, no ad, an ad without media) go through ours. It
  // says 303 for an ad left with no media file; the spec says 401 (such a call carries the ad's `system`).
  // It also says 301 for any wrapper target that failed; a target that answered (bad XML, no single Ad, a bad HTTP
  // status) gets its own code, only a timeout keeps 301.
  let libraryCode: AdErrorCode | null = null;
  let wrapperFailure: AdError | null = null;
  parser.trackVastError = (urls: string[], error: { ERRORCODE?: number }, ...data: object[]) => {
    let code = (error.ERRORCODE ?? AdErrorCode.UNDEFINED) as AdErrorCode;
    if (code === AdErrorCode.NO_RESPONSE && data.some((item) => item && 'system' in item)) {
      code = AdErrorCode.NO_MEDIA_FILE;
    }
    if (code === AdErrorCode.WRAPPER_TIMEOUT && wrapperFailure && wrapperFailure.code !== AdErrorCode.WRAPPER_TIMEOUT) {
      code = wrapperFailure.code;
    }
    libraryCode = code;
    ping(urls, code);
  };

  const urlHandler = {
    async get(documentUrl: string): Promise<HandlerResult> {
      const refuse = (error: AdError, statusCode: number | null = null): HandlerResult => {
        if (documentUrl === url) rootFailure = error;
        else wrapperFailure = error;
        return { error, statusCode };
      };
      let answer;
      try {
        answer = await fetchText(documentUrl, options);
      } catch (error) {
        if (options.signal?.aborted) return { error: error as Error };
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        const isRoot = documentUrl === url;
        if (timedOut) return refuse(adError(isRoot ? AdErrorCode.LOAD_TIMEOUT : AdErrorCode.WRAPPER_TIMEOUT));
        return refuse(adError(AdErrorCode.UNDEFINED, { failedLoad: true }));
      }
      if (!answer.ok) return refuse(adError(AdErrorCode.UNDEFINED, { failedLoad: true }), answer.status);
      const xml = parseXml(answer.text);
      if (!xml) return refuse(adError(AdErrorCode.XML_PARSE), answer.status);
      if (xml.documentElement.localName !== 'VAST') {
        return refuse(adError(AdErrorCode.VERSION_UNSUPPORTED), answer.status); // VAST 1.0's VideoAdServingTemplate
      }
      const count = adsOf(xml).length;
      if (count === 0 || (count > 1 && !(options.pods && documentUrl === url))) {
        // Spec §5: one <Ad> per document, else 901. A pod, a buffet or a waterfall (several <Ad>s) is refused whole,
        // so each of its ads hears it, or the ad server sees neither an impression nor an error; a document with
        // no ad can only report at its root.
        ping(documentErrorUrls(xml), AdErrorCode.EMPTY_VAST);
        return refuse(adError(AdErrorCode.EMPTY_VAST), answer.status);
      }
      return {
        xml,
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

  /** One ad with the file it plays, or its error (pinged to its own Error URLs and the document's). */
  const resolve = (ad: VastAd): LoadedAd | AdError => {
    const errorUrls = [...(ad.errorURLTemplates ?? []), ...response.errorURLTemplates];
    const linear = ad.creatives.find((creative): creative is VastLinear => creative.type === 'linear');
    const chosen = chooseMediaFile(linear?.mediaFiles ?? [], options.canPlay);
    if (!linear || chosen instanceof AdError) {
      const error = chosen instanceof AdError ? chosen : adError(AdErrorCode.NO_MEDIA_FILE);
      ping(errorUrls, error.code);
      return error;
    }
    return { url, ad, linear, mediaFile: chosen, errorUrls };
  };
  if (response.ads.length === 0) throw adError(libraryCode ?? AdErrorCode.NO_RESPONSE); // the library pinged already
  if (!options.pods) {
    const single = resolve(response.ads[0]);
    if (single instanceof AdError) throw single;
    return [single];
  }
  const order = (ad: VastAd) => Number(ad.sequence) || 0;
  const pod = response.ads.filter((ad) => order(ad) > 0).sort((a, b) => order(a) - order(b));
  const buffet = response.ads.filter((ad) => order(ad) === 0);
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
  if (played.length === 0) throw lastError;
  return played;
}
