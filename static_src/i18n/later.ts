// Strings only the lazily loaded interface says (issue 35's «Пропустить заставку» and the seek thumbnail's label),
// kept out of the entry's dictionaries (ru.ts, en.ts), which are on the first frame's path. The language is the
// page's, as the entry chooses it (player.tsx: setLanguage(document.documentElement.lang)): Russian unless English.
const later = {
  ru: { skipIntro: 'Пропустить заставку', thumbnail: 'Кадр на {time}' },
  en: { skipIntro: 'Skip intro', thumbnail: 'Frame at {time}' },
};

export type LaterKey = keyof (typeof later)['ru'];

export function tLater(key: LaterKey, params: Record<string, string> = {}, doc: Document = document): string {
  const words = doc.documentElement.lang === 'en' ? later.en : later.ru;
  return words[key].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}
