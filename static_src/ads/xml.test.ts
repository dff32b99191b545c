import { parseXml } from './xml';

describe('parseXml', () => {
  it('parses a VAST document with its declaration, namespaces, entities and CDATA', () => {
    const xml = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<VAST version="4.0" xmlns:x="urn:x"><Ad id="a">' +
        '<x:Ext>&amp;</x:Ext><![CDATA[<b>]]></Ad></VAST>',
    );
    expect(xml?.documentElement.localName).toBe('VAST');
    expect(xml?.getElementsByTagName('Ad')[0].getAttribute('id')).toBe('a');
  });

  it.each([
    ['an unclosed element', '<VAST><Ad>'],
    ['mismatched tags', '<VAST><Ad></VAST></Ad>'],
    ['text that is not XML', 'Service unavailable'],
    ['an unknown entity', '<VAST>&nbsp;</VAST>'],
    ['two roots', '<VAST/><VAST/>'],
    ['nothing', ''],
  ])('refuses %s', (_, text) => {
    expect(parseXml(text)).toBeNull();
  });

  it('never asks DOMParser about a broken document', () => {
    const parse = jest.spyOn(DOMParser.prototype, 'parseFromString');
    for (const text of ['<VAST><Ad>', 'Service unavailable', '<VAST/><VAST/>', '<VAST/>tail', '']) {
      expect(parseXml(text)).toBeNull();
    }
    expect(parse).not.toHaveBeenCalled();
    expect(parseXml('<!-- served by x --><VAST/>\n')).not.toBeNull();
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });
});
