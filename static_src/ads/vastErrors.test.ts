// The spec's codes for a VAST chain's failures (ads/vastErrors), with the documents inline.
import { AdErrorCode, adError } from './rules';
import { checkDocument, documentErrorUrls, fetchFailure, libraryErrorCode } from './vastErrors';
import { parseXml } from './xml';

const ad = (id: string, body: 'InLine' | 'Wrapper' = 'InLine') =>
  `<Ad id="${id}"><${body}><AdSystem>t</AdSystem><Error> https://t.test/error/${id} </Error></${body}></Ad>`;
const vast = (...ads: string[]) => `<VAST version="4.2"><Error>https://t.test/root</Error>${ads.join('')}</VAST>`;
const ok = (text: string) => ({ ok: true, text });

describe('checkDocument', () => {
  it('takes a VAST document with one Ad', () => {
    const checked = checkDocument(ok(vast(ad('a'))), false);
    expect('xml' in checked && checked.xml.documentElement.localName).toBe('VAST');
  });

  it.each([
    ['a bad HTTP status', { ok: false, text: vast(ad('a')) }, 900, 'Failed load VAST'],
    ['XML that does not parse', ok('<VAST><Ad>'), 100, 'Failed parsing xml'],
    ["VAST 1.0's root", ok('<VideoAdServingTemplate><Ad/></VideoAdServingTemplate>'), 102, 'VAST version not supported'],
  ])('refuses %s without a ping of its own (the library reports it to the chain)', (_name, answer, code, message) => {
    const checked = checkDocument(answer, false);
    expect('error' in checked && [checked.error.code, checked.error.message, checked.pingUrls]).toEqual([code, message, undefined]);
  });

  it('refuses a document without exactly one Ad with 901, for its root and every ad in it to hear', () => {
    const none = checkDocument(ok(vast()), false);
    expect('error' in none && [none.error.code, none.pingUrls]).toEqual([901, ['https://t.test/root']]);
    const two = checkDocument(ok(vast(ad('a'), ad('b', 'Wrapper'))), false);
    expect('error' in two && two.pingUrls).toEqual(['https://t.test/root', 'https://t.test/error/a', 'https://t.test/error/b']);
  });

  it("lets several Ads through where a pod may be (AD_PODS' root), never none", () => {
    expect('xml' in checkDocument(ok(vast(ad('a'), ad('b'))), true)).toBe(true);
    expect('error' in checkDocument(ok(vast()), true)).toBe(true);
  });
});

describe('documentErrorUrls', () => {
  it("reads the root's Error URLs and those of each Ad's InLine or Wrapper, trimmed, not deeper ones", () => {
    const xml = parseXml(`<VAST><Error/><Ad><InLine><Error>https://t.test/a</Error><Creatives><Error>https://t.test/deep</Error>
      </Creatives></InLine></Ad><Extensions><Error>https://t.test/ext</Error></Extensions></VAST>`);
    expect(documentErrorUrls(xml!)).toEqual(['https://t.test/a']);
  });
});

describe('fetchFailure', () => {
  it('is 350 for a root that timed out, 301 for a wrapper target, 900 for any other failure', () => {
    const timeout = new DOMException('slow', 'TimeoutError');
    expect(fetchFailure(timeout, true).code).toBe(AdErrorCode.LOAD_TIMEOUT);
    expect(fetchFailure(timeout, false).code).toBe(AdErrorCode.WRAPPER_TIMEOUT);
    const refused = fetchFailure(new TypeError('Failed to fetch'), false);
    expect([refused.code, refused.message]).toEqual([900, 'Failed load VAST']);
  });
});

describe('libraryErrorCode', () => {
  it("keeps the library's code, 900 when it gives none", () => {
    expect(libraryErrorCode(302, [], null)).toBe(302);
    expect(libraryErrorCode(undefined, [], null)).toBe(900);
  });

  it("is 401 for the library's 303 about an ad left without media (its report names the ad's system)", () => {
    expect(libraryErrorCode(303, [{ ERRORMESSAGE: '' }, { system: { value: 't' } }], null)).toBe(401);
    expect(libraryErrorCode(303, [], null)).toBe(303); // no ad at all
  });

  it("gives a wrapper target's own refusal instead of the library's 301; a timeout stays 301", () => {
    expect(libraryErrorCode(301, [], adError(AdErrorCode.EMPTY_VAST))).toBe(901);
    expect(libraryErrorCode(301, [], adError(AdErrorCode.WRAPPER_TIMEOUT))).toBe(301);
    expect(libraryErrorCode(301, [], null)).toBe(301);
  });
});
