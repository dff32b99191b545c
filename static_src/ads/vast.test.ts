import { AdError } from './rules';
import { vastRequestHeaders } from './list';
import { loadVastAds, type LoadOptions } from './vast';

const inline = (id: string, media = '<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">' +
  '<![CDATA[https://cdn.test/a.mp4]]></MediaFile>', skip = '') => `<VAST version="4.2"><Error>https://t.test/vast-error/${id}?c=[ERRORCODE]</Error>
  <Ad id="${id}"><InLine><AdSystem>t</AdSystem><Error>https://t.test/error/${id}?c=[ERRORCODE]</Error>
  <Impression>https://t.test/imp/${id}</Impression><AdTitle>x</AdTitle><Creatives><Creative><Linear${skip}>
  <Duration>00:00:15</Duration><TrackingEvents><Tracking event="start">https://t.test/start/${id}</Tracking></TrackingEvents>
  <MediaFiles>${media}</MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`;
const wrapper = (id: string, target: string) => `<VAST version="4.2"><Ad id="${id}"><Wrapper><AdSystem>t</AdSystem>
  <Error>https://t.test/error/${id}?c=[ERRORCODE]</Error><Impression>https://t.test/imp/${id}</Impression>
  <Creatives><Creative><Linear><TrackingEvents><Tracking event="start">https://t.test/start/${id}</Tracking>
  </TrackingEvents></Linear></Creative></Creatives><VASTAdTagURI>${target}</VASTAdTagURI></Wrapper></Ad></VAST>`;

type Route = string | number | 'hang';

function setup(routes: Record<string, Route>, extra: Partial<LoadOptions> = {}) {
  const requests: { url: string; headers: HeadersInit | undefined }[] = [];
  const pings: [string[], number][] = [];
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, headers: init?.headers });
    const route = routes[url] ?? 404;
    if (route === 'hang') {
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    if (typeof route === 'number') return Promise.resolve({ ok: false, status: route, text: async () => '' } as Response);
    return Promise.resolve({ ok: true, status: 200, text: async () => route } as Response);
  }) as typeof fetch;
  const options: LoadOptions = {
    timeoutMs: 100,
    maxWrappers: 5,
    canPlay: (type) => type === 'video/mp4',
    fetcher,
    ping: (urls, code) => pings.push([urls, code]),
    ...extra,
  };
  return { options, requests, pings };
}

async function failure(promise: Promise<unknown>): Promise<AdError> {
  try {
    await promise;
  } catch (error) {
    return error as AdError;
  }
  throw new Error('expected a failure');
}

