import { en } from './en';
import { setLanguage, t, type MessageKey } from './index';
import { ru } from './ru';

afterEach(() => setLanguage('ru'));

describe('t', () => {
  it('speaks Russian by default, with the load error naming its address', () => {
    expect(t('loadError', { address: 'https://media.example/12/master.json' })).toBe(
      'Ошибка в загрузке: https://media.example/12/master.json',
    );
  });

  it('puts the error id into the generic error', () => {
    expect(t('genericError', { id: '0a1b2c3d4e5f6789' })).toBe(
      'К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: 0a1b2c3d4e5f6789',
    );
  });

  it('fills several placeholders, numbers included', () => {
    expect(t('seasonEpisode', { season: 2, episode: 5, title: 'Финал' })).toBe('Сезон 2, серия 5. Финал');
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(t('loadError')).toBe('Ошибка в загрузке: {address}');
  });

  it('does not treat "$" in a value as a replacement pattern', () => {
    expect(t('loadError', { address: "https://x.example/$&$'.json" })).toBe(
      "Ошибка в загрузке: https://x.example/$&$'.json",
    );
  });
});

describe('setLanguage', () => {
  it('switches to English', () => {
    setLanguage('en');
    expect(t('reload')).toBe('Reload the page');
    expect(t('loadError', { address: 'https://a.example/m.json' })).toBe('Failed to load: https://a.example/m.json');
  });

  it('switches back to Russian', () => {
    setLanguage('en');
    setLanguage('ru');
    expect(t('reload')).toBe('Перезагрузить страницу');
  });

  it.each(['de', ''])('falls back to Russian for %p', (code) => {
    setLanguage('en');
    setLanguage(code);
    expect(t('start')).toBe('Смотреть');
  });

  // A plain lookup would find Object.prototype's keys, and every t() would then throw.
  it('does not take inherited object keys for a language', () => {
    setLanguage('toString');
    expect(t('start')).toBe('Смотреть');
  });
});

describe('dictionaries', () => {
  const keys = Object.keys(ru) as MessageKey[];

  it.each(keys)('%s is a non-empty string in every language', (key) => {
    expect(typeof ru[key]).toBe('string');
    expect(ru[key].trim()).not.toBe('');
    expect(typeof en[key]).toBe('string');
    expect(en[key].trim()).not.toBe('');
  });

  it('en has exactly the keys of ru', () => {
    expect(Object.keys(en).sort()).toEqual([...keys].sort());
  });

  it.each(keys)('%s uses the same placeholders in en as in ru', (key) => {
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    expect(placeholders(en[key])).toEqual(placeholders(ru[key]));
  });
});

// The entry no longer chooses the language (the dictionaries stay off the first frame's path): the first lookup does.
describe('without setLanguage', () => {
  afterEach(() => document.documentElement.removeAttribute('lang'));

  it.each([
    ['en', 'Reload the page'],
    ['ru', 'Перезагрузить страницу'],
    ['', 'Перезагрузить страницу'],
    ['de', 'Перезагрузить страницу'],
  ])('speaks the language of <html lang=%p> from the first lookup', async (lang, text) => {
    document.documentElement.lang = lang;
    jest.resetModules();
    const fresh = await import('./index');
    expect(fresh.t('reload')).toBe(text);
  });
});
