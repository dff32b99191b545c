// The one place that reaches into @dailymotion/vast-client past its documented API (its version is pinned exactly in
// package.json: check this module first when it changes). The client's parser reports every error it finds through
// VASTParser.trackVastError, which emits its VAST-error event and pings the Error URLs with <img> requests; that
// method is replaced here, so that the errors go to `onError` (ads/vast: the spec's codes, our keepalive pixels) and
// the library pings nothing itself.
import { VASTClient } from '@dailymotion/vast-client';

/** An error the library found: the Error URLs it would ping, its IAB code, and the data it adds (`system`, ...). */
export type LibraryErrorHandler = (urls: string[], code: number | undefined, data: object[]) => void;

/** In-memory capping storage: the library must not touch the page's localStorage (it may throw or be shared). */
function memoryStorage() {
  const values = new Map<string, unknown>();
  return { getItem: (key: string) => values.get(key), setItem: (key: string, value: unknown) => values.set(key, value) };
}

/** A client with no capping, its errors handed to `onError`. */
export function createVastClient(onError: LibraryErrorHandler): VASTClient {
  const client = new VASTClient(0, 0, memoryStorage() as unknown as ConstructorParameters<typeof VASTClient>[2]);
  client.getParser().trackVastError = (urls: string[], error: { ERRORCODE?: number }, ...data: object[]) =>
    onError(urls, error.ERRORCODE, data);
  return client;
}