describe('loadVastAds', () => {
  it('resolves an inline ad with its media file, skip offset and the request headers', async () => {
    const { options, requests, pings } = setup({ 'https://ads.test/a': inline('a', undefined, ' skipoffset="00:00:05"') },
      { headers: { 'X-Session-Context': 'fp' } });
    const [ad] = await loadVastAds('https://ads.test/a', options);
    expect(ad.mediaFile.fileURL).toBe('https://cdn.test/a.mp4');
    expect(ad.linear.skipDelay).toBe(5);
    expect(ad.errorUrls).toEqual(expect.arrayContaining(['https://t.test/error/a?c=[ERRORCODE]',
      'https://t.test/vast-error/a?c=[ERRORCODE]']));
    expect(requests).toEqual([{ url: 'https://ads.test/a', headers: { 'X-Session-Context': 'fp' } }]);
    expect(pings).toEqual([]);
  });

  it('follows wrappers, merging their tracking into the inline', async () => {
    const { options } = setup({
      'https://ads.test/w1': wrapper('w1', 'https://ads.test/w2'),
      'https://ads.test/w2': wrapper('w2', 'https://ads.test/a'),
      'https://ads.test/a': inline('a'),
    });
    const [ad] = await loadVastAds('https://ads.test/w1', options);
    expect([...ad.linear.trackingEvents.start].sort()).toEqual(
      ['https://t.test/start/a', 'https://t.test/start/w1', 'https://t.test/start/w2']);
    expect(ad.ad.impressionURLTemplates.map((t) => t.url).sort()).toEqual(
      ['https://t.test/imp/a', 'https://t.test/imp/w1', 'https://t.test/imp/w2']);
  });

  it('gives up past five wrappers with 302, pinging every document of the chain', async () => {
    const routes: Record<string, Route> = {};
    for (let i = 1; i <= 6; i += 1) routes[`https://ads.test/w${i}`] = wrapper(`w${i}`, `https://ads.test/w${i + 1}`);
    routes['https://ads.test/w7'] = inline('a');
    const { options, pings, requests } = setup(routes);
    expect((await failure(loadVastAds('https://ads.test/w1', options))).code).toBe(302);
    expect(requests).toHaveLength(6);
    expect(pings.map(([, code]) => code)).toEqual([302]);
    expect(pings[0][0].sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => `https://t.test/error/w${i}?c=[ERRORCODE]`).sort());
  });

  it('accepts exactly five wrappers', async () => {
    const routes: Record<string, Route> = {};
    for (let i = 1; i <= 5; i += 1) routes[`https://ads.test/w${i}`] = wrapper(`w${i}`, `https://ads.test/w${i + 1}`);
    routes['https://ads.test/w6'] = inline('a');
    const { options } = setup(routes);
    expect((await loadVastAds('https://ads.test/w1', options))[0].mediaFile.fileURL).toBe('https://cdn.test/a.mp4');
  });

  it.each([
    ['not XML', 100, 'Failed parsing xml', '<VAST><Ad>'],
    ['no Ad', 901, 'Empty vast', '<VAST version="4.2"><Error>https://t.test/root?c=[ERRORCODE]</Error></VAST>'],
    ['two Ads', 901, 'Empty vast', '<VAST version="4.2"><Error>https://t.test/root?c=[ERRORCODE]</Error><Ad/><Ad/></VAST>'],
    ['a 404', 900, 'Failed load VAST', 404],
    ['a 500', 900, 'Failed load VAST', 500],
  ])('%s is %i', async (_name, code, message, route) => {
    const { options, pings } = setup({ 'https://ads.test/x': route as Route });
    const error = await failure(loadVastAds('https://ads.test/x', options));
    expect(error).toBeInstanceOf(AdError);
    expect([error.code, error.message]).toEqual([code, message]);
    if (code === 901) expect(pings).toEqual([[['https://t.test/root?c=[ERRORCODE]'], 901]]);
  });

  it('asks each document of a chain with its own headers: only the ad servers allowed to take them get them', async () => {
    const routes = { 'https://ours.test/w': wrapper('w', 'https://ads.test/a'), 'https://ads.test/a': inline('a') };
    const { options, requests } = setup(routes, {
      headersFor: (url) => vastRequestHeaders(url, ['https://partner.test'], 'https://ours.test', () => ({ 'X-Session-Context': 'fp' })),
    });
    await loadVastAds('https://ours.test/w', options);
    expect(requests).toEqual([
      { url: 'https://ours.test/w', headers: { 'X-Session-Context': 'fp' } }, // the page's own origin
      { url: 'https://ads.test/a', headers: {} }, // a third-party ad server: a simple GET, no preflight
    ]);
  });

  describe('with AD_PODS (beyond spec §5)', () => {
    const media = (file: string) => `<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">` +
      `<![CDATA[https://cdn.test/${file}]]></MediaFile>`;
    const ad = (id: string, file: string | null, sequence = '') => `<Ad id="${id}"${sequence && ` sequence="${sequence}"`}>
      <InLine><AdSystem>t</AdSystem><AdTitle>${id}</AdTitle><Error>https://t.test/error/${id}?c=[ERRORCODE]</Error>
      <Impression>https://t.test/imp/${id}</Impression><Creatives><Creative><Linear><Duration>00:00:10</Duration>
      <MediaFiles>${file ? media(file) : media('x.flv').replace('video/mp4', 'video/x-flv')}</MediaFiles>
      </Linear></Creative></Creatives></InLine></Ad>`;
    const load = async (body: string) => {
      const { options, pings } = setup({ 'https://ads.test/p': `<VAST version="4.2">${body}</VAST>` },
        { pods: true, canPlay: (type) => type === 'video/mp4' });
      const ads = await loadVastAds('https://ads.test/p', options).catch((error: AdError) => error);
      return { ads, pings };
    };

    it('plays a pod in sequence order, a stand-alone ad standing in for a pod ad that cannot play', async () => {
      const { ads, pings } = await load(ad('two', 'b.mp4', '2') + ad('spare', 's.mp4') + ad('one', 'a.mp4', '1')
        + ad('three', null, '3'));
      expect((ads as { ad: { id: string } }[]).map((loaded) => loaded.ad.id)).toEqual(['one', 'two', 'spare']);
      expect(pings).toEqual([[['https://t.test/error/three?c=[ERRORCODE]'], 403]]); // the ad replaced hears why
    });

    it('without a pod, plays the first stand-alone ad that can play (a waterfall), the ones before hearing why', async () => {
      const { ads, pings } = await load(ad('w1', null) + ad('w2', 'b.mp4') + ad('w3', 'c.mp4'));
      expect((ads as { ad: { id: string } }[]).map((loaded) => loaded.ad.id)).toEqual(['w2']);
      expect(pings).toEqual([[['https://t.test/error/w1?c=[ERRORCODE]'], 403]]);
      const none = await load(ad('n1', null) + ad('n2', null));
      expect((none.ads as AdError).code).toBe(403);
    });
  });

  it('reports a VPAID-only ad as 403 (its file counts and cannot play), not 401', async () => {
    const vpaid = '<MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" ' +
      'height="360"><![CDATA[https://ads.test/vpaid.js]]></MediaFile>';
    const { options, pings } = setup({ 'https://ads.test/v': inline('v', vpaid) });
    const error = await failure(loadVastAds('https://ads.test/v', options));
    expect([error.code, error.message]).toEqual([403, 'Not found supported mediaFile']);
    expect(pings).toEqual([[['https://t.test/error/v?c=[ERRORCODE]', 'https://t.test/vast-error/v?c=[ERRORCODE]'], 403]]);
  });

  it('refuses a multi-ad response with 901 and tells each of its ads (a pod, a waterfall behind a wrapper)', async () => {
    const ad = (id: string, body: 'InLine' | 'Wrapper', sequence = '') => `<Ad id="${id}"${sequence}><${body}>
      <AdSystem>t</AdSystem><Error><![CDATA[https://t.test/error/${id}?c=[ERRORCODE]]]></Error>
      <Impression>https://t.test/imp/${id}</Impression></${body}></Ad>`;
    const pod = `<VAST version="4.2">${ad('p1', 'InLine', ' sequence="1"')}${ad('p2', 'InLine', ' sequence="2"')}</VAST>`;
    const buffet = `<VAST version="4.2"><Error>https://t.test/root?c=[ERRORCODE]</Error>${ad('b1', 'Wrapper')}
      ${ad('b2', 'InLine')}</VAST>`;
    const direct = setup({ 'https://ads.test/pod': pod });
    expect((await failure(loadVastAds('https://ads.test/pod', direct.options))).code).toBe(901);
    expect(direct.pings).toEqual([[['https://t.test/error/p1?c=[ERRORCODE]', 'https://t.test/error/p2?c=[ERRORCODE]'], 901]]);

    const wrapped = setup({ 'https://ads.test/w': wrapper('w', 'https://ads.test/buffet'), 'https://ads.test/buffet': buffet });
    expect((await failure(loadVastAds('https://ads.test/w', wrapped.options))).code).toBe(901);
    const pinged = wrapped.pings.flatMap(([urls, code]) => urls.map((url) => `${code} ${url}`));
    expect(pinged.sort()).toEqual([ // the target's root and both its ads, and the wrapper that led there, once each
      '901 https://t.test/error/b1?c=[ERRORCODE]', '901 https://t.test/error/b2?c=[ERRORCODE]',
      '901 https://t.test/error/w?c=[ERRORCODE]', '901 https://t.test/root?c=[ERRORCODE]',
    ]);
  });

  it('times a hung document out with 350, a hung wrapper target with 301 (pinging the wrapper)', async () => {
    const root = setup({ 'https://ads.test/x': 'hang' });
    const started = Date.now();
    expect((await failure(loadVastAds('https://ads.test/x', root.options))).code).toBe(350);
    expect(Date.now() - started).toBeLessThan(1000);

    const chained = setup({ 'https://ads.test/w': wrapper('w', 'https://ads.test/x'), 'https://ads.test/x': 'hang' });
    expect((await failure(loadVastAds('https://ads.test/w', chained.options))).code).toBe(301);
    expect(chained.pings).toEqual([[['https://t.test/error/w?c=[ERRORCODE]'], 301]]);
  });

  it('a wrapper target that answers wrongly reports its own code to the wrapper, a hung one 301', async () => {
    for (const [target, code] of [['<VAST><Ad>', 100], ['<VAST version="4.2"></VAST>', 901], [404, 900]] as const) {
      const { options, pings } = setup({ 'https://ads.test/w': wrapper('w', 'https://ads.test/x'), 'https://ads.test/x': target });
      expect((await failure(loadVastAds('https://ads.test/w', options))).code).toBe(code);
      expect(pings.at(-1)).toEqual([['https://t.test/error/w?c=[ERRORCODE]'], code]);
    }
  });

  it('is 401 without a usable media file and 403 without a playable one, pinging the whole chain', async () => {
    const noSize = '<MediaFile delivery="progressive" type="video/mp4"><![CDATA[https://cdn.test/a.mp4]]></MediaFile>';
    const flv = '<MediaFile delivery="progressive" type="video/x-flv" width="1" height="1">https://cdn.test/a.flv</MediaFile>';
    for (const [media, code] of [[noSize, 401], [flv, 403]] as const) {
      const { options, pings } = setup({ 'https://ads.test/w': wrapper('w', 'https://ads.test/a'),
        'https://ads.test/a': inline('a', media) });
      expect((await failure(loadVastAds('https://ads.test/w', options))).code).toBe(code);
      expect(pings).toHaveLength(1);
      expect(pings[0][1]).toBe(code);
      expect(pings[0][0]).toEqual(expect.arrayContaining(['https://t.test/error/w?c=[ERRORCODE]',
        'https://t.test/error/a?c=[ERRORCODE]', 'https://t.test/vast-error/a?c=[ERRORCODE]']));
    }
  });

  it('stops on abort without a ping and rethrows the abort', async () => {
    const controller = new AbortController();
    const { options, pings } = setup({ 'https://ads.test/x': 'hang' }, { signal: controller.signal, timeoutMs: 5000 });
    const pending = failure(loadVastAds('https://ads.test/x', options));
    controller.abort(new DOMException('new episode', 'AbortError'));
    const error = await pending;
    expect((error as unknown as DOMException).name).toBe('AbortError');
    expect(pings).toEqual([]);
  });
});
