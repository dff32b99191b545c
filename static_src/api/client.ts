// Calls to the catalogue API (spec §7). Every request carries X-Session-Context, the device identity the service issued
// (api/fingerprint): on a first visit the first call waits for it; without one (the service could not be asked) the
// call is not made, and progress stays in this browser's storage. Failures are logged and never reach playback.
import { pageFingerprint, type FingerprintSource } from './fingerprint';

export interface ApiClient {
  send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<boolean>;
}

export function createApiClient(baseUrl: string, device: FingerprintSource = pageFingerprint()): ApiClient {
  return {
    async send(method, path, body) {
      // Known: sent in this task (a save on pagehide must not wait a turn); a first visit's first call waits.
      const session = device.issued() ?? (await device.identity(baseUrl));
      if (!session) return false; // logged where the identity was asked for
      const headers: Record<string, string> = { 'X-Session-Context': session };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      try {
        const response = await fetch(baseUrl.replace(/\/$/, '') + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          keepalive: true, // a save on pagehide still arrives
          credentials: 'omit',
        });
        if (!response.ok) console.warn(`player: ${method} ${path} answered ${response.status}`);
        return response.ok;
      } catch (error) {
        console.warn(`player: ${method} ${path} failed`, error);
        return false;
      }
    },
  };
}

/** The progress calls (spec §7 "Catalogue: history and progress"). */
export function progressApi(client: ApiClient, contentId: number) {
  const episodePath = (episodeId: number) => `/contents/${contentId}/episodes/${episodeId}`;
  return {
    time: (episodeId: number, seconds: number) =>
      client.send('POST', `${episodePath(episodeId)}/time-progress`, { time: Math.floor(seconds) }),
    completed: (episodeId: number) => client.send('POST', `${episodePath(episodeId)}/completed`),
  };
}
export type ProgressApi = ReturnType<typeof progressApi>;
