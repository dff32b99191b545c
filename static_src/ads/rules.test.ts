import {
  AdError,
  AdErrorCode,
  adError,
  chooseMediaFile,
  codeOf,
  isHttpUrl,
  parseableCodecs,
  midrollDue,
  percentPlayed,
  shouldPlay,
  skipState,
  usableMediaFiles,
} from './rules';

const mp4 = { fileURL: 'https://cdn.example/a.mp4', mimeType: 'video/mp4', width: 640, height: 360 };
const webm = { fileURL: 'https://cdn.example/a.webm', mimeType: 'video/webm', width: 640, height: 360 };
const flv = { fileURL: 'https://cdn.example/a.flv', mimeType: 'video/x-flv', width: 640, height: 360 };
const playsMp4 = (type: string) => type === 'video/mp4';

describe('ad errors', () => {
  it("carry the spec's codes and messages", () => {
    expect(adError(AdErrorCode.XML_PARSE).message).toBe('Failed parsing xml');
    expect(adError(AdErrorCode.NO_MEDIA_FILE).message).toBe('Not found mediaFiles in VAST');
    expect(adError(AdErrorCode.NO_SUPPORTED_MEDIA).message).toBe('Not found supported mediaFile');
    expect(adError(AdErrorCode.MEDIA_FAILED, { src: 'https://x/a.mp4' }).message).toBe('Media file error: https://x/a.mp4');
    expect(adError(AdErrorCode.CANT_PLAY, { reason: 'decode' }).message).toBe('Video cant play: decode');
    expect(adError(AdErrorCode.UNDEFINED, { failedLoad: true }).message).toBe('Failed load VAST');
    expect(adError(AdErrorCode.UNDEFINED).message).toBe('Unknown error');
    expect(adError(AdErrorCode.EMPTY_VAST).message).toBe('Empty vast');
  });

  it('give 900 for anything that is not an AdError', () => {
    expect(codeOf(adError(AdErrorCode.LOAD_TIMEOUT))).toBe(350);
    expect(codeOf(new Error('boom'))).toBe(900);
    expect(codeOf('string')).toBe(900);
  });
});

describe('media file choice (spec §5)', () => {
  it('counts a file only with width, height, an http(s) url and a type', () => {
    const files = [
      { ...mp4, width: 0 },
      { ...mp4, height: 0 },
      { ...mp4, fileURL: '' },
      { ...mp4, fileURL: '  ' },
      { ...mp4, mimeType: '' },
      { ...mp4, mimeType: null },
      { ...mp4, fileURL: 'javascript:alert(1)' },
      { ...mp4, fileURL: 'data:video/mp4;base64,AAAA' },
      mp4,
    ];
    expect(usableMediaFiles(files)).toEqual([mp4]);
  });

  it('counts a VPAID file, which cannot play: 403, not 401', () => {
    const vpaid = { ...mp4, mimeType: 'application/javascript', apiFramework: 'VPAID', fileURL: 'https://ads.test/v.js' };
    expect(usableMediaFiles([vpaid])).toEqual([vpaid]);
    expect((chooseMediaFile([vpaid], () => true) as AdError).code).toBe(403);
    expect((chooseMediaFile([{ ...mp4, apiFramework: 'VPAID' }], () => true) as AdError).code).toBe(403);
    expect(chooseMediaFile([vpaid, mp4], playsMp4)).toBe(mp4);
  });

  it('takes the first file the browser can play, in document order', () => {
    expect(chooseMediaFile([flv, webm, mp4], (t) => t !== 'video/x-flv')).toBe(webm);
    expect(chooseMediaFile([flv, mp4, webm], playsMp4)).toBe(mp4);
  });

  it('is 401 with no usable file and 403 with none the browser can play', () => {
    const none = chooseMediaFile([{ ...mp4, width: 0 }], playsMp4);
    expect(none).toBeInstanceOf(AdError);
    expect((none as AdError).code).toBe(401);
    const unsupported = chooseMediaFile([flv], playsMp4);
    expect((unsupported as AdError).code).toBe(403);
    expect((unsupported as AdError).message).toBe('Not found supported mediaFile');
  });

  it('asks with the codec when the file names one', () => {
    const asked: [string, string | null][] = [];
    chooseMediaFile([{ ...mp4, codec: 'avc1.42c01e' }], (type, codec) => {
      asked.push([type, codec]);
      return true;
    });
    expect(asked).toEqual([['video/mp4', 'avc1.42c01e']]);
  });

  it('reads a codec string the browser cannot parse as absent: the type alone decides', () => {
    const chromium = (type: string, codec: string | null) => type === 'video/mp4'
      && (codec === null || codec.split(', ').every((c) => /^(avc1|mp4a)\./.test(c))); // canPlayType's answers
    expect(chooseMediaFile([{ ...mp4, codec: '0' }], chromium)).toEqual({ ...mp4, codec: '0' }); // IAB's samples
    expect(chooseMediaFile([{ ...mp4, codec: 'H.264' }], chromium)).toEqual({ ...mp4, codec: 'H.264' });
    expect(parseableCodecs('FLAC')).toBeNull(); // Chromium: '' for "FLAC", 'probably' for "flac"
    expect(parseableCodecs('flac')).toBe('flac');
    expect(chooseMediaFile([{ ...mp4, codec: 'avc1.42E01E, mp4a.40.2' }], chromium)).toEqual(
      { ...mp4, codec: 'avc1.42E01E, mp4a.40.2' });
    // a codec the browser knows and refuses still refuses the file
    expect((chooseMediaFile([{ ...mp4, codec: 'hev1.1.6.L93.B0' }], chromium) as AdError).code).toBe(403);
    expect(parseableCodecs(' avc1.4d401f ,mp4a.40.2 ')).toBe('avc1.4d401f, mp4a.40.2');
    expect(parseableCodecs('vp9')).toBe('vp9');
    expect(parseableCodecs('avc1.42E01E, 0')).toBeNull();
    expect(parseableCodecs('')).toBeNull();
  });
});

