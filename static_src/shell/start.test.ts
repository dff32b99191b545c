import { serveShellStart } from './start';

function shell() {
  document.body.innerHTML = '<main id="player"><div id="player-ui"><button data-player-start><span></span></button></div></main>';
  return document.querySelector<HTMLElement>('[data-player-start]')!;
}

/** React's commit: the shell's button replaced by an identical one. */
function swap(old: HTMLElement): HTMLElement {
  const fresh = old.cloneNode(true) as HTMLElement;
  old.replaceWith(fresh);
  return fresh;
}

const fire = (target: Element, type: string) => target.dispatchEvent(new Event(type, { bubbles: true }));

describe('serveShellStart', () => {
  it('starts on a click on the button or inside it, and on no other click', () => {
    const button = shell();
    const start = jest.fn();
    serveShellStart(start);
    fire(document.getElementById('player')!, 'click');
    expect(start).not.toHaveBeenCalled();
    fire(button.querySelector('span')!, 'click');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts on the release of a press that the commit moved from the shell\'s button to the new one', () => {
    const old = shell();
    const start = jest.fn();
    const served = serveShellStart(start);
    fire(old, 'pointerdown');
    const fresh = swap(old);
    served.handOver(); // the commit comes mid-press: the press is still served
    fire(fresh, 'pointerup');
    fire(document.getElementById('player-ui')!, 'click'); // the common ancestor's click: no second start
    expect(start).toHaveBeenCalledTimes(1);
    fire(fresh, 'pointerdown'); // and then it has stood down: React's button is React's
    fire(fresh, 'pointerup');
    fire(fresh, 'click');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('does not start on a press released elsewhere, or on one that began and ended on the same button', () => {
    const old = shell();
    const start = jest.fn();
    serveShellStart(start);
    fire(old, 'pointerdown');
    const fresh = swap(old);
    fire(document.getElementById('player')!, 'pointerup'); // dragged off the button: no start, as with a click
    fire(fresh, 'pointerdown');
    fire(fresh, 'pointerup'); // still connected: the click that follows is the start, not the release
    expect(start).not.toHaveBeenCalled();
    fire(fresh, 'click');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('stands down at the hand-over when no press is in progress', () => {
    const button = shell();
    const start = jest.fn();
    serveShellStart(start).handOver();
    fire(button, 'click');
    fire(button, 'pointerdown');
    swap(button);
    expect(start).not.toHaveBeenCalled();
  });
});
