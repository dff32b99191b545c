// IAB's VAST macros (VAST 4.x, "Macros" section of the IAB Tech Lab specification): every one of them in a pixel is
// replaced. What the player knows comes from the caller (pixels.fillMacros); the rest get IAB's answers for what a
// player cannot say: -1, the value is unknown to the player; -2, it does not apply here or is withheld (privacy:
// device ids, location, the page's address). Bracketed names outside IAB's list are left to whoever put them there.

export const UNKNOWN = '-1';
export const NOT_APPLICABLE = '-2';

/** Each IAB macro with the player's standing answer when the caller has no value for it. */
export const IAB_MACROS: Readonly<Record<string, string>> = {
  // generic and error
  TIMESTAMP: UNKNOWN, CACHEBUSTING: UNKNOWN, ERRORCODE: '900', // both made by fillMacros; 900 is spec §7's
  // the break (one linear ad at a time, no pods: ads/scheduler)
  BREAKPOSITION: UNKNOWN, BREAKMAXADLENGTH: UNKNOWN, BREAKMAXADS: '1', BREAKMAXDURATION: UNKNOWN,
  BREAKMINADLENGTH: UNKNOWN, BREAKMINDURATION: UNKNOWN, PLACEMENTTYPE: '1', // 1: linear
  ADCOUNT: '1', PODSEQUENCE: NOT_APPLICABLE, TRANSACTIONID: UNKNOWN, ADSERVINGID: UNKNOWN, UNIVERSALADID: UNKNOWN,
  ADCATEGORIES: UNKNOWN, BLOCKEDADCATEGORIES: UNKNOWN, ADTYPE: 'video',
  // the client: a web page, client-side, with no device ids or location to give
  CLIENTUA: UNKNOWN, DEVICEUA: UNKNOWN, SERVERUA: NOT_APPLICABLE, SERVERSIDE: '0', DEVICEIP: NOT_APPLICABLE,
  IFA: NOT_APPLICABLE, IFATYPE: NOT_APPLICABLE, LATLONG: NOT_APPLICABLE, APPBUNDLE: NOT_APPLICABLE,
  STOREID: NOT_APPLICABLE, STOREURL: NOT_APPLICABLE, DOMAIN: UNKNOWN, PAGEURL: NOT_APPLICABLE,
  LIMITADTRACKING: NOT_APPLICABLE,
  // regulation: no consent platform speaks to the player
  REGULATIONS: UNKNOWN, GDPRCONSENT: UNKNOWN, USPRIVACY: UNKNOWN, GPPSTRING: UNKNOWN, GPPSECTIONID: UNKNOWN,
  // the player and its state
  ADPLAYHEAD: UNKNOWN, MEDIAPLAYHEAD: UNKNOWN, CONTENTPLAYHEAD: UNKNOWN, ASSETURI: UNKNOWN, CONTENTID: UNKNOWN,
  CONTENTURI: UNKNOWN, INVENTORYSTATE: UNKNOWN, PLAYERSIZE: UNKNOWN, PLAYERSTATE: UNKNOWN,
  PLAYERCAPABILITIES: UNKNOWN, PLAYBACKMETHODS: UNKNOWN, MEDIAMIME: 'video/mp4,video/webm',
  APIFRAMEWORKS: NOT_APPLICABLE, EXTENSIONS: UNKNOWN, CLICKPOS: UNKNOWN, CLICKTYPE: UNKNOWN,
  // verification: no Open Measurement SDK here
  VERIFICATIONVENDORS: NOT_APPLICABLE, OMIDPARTNER: NOT_APPLICABLE, REASON: UNKNOWN,
};

/** The player's own answers for the page it runs in: its user agent, and the player's name (IAB's CLIENTUA). */
export function pageMacros(nav: Pick<Navigator, 'userAgent'> | undefined = globalThis.navigator): Record<string, string> {
  return { DEVICEUA: nav?.userAgent || UNKNOWN, CLIENTUA: 'playerhost/1.0' };
}
