import { vastRequestHeaders } from './list';

describe('vastRequestHeaders', () => {
  const ours = () => ({ 'X-Session-Context': 'fp', 'X-Publisher': 'news' });
  const ask = (url: string) => vastRequestHeaders(url, ['https://partner.test', 'http://127.0.0.1:9000'], 'https://player.test', ours);

  it("gives the ad headers to the page's own origin and the allowed ad servers only", () => {
    expect(ask('https://player.test/vast.xml?creative=1')).toEqual(ours());
    expect(ask('/vast.xml?creative=1')).toEqual(ours()); // relative: this origin
    expect(ask('https://partner.test/tag?x=1')).toEqual(ours());
    expect(ask('http://127.0.0.1:9000/v')).toEqual(ours());
  });

  it('sends a simple GET anywhere else: another host, scheme or port, a look-alike, or what is no URL', () => {
    for (const url of ['https://ads.test/v', 'http://partner.test/v', 'https://partner.test:8443/v',
      'https://partner.test.evil.test/v', 'https://player.test.evil.test/v', 'http://127.0.0.1:9001/v', 'https://[bad']) {
      expect(ask(url)).toEqual({});
    }
  });
});
