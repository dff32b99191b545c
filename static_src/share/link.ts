// Shared links (spec §2 "Shared links") and the sharing pages of the social services (spec §7).
import type { ShareServiceId } from '../core/events';
import { parentOrigin } from '../embed/bridge';

/** Thrown when no share link can be built; the UI only logs it (spec §8: share errors are only logged). */
export class ShareLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareLinkError';
  }
}

const HTTP_URL = /^https?:\/\//i;
const POSITION_SEGMENT = /^(?:season|episode)-\d+$/i;

function isOrder(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/** The name of one raw `name=value` query part, decoded as a form field name; the raw text when it is malformed. */
function queryName(part: string): string {
  const raw = part.split('=', 1)[0];
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Spec §2: the page path without season-N / episode-N segments, then season-{season}/episode-{episode} (a film:
 * none); the query kept byte for byte and in order except `t`, which is set to whole seconds only when `seconds`
 * is given (the 'share with timecode' checkbox); no hash, no user:password.
 */
export function buildShareLink(
  pageUrl: string,
  position: { season: number; episode: number } | null,
  seconds: number | null,
): string {
  if (!HTTP_URL.test(pageUrl)) throw new ShareLinkError(`not an absolute http(s) address: ${pageUrl}`);
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    throw new ShareLinkError(`malformed address: ${pageUrl}`);
  }
  if (position && !(isOrder(position.season) && isOrder(position.episode))) {
    throw new ShareLinkError(`bad season/episode order: ${position.season}/${position.episode}`);
  }

  // pathname always starts with '/', so segments[0] is '' and joining keeps the leading slash.
  const segments = url.pathname.split('/').filter((segment) => !POSITION_SEGMENT.test(segment));
  if (position) {
    while (segments.length > 1 && segments[segments.length - 1] === '') segments.pop(); // '/show/' → '/show'
    segments.push(`season-${position.season}`, `episode-${position.episode}`);
  }
  url.pathname = segments.join('/');

  // Raw parts, not URLSearchParams: re-serialising would rewrite the other parameters ('%20' → '+', 'a' → 'a=').
  const query = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && queryName(part) !== 't');
  if (seconds !== null && Number.isFinite(seconds) && seconds >= 0) query.push(`t=${Math.floor(seconds)}`);
  url.search = query.join('&');

  url.hash = '';
  url.username = '';
  url.password = '';
  return url.href;
}

function httpOrNull(address: string | undefined | null): string | null {
  return address && HTTP_URL.test(address) ? address : null;
}

/** What the embed says of the page it is on: /lib.js's `page_url` and the server's parent origin (the context's). */
export interface PageClaim {
  pageUrl: string | null;
  serverOrigin: string | null;
}

function originOf(address: string): string | null {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}

/**
 * Spec §2: the address of the page the viewer sees. Not framed: our own address. Framed: the top page's address
 * when it is same-origin; else the address the embed gave (`page_url`, from /lib.js) when its origin is the
 * embedding page's as the browser names it (embed/bridge parentOrigin), so that no page can make share links point
 * to another site; else document.referrer (often only an origin, under the default referrer policy).
 * Only http(s) addresses are returned; null when there is none.
 */
export function topPageUrl(win: Window, claim: PageClaim = { pageUrl: null, serverOrigin: null }): string | null {
  let framed: boolean;
  try {
    framed = win.top !== win.self;
  } catch {
    framed = true;
  }
  if (!framed) return httpOrNull(win.location.href);
  try {
    const top = httpOrNull(win.top?.location.href); // throws (SecurityError) when the top page is cross-origin
    if (top) return top;
  } catch {
    // cross-origin top page: what the embed says, then the referrer
  }
  const claimed = httpOrNull(claim.pageUrl);
  const parent = parentOrigin(claim.serverOrigin, win);
  if (claimed && parent && originOf(claimed) === parent) return claimed;
  return httpOrNull(win.document.referrer);
}

export type { ShareServiceId };

export interface ShareTarget {
  id: ShareServiceId;
  name: string;
  href: string;
}

const enc = encodeURIComponent;

/** One social service of the share popup: its id, its name, and how its sharing page is addressed. */
export interface ShareService {
  id: ShareServiceId;
  name: string;
  href(url: string, title: string): string; // title already trimmed; '' when there is none
}

/** Spec §7: the five social services, in the order the share popup shows them. */
export const SHARE_SERVICES: readonly ShareService[] = [
  {
    id: 'telegram',
    name: 'Telegram',
    href: (url, title) => `https://t.me/share/url?url=${enc(url)}${title ? `&text=${enc(title)}` : ''}`,
  },
  {
    id: 'whatsapp',
    name: 'WhatsApp',
    href: (url, title) => `https://wa.me/?text=${enc(title ? `${title} ${url}` : url)}`, // title + space + url
  },
  { id: 'facebook', name: 'Facebook', href: (url) => `https://www.facebook.com/sharer/sharer.php?u=${enc(url)}` },
  {
    id: 'x',
    name: 'X',
    // x.com/intent/tweet is the Post Web Intent address X documents today (docs.x.com, "Web intent"), with the
    // url and text parameters; twitter.com/intent/tweet is the legacy host, x.com/intent/post is not documented.
    href: (url, title) => `https://x.com/intent/tweet?url=${enc(url)}${title ? `&text=${enc(title)}` : ''}`,
  },
  {
    id: 'vk',
    name: 'VK',
    href: (url, title) => `https://vk.com/share.php?url=${enc(url)}${title ? `&title=${enc(title)}` : ''}`,
  },
];

/** Spec §7: the sharing page of each service for `url`; an empty (or blank) title is left out. */
export function shareTargets(url: string, title: string): ShareTarget[] {
  const text = title.trim();
  return SHARE_SERVICES.map(({ id, name, href }) => ({ id, name, href: href(url, text) }));
}
