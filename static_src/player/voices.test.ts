import type { EngineAudioTrack } from './engine';
import type { MasterSource } from './master';
import { audioOptions, chooseSource, pickRendition } from './voices';

const source = (label: string, isDefault = false): MasterSource => ({ label, link: `/${label}.m3u8`, isDefault });
const track = (index: number, label: string, language: string, codec = 'mp4a.40.2'): EngineAudioTrack => ({
  index,
  label,
  language,
  codec,
  channels: 2,
});
const SOURCES = [source('Оригинал'), source('Дубляж', true), source('LostFilm')];

describe('chooseSource', () => {
  it('takes the voice of the saved label, even a rendition label of it', () => {
    expect(chooseSource(SOURCES, 'LostFilm · English', null)).toBe(2);
    expect(chooseSource(SOURCES, 'оригинал', 'LostFilm')).toBe(0);
  });

  it('then the voice author, then the default, then the first', () => {
    expect(chooseSource(SOURCES, 'Нет такой', 'lostfilm')).toBe(2);
    expect(chooseSource(SOURCES, null, null)).toBe(1);
    expect(chooseSource([source('A'), source('B')], null, '')).toBe(0);
  });
});

describe('audioOptions', () => {
  const renditions = [track(0, 'Русский', 'ru'), track(1, 'English', 'en')];

  it('lists the loaded voice by rendition and the others by voice', () => {
    expect(audioOptions(SOURCES, 1, renditions).map((option) => [option.key, option.label, option.track])).toEqual([
      ['0', 'Оригинал', null],
      ['1:0', 'Дубляж · Русский', 0],
      ['1:1', 'Дубляж · English', 1],
      ['2', 'LostFilm', null],
    ]);
  });

  it('names a loaded voice with one rendition by the voice, and a lone source by its renditions', () => {
    expect(audioOptions(SOURCES, 0, [renditions[0]]).map((option) => [option.key, option.label, option.track])).toEqual([
      ['0', 'Оригинал', 0],
      ['1', 'Дубляж', null],
      ['2', 'LostFilm', null],
    ]);
    expect(audioOptions([source('')], 0, renditions).map((option) => option.label)).toEqual(['Русский', 'English']);
  });
});

describe('pickRendition', () => {
  const tracks = [track(0, 'Русский', 'ru'), track(1, 'Русский AC3', 'ru', 'ac-3'), track(2, 'English', 'en')];

  it('drops AC3 without preferred languages and picks the rendition part of a saved label', () => {
    const { ordered, chosen } = pickRendition(tracks, [], 'Дубляж · English', null);
    expect(ordered.map((candidate) => candidate.index)).toEqual([0, 2]);
    expect(chosen?.index).toBe(2);
  });

  it('puts preferred languages first and falls back to the first of them', () => {
    const { ordered, chosen } = pickRendition(tracks, ['en'], null, null);
    expect(ordered.map((candidate) => candidate.index)).toEqual([2, 0, 1]);
    expect(chosen?.index).toBe(2);
  });
});
