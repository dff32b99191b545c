// An ad server's document as XML, or null when it is not well-formed. Chromium answers malformed XML from DOMParser
// with an error block styled inline, which the embed page's Content-Security-Policy refuses: a console violation
// for every broken document. A fragment parse in an inert XML document (no window, nothing rendered or run) throws
// instead, and a fragment of one element is a document, so a document that fails it never reaches DOMParser.

/** The XML declaration, which may open a document but not a fragment. */
const DECLARATION = /^\uFEFF?\s*<\?xml[^>]*\?>/;

/** Whether the text parses as a fragment holding exactly one element and, besides it, only blanks and comments. */
function isOneWellFormedElement(text: string): boolean {
  const inert = document.implementation.createDocument(null, 'well-formed', null);
  const range = inert.createRange();
  range.selectNodeContents(inert.documentElement);
  let fragment: DocumentFragment;
  try {
    fragment = range.createContextualFragment(text.replace(DECLARATION, ''));
  } catch {
    return false;
  }
  const nodes = [...fragment.childNodes];
  const stray = nodes.some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim() !== '');
  return !stray && nodes.filter((node) => node.nodeType === Node.ELEMENT_NODE).length === 1;
}

export function parseXml(text: string): Document | null {
  // A DOCTYPE may only open a document; such a rare one goes straight to DOMParser.
  if (!/<!DOCTYPE/i.test(text) && !isOneWellFormedElement(text)) return null;
  const xml = new DOMParser().parseFromString(text, 'text/xml');
  if (xml.getElementsByTagName('parsererror').length > 0 || !xml.documentElement) return null;
  return xml;
}
