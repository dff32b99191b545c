import { DEFAULTS } from '../core/defaults';
import { isTypingTarget, keyIntent, type KeyInput } from './keys';

function press(key: string, extra: Partial<KeyInput> = {}): KeyInput {
  return { key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...extra };
}

describe('keyIntent', () => {
  it('uses the spec §9 steps', () => {
    expect([DEFAULTS.keySeekS, DEFAULTS.keySeekShiftS]).toEqual([5, 10]);
    expect([DEFAULTS.keyVolumeStep, DEFAULTS.keyVolumeShiftStep]).toEqual([0.05, 0.1]);
    expect(DEFAULTS.rateStep).toBe(0.25);
  });

  it.each([' ', 'k', 'K', 'Spacebar'])('%p toggles play', (key) => {
    expect(keyIntent(press(key))).toEqual({ type: 'togglePlay' });
  });

  it('seeks 5 s with the arrows and 10 s with shift', () => {
    expect(keyIntent(press('ArrowLeft'))).toEqual({ type: 'seekBy', seconds: -5 });
    expect(keyIntent(press('ArrowRight'))).toEqual({ type: 'seekBy', seconds: 5 });
    expect(keyIntent(press('ArrowLeft', { shiftKey: true }))).toEqual({ type: 'seekBy', seconds: -10 });
    expect(keyIntent(press('ArrowRight', { shiftKey: true }))).toEqual({ type: 'seekBy', seconds: 10 });
  });

  it('seeks 10 s with j and l, in either case', () => {
    for (const key of ['j', 'J']) expect(keyIntent(press(key))).toEqual({ type: 'seekBy', seconds: -10 });
    for (const key of ['l', 'L']) expect(keyIntent(press(key))).toEqual({ type: 'seekBy', seconds: 10 });
  });

  it('changes the volume by 0.05 with the arrows and 0.1 with shift', () => {
    expect(keyIntent(press('ArrowUp'))).toEqual({ type: 'volumeBy', delta: 0.05 });
    expect(keyIntent(press('ArrowDown'))).toEqual({ type: 'volumeBy', delta: -0.05 });
    expect(keyIntent(press('ArrowUp', { shiftKey: true }))).toEqual({ type: 'volumeBy', delta: 0.1 });
    expect(keyIntent(press('ArrowDown', { shiftKey: true }))).toEqual({ type: 'volumeBy', delta: -0.1 });
  });

  it('changes the rate by 0.25 with > and <, which come with shift held', () => {
    expect(keyIntent(press('>', { shiftKey: true, code: 'Period' }))).toEqual({ type: 'rateBy', delta: 0.25 });
    expect(keyIntent(press('<', { shiftKey: true, code: 'Comma' }))).toEqual({ type: 'rateBy', delta: -0.25 });
    expect(keyIntent(press('>'))).toEqual({ type: 'rateBy', delta: 0.25 });
  });

  it('does not treat . and , as rate keys', () => {
    expect(keyIntent(press('.', { code: 'Period' }))).toBeNull();
    expect(keyIntent(press(',', { code: 'Comma' }))).toBeNull();
  });

  it.each([
    ['m', 'toggleMute'],
    ['M', 'toggleMute'],
    ['f', 'toggleFullscreen'],
    ['F', 'toggleFullscreen'],
    ['c', 'toggleCaptions'],
    ['C', 'toggleCaptions'],
  ])('%p → %s', (key, type) => {
    expect(keyIntent(press(key))).toEqual({ type });
  });

  it('letters work with shift too (Shift+K is still K)', () => {
    expect(keyIntent(press('K', { shiftKey: true }))).toEqual({ type: 'togglePlay' });
    expect(keyIntent(press('F', { shiftKey: true }))).toEqual({ type: 'toggleFullscreen' });
  });

  it('Home and End seek to the start and the end', () => {
    expect(keyIntent(press('Home'))).toEqual({ type: 'seekTo', fraction: 0 });
    expect(keyIntent(press('End'))).toEqual({ type: 'seekTo', fraction: 1 });
  });

  it('digits seek to tenths', () => {
    for (let n = 0; n <= 9; n += 1) {
      expect(keyIntent(press(String(n), { code: `Digit${n}` }))).toEqual({ type: 'seekTo', fraction: n / 10 });
    }
    expect(keyIntent(press('7', { code: 'Numpad7' }))).toEqual({ type: 'seekTo', fraction: 0.7 });
  });

  it.each(['ctrlKey', 'altKey', 'metaKey'] as const)('leaves every key to the browser while %s is held', (mod) => {
    for (const key of [' ', 'k', 'f', 'm', 'c', 'j', 'l', 'ArrowLeft', 'ArrowUp', 'Home', 'End', '1', '>', '<']) {
      expect(keyIntent(press(key, { [mod]: true }))).toBeNull();
      expect(keyIntent(press(key, { [mod]: true, shiftKey: true }))).toBeNull();
    }
  });

  it.each(['a', 'z', 'Enter', 'Escape', 'Tab', 'Shift', 'F5', 'PageUp', '+', '-', 'Dead', '', 'Unidentified'])(
    '%p has no intent',
    (key) => {
      expect(keyIntent(press(key))).toBeNull();
    },
  );

  it('on a Russian layout, reads the physical key of a letter shortcut', () => {
    expect(keyIntent(press('л', { code: 'KeyK' }))).toEqual({ type: 'togglePlay' });
    expect(keyIntent(press('Л', { code: 'KeyK' }))).toEqual({ type: 'togglePlay' }); // Caps Lock
    expect(keyIntent(press('а', { code: 'KeyF' }))).toEqual({ type: 'toggleFullscreen' });
    expect(keyIntent(press('ь', { code: 'KeyM' }))).toEqual({ type: 'toggleMute' });
    expect(keyIntent(press('с', { code: 'KeyC' }))).toEqual({ type: 'toggleCaptions' });
    expect(keyIntent(press('о', { code: 'KeyJ' }))).toEqual({ type: 'seekBy', seconds: -10 });
    expect(keyIntent(press('д', { code: 'KeyL' }))).toEqual({ type: 'seekBy', seconds: 10 });
    expect(keyIntent(press('Ю', { code: 'Period', shiftKey: true }))).toEqual({ type: 'rateBy', delta: 0.25 });
    expect(keyIntent(press('Б', { code: 'Comma', shiftKey: true }))).toEqual({ type: 'rateBy', delta: -0.25 });
    expect(keyIntent(press('ю', { code: 'Period' }))).toBeNull();
    expect(keyIntent(press('ф', { code: 'KeyA' }))).toBeNull();
    expect(keyIntent(press('л'))).toBeNull(); // no code to fall back on
  });

  it('on a Latin layout, the key wins over the physical position', () => {
    // Dvorak: the physical K key types 't', and the key typing 'k' sits at code KeyV.
    expect(keyIntent(press('t', { code: 'KeyK' }))).toBeNull();
    expect(keyIntent(press('k', { code: 'KeyV' }))).toEqual({ type: 'togglePlay' });
  });
});

