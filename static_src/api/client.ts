// Calls to the catalogue API (spec §7). Every request carries X-Session-Context, the device fingerprint; a request
// that cannot be attributed to a viewer is not sent. Failures are logged and never reach playback.

const FINGERPRINT_COOKIE = 'device_fp';

/** The device_fp cookie's value, or null when absent or when cookies are blocked (reading them may throw). */
export function sessionContext(doc: Document = document): string | null {
  try {
    for (const part of doc.cookie.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === FINGERPRINT_COOKIE && value.length > 0) return decodeURIComponent(value.join('='));
    }
  } catch (error) {
    console.warn('player: cookies are not readable', error);
  }
  return null;
}

export interface ApiClient {
  send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<boolean>;
}

export function createApiClient(baseUrl: string, doc: Document = document): ApiClient {
  return {
    async send(method, path, body) {
      const session = sessionContext(doc);
      if (!session) return false;
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
