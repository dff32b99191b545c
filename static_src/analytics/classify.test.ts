import { bandwidthKBps, deviceType, downlinkMbps, networkType } from './classify';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  firefoxTablet: 'Mozilla/5.0 (Android 13; Tablet; rv:127.0) Gecko/127.0 Firefox/127.0',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  kindle: 'Mozilla/5.0 (Linux; U; Android 4.0.3; en-us; KFTT Build/IML74K) AppleWebKit/535.19 (KHTML, like Gecko) Silk/3.4 Mobile Safari/535.19',
  windowsPhone: 'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 Mobile Safari/537.36 Edge/15.15063',
  tabletPc: 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; Tablet PC 2.0)',
};

describe('deviceType', () => {
  it.each([
    ['windows', 'desktop'],
    ['mac', 'desktop'],
    ['linux', 'desktop'],
    ['tabletPc', 'desktop'],
    ['iphone', 'mobile'],
    ['androidPhone', 'mobile'],
    ['windowsPhone', 'mobile'],
    ['ipad', 'tablet'],
    ['androidTablet', 'tablet'],
    ['firefoxTablet', 'tablet'],
    ['kindle', 'tablet'],
  ] as const)('%s is a %s', (name, expected) => {
    expect(deviceType(UA[name])).toBe(expected);
  });

  it('takes iPadOS, which says Macintosh, for a tablet by its touch screen', () => {
    expect(deviceType(UA.mac, 5)).toBe('tablet');
    expect(deviceType(UA.mac, 0)).toBe('desktop');
    expect(deviceType(UA.windows, 10)).toBe('desktop'); // a touch laptop stays a desktop
  });

  it('calls an empty user agent a desktop', () => {
    expect(deviceType('')).toBe('desktop');
  });
});

describe('networkType (spec §9, KB/s)', () => {
  it.each([
    [1, 'gprs'],
    [49.9, 'gprs'],
    [50, '2g'],
    [299, '2g'],
    [300, '3g'],
    [999.9, '3g'],
    [1000, '4g'],
    [3999, '4g'],
    [4000, 'wifi'],
    [120_000, 'wifi'],
  ] as const)('%s KB/s is %s', (kbps, expected) => {
    expect(networkType(kbps)).toBe(expected);
  });

  it('is unknown without an estimate', () => {
    expect(networkType(null)).toBe('unknown');
    expect(networkType(0)).toBe('unknown');
    expect(networkType(Number.NaN)).toBe('unknown');
  });
});

describe('bandwidthKBps', () => {
  it("prefers hls.js's estimate (bits/s) to the browser's downlink (Mbit/s)", () => {
    expect(bandwidthKBps(2_000_000, 10)).toBe(250); // 2 Mbit/s = 250 KB/s
    expect(bandwidthKBps(null, 10)).toBe(1250);
    expect(bandwidthKBps(undefined, 0.4)).toBe(50);
    expect(bandwidthKBps(0, null)).toBeNull();
    expect(bandwidthKBps(Number.NaN, undefined)).toBeNull();
  });

  it('reads navigator.connection.downlink where there is one', () => {
    expect(downlinkMbps({ connection: { downlink: 3.5 } } as unknown as Navigator)).toBe(3.5);
    expect(downlinkMbps({} as Navigator)).toBeNull();
  });
});
