import { applyStyles } from './styles';

function page(styles: string | null): Document {
  document.head.innerHTML = '';
  document.body.innerHTML = '<main id="player"></main>';
  const player = document.getElementById('player') as HTMLElement;
  if (styles !== null) player.dataset.styles = styles;
  return document;
}

const sheets = (doc: Document) =>
  [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.getAttribute('href'));

describe('applyStyles', () => {
  it('links each stylesheet #player names, once however often it is called', () => {
    const doc = page('/assets/player-AAAA.css /assets/extra-BBBB.css');

    applyStyles(doc);
    applyStyles(doc); // the interface after the ad path: nothing twice

    expect(sheets(doc)).toEqual(['/assets/player-AAAA.css', '/assets/extra-BBBB.css']);
  });

  it('links nothing when the page names none', () => {
    const doc = page(null);
    applyStyles(doc);
    expect(sheets(doc)).toEqual([]);
  });
});