describe('isTypingTarget', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  function make(html: string): Element {
    document.body.innerHTML = html;
    return document.body.querySelector('[data-t]') ?? document.body.firstElementChild!;
  }

  it.each(['text', 'search', 'email', 'password', 'number', 'url', 'tel', 'date', 'bogus'])(
    'input type %p is typing',
    (type) => {
      expect(isTypingTarget(make(`<input type="${type}">`))).toBe(true);
    },
  );

  it('an input with no type is typing', () => {
    expect(isTypingTarget(make('<input>'))).toBe(true);
  });

  it.each(['range', 'checkbox', 'radio', 'button', 'RANGE', 'submit', 'reset', 'color', 'file'])(
    'input type %p is not typing',
    (type) => {
      expect(isTypingTarget(make(`<input type="${type}">`))).toBe(false);
    },
  );

  it('textarea and select are typing', () => {
    expect(isTypingTarget(make('<textarea></textarea>'))).toBe(true);
    expect(isTypingTarget(make('<select><option>a</option></select>'))).toBe(true);
  });

  it('a contenteditable element and its descendants are typing', () => {
    expect(isTypingTarget(make('<div contenteditable="true"></div>'))).toBe(true);
    expect(isTypingTarget(make('<div contenteditable=""></div>'))).toBe(true);
    expect(isTypingTarget(make('<div contenteditable="plaintext-only"></div>'))).toBe(true);
    expect(isTypingTarget(make('<div contenteditable><p><b data-t>x</b></p></div>'))).toBe(true);
  });

  it('contenteditable="false" switches editing off below it; an invalid value inherits', () => {
    expect(isTypingTarget(make('<div contenteditable="false"></div>'))).toBe(false);
    expect(isTypingTarget(make('<div contenteditable><span contenteditable="false"><i data-t></i></span></div>'))).toBe(
      false,
    );
    expect(isTypingTarget(make('<div contenteditable><span contenteditable="bogus" data-t></span></div>'))).toBe(true);
  });

  it('other elements, the document, the window and null are not typing', () => {
    expect(isTypingTarget(make('<button>Play</button>'))).toBe(false);
    expect(isTypingTarget(make('<div tabindex="0"></div>'))).toBe(false);
    expect(isTypingTarget(make('<video></video>'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(document)).toBe(false);
    expect(isTypingTarget(window)).toBe(false);
    expect(isTypingTarget(document.createTextNode('x'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('reads the target of a real key event', () => {
    const input = make('<input type="text">');
    let typing: boolean | null = null;
    const listener = (e: Event) => {
      typing = isTypingTarget(e.target);
    };
    document.addEventListener('keydown', listener, { once: true });
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true }));
    expect(typing).toBe(true);
  });
});
