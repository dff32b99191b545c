// The spec's error rules for a VAST document and its chain (§5, §8), on top of @dailymotion/vast-client: what a failed
// request, a document that will not do, or the library's own report is, as an AdError code. Pure: no network.
import { parseXml } from './xml';
import { AdError, AdErrorCode, adError } from './rules';

/** The child elements of `parent` named `names`. */
function childrenNamed(parent: Element | null, ...names: string[]): Element[] {
  return Array.from(parent?.children ?? []).filter((child) => names.includes(child.localName));
}

function adsOf(xml: Document): Element[] {
  return childrenNamed(xml.documentElement, 'Ad');
}

/** The document's own Error URLs, and those of each <Ad>'s InLine or Wrapper: where an ad server hears why the
 * document will not play (an ad-level one is all a pod or a buffet has). */
export function documentErrorUrls(xml: Document): string[] {
  const bodies = adsOf(xml).flatMap((ad) => childrenNamed(ad, 'InLine', 'Wrapper'));
  return [xml.documentElement, ...bodies]
    .flatMap((element) => childrenNamed(element, 'Error'))
    .map((child) => (child.textContent ?? '').trim())
    .filter(Boolean);
}

/** A request that failed without an answer (not an abort): a hung root is 350, a hung wrapper target 301, else 900. */
export function fetchFailure(error: unknown, isRoot: boolean): AdError {
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  if (timedOut) return adError(isRoot ? AdErrorCode.LOAD_TIMEOUT : AdErrorCode.WRAPPER_TIMEOUT);
  return adError(AdErrorCode.UNDEFINED, { failedLoad: true });
}

/** A document that will do, or its refusal: the error, and for a 901 the Error URLs that hear it from us. */
export type Checked = { xml: Document } | { error: AdError; pingUrls?: string[] };

/**
 * A document's answer checked (spec §5): a bad HTTP status is 900, XML that does not parse 100, a document that is
 * not VAST (VAST 1.0's VideoAdServingTemplate) 102, and one without exactly one <Ad> 901, unless `several` (a pod's
 * root, AD_PODS) lets more through. A pod, a buffet or a waterfall is refused whole, so each of its ads hears it, or
 * the ad server sees neither an impression nor an error; a document with no ad can only report at its root. Only the
 * 901 is pinged here: the library reports the others to the chain it has followed.
 */
export function checkDocument(answer: { ok: boolean; text: string }, several: boolean): Checked {
  if (!answer.ok) return { error: adError(AdErrorCode.UNDEFINED, { failedLoad: true }) };
  const xml = parseXml(answer.text);
  if (!xml) return { error: adError(AdErrorCode.XML_PARSE) };
  if (xml.documentElement.localName !== 'VAST') return { error: adError(AdErrorCode.VERSION_UNSUPPORTED) };
  const count = adsOf(xml).length;
  if (count === 0 || (count > 1 && !several)) {
    return { error: adError(AdErrorCode.EMPTY_VAST), pingUrls: documentErrorUrls(xml) };
  }
  return { xml };
}

/**
 * The library's error in the spec's terms. It says 303 for an ad left with no media file; the spec says 401 (such a
 * report carries the ad's `system`). It also says 301 for any wrapper target that failed; a target that answered (bad
 * XML, no single Ad, a bad HTTP status: `wrapperFailure`, our refusal) keeps its own code, only a timeout stays 301.
 */
export function libraryErrorCode(code: number | undefined, data: object[], wrapperFailure: AdError | null): AdErrorCode {
  const { NO_RESPONSE, NO_MEDIA_FILE, WRAPPER_TIMEOUT } = AdErrorCode;
  const reported = (code ?? AdErrorCode.UNDEFINED) as AdErrorCode;
  if (reported === NO_RESPONSE && data.some((item) => item && 'system' in item)) return NO_MEDIA_FILE;
  if (reported === WRAPPER_TIMEOUT && wrapperFailure && wrapperFailure.code !== WRAPPER_TIMEOUT) return wrapperFailure.code;
  return reported;
}
