// The stylesheet of the interface and the ad layer (the entry's CSS imports, built into one file). The shell paints
// with its inline styles alone; this one is applied once something needs it: at the first paint when the viewer is to
// press play, else after the first frame (the interface) or when the ad path starts (the ad layer). Its request and the
// style recalculation it causes then never sit between the page and the film's first frame.

/** Links the page's player stylesheets (#player[data-styles]), once. */
export function applyStyles(doc: Document = document): void {
  const hrefs = doc.getElementById('player')?.dataset.styles?.split(' ').filter(Boolean) ?? [];
  for (const href of hrefs) {
    const absolute = new URL(href, doc.baseURI).href;
    const linked = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].some((l) => l.href === absolute);
    if (linked) continue;
    const sheet = doc.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = href;
    doc.head.append(sheet);
  }
}