describe('skip button (spec §9)', () => {
  it('counts down in whole seconds, then enables the button at the offset', () => {
    expect(skipState(null, 3)).toEqual({ visible: false, enabled: false, left: 0 });
    expect(skipState(5, 0)).toEqual({ visible: true, enabled: false, left: 5 });
    expect(skipState(5, 0.2)).toEqual({ visible: true, enabled: false, left: 5 });
    expect(skipState(5, 4.01)).toEqual({ visible: true, enabled: false, left: 1 });
    expect(skipState(5, 5)).toEqual({ visible: true, enabled: true, left: 0 });
    expect(skipState(5, 12)).toEqual({ visible: true, enabled: true, left: 0 });
  });
});

describe('urls from ad documents', () => {
  it.each([
    ['https://ads.example/click', true],
    ['http://ads.example/click?a=1', true],
    ['  https://ads.example/  ', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['data:text/html,<b>x</b>', false],
    ['vbscript:msgbox', false],
    ['//ads.example/click', false],
    ['/relative', false],
    ['', false],
  ])('%p is http(s): %p', (url, ok) => {
    expect(isHttpUrl(url)).toBe(ok);
  });
});

describe('mid-roll (spec §4, §9)', () => {
  it('is due once, past half of content longer than 1800 s', () => {
    expect(midrollDue(1860, 929.9, false)).toBe(false);
    expect(midrollDue(1860, 930, false)).toBe(true);
    expect(midrollDue(1860, 1500, true)).toBe(false);
    expect(midrollDue(1800, 1000, false)).toBe(false);
    expect(midrollDue(Number.NaN, 1000, false)).toBe(false);
    expect(midrollDue(Number.POSITIVE_INFINITY, 1e9, false)).toBe(false);
  });
});

describe('when the ad plays (spec §4)', () => {
  it('follows visibility unless the viewer chose', () => {
    expect(shouldPlay({ hidden: false, visibleRatio: 0.51, userChoice: null })).toBe(true);
    expect(shouldPlay({ hidden: false, visibleRatio: 0.5, userChoice: null })).toBe(false);
    expect(shouldPlay({ hidden: true, visibleRatio: 1, userChoice: null })).toBe(false);
    expect(shouldPlay({ hidden: true, visibleRatio: 0, userChoice: 'play' })).toBe(true);
    expect(shouldPlay({ hidden: false, visibleRatio: 1, userChoice: 'pause' })).toBe(false);
  });

  it('records the percent of content played, rounded', () => {
    expect(percentPlayed(930, 1860)).toBe(50);
    expect(percentPlayed(0, 1860)).toBe(0);
    expect(percentPlayed(10, Number.NaN)).toBe(0);
  });
});
