// The library seam (ads/vastLibrary): the client's errors reach our handler, and the library pings nothing itself.
import { createVastClient } from './vastLibrary';

it("hands the library's errors to the handler instead of its own <img> pixels", async () => {
  const errors: [string[], number | undefined][] = [];
  const client = createVastClient((urls, code) => errors.push([urls, code]));
  const images = jest.spyOn(window, 'Image'); // the library's pixels are `new Image()`
  const xml = new DOMParser().parseFromString('<VAST version="4.2"><Error>https://t.test/root</Error></VAST>', 'text/xml');
  const urlHandler = { get: async () => ({ xml, details: { byteLength: 0, statusCode: 200, rawXml: '' } }) };
  const response = await client.get('https://ads.test/empty', { urlHandler });
  expect(response.ads).toEqual([]);
  expect(errors).toEqual([[['https://t.test/root'], 303]]); // no ad: the library's 303
  expect(images).not.toHaveBeenCalled();
  images.mockRestore();
});
