// The seven menus of spec §2/§4: main, quality, playback-rate, subs, audio-tracks, episodes, seasons.
import { DEFAULTS } from '../core/defaults';
import { useStore } from './useStore';
import type { SeasonData } from '../context';
import { t } from '../i18n';
import type { PlayerIntents } from '../player/intents';
import { episodesOfSeason, seasonOf } from '../player/episodes';
import { formatPercent, formatRate } from '../player/format';
import { Menu, MenuChoice, MenuGroup, MenuLink } from './Menu';
import { CAPTION_BACKGROUNDS, CAPTION_COLORS, CAPTION_SIZES, type UiController } from './uiState';

interface Props {
  controller: PlayerIntents;
  ui: UiController;
  seasons: SeasonData[];
}

const COLOR_LABELS = { white: 'colorWhite', yellow: 'colorYellow', cyan: 'colorCyan' } as const;
const BACKGROUND_LABELS = { none: 'backgroundNone', semi: 'backgroundSemi', solid: 'backgroundSolid' } as const;

export const rateLabel = (rate: number) => (rate === 1 ? t('rateNormal') : formatRate(rate));
export const gainLabel = (gain: number) => (gain === 1 ? t('gainOff') : formatPercent(gain));

export function Menus({ controller, ui, seasons }: Props) {
  const state = useStore(controller.store);
  const { menu, menuSeason, captionStyle } = useStore(ui.store);
  if (!menu) return null;
  const close = () => ui.openMenu(null);
  const frame = {
    onClose: close,
    onItem: (name: string, item: string) => controller.events.emit('menuClicked', { menu: name, item }),
  };
  const back = () => ui.openMenu('main');
  const choose = (run: () => void) => () => {
    run();
    back();
  };

  const levelLabel = (value: number) => state.quality.find((option) => option.value === value)?.label ?? '';
  const qualityValue =
    state.level === -1 && state.playingLevel >= 0 ? t('autoPlaying', { label: levelLabel(state.playingLevel) }) : levelLabel(state.level);
  const subtitle = state.subtitles[state.subtitle];
  const audio = state.audio.find((option) => option.key === state.audioKey);
  const hasEpisodes = controller.episodes.length > 1;

  switch (menu) {
    case 'main':
      return (
        <Menu name="main" label={t('settings')} {...frame}>
          {state.quality.length > 1 && <MenuLink label={t('quality')} value={qualityValue} onClick={() => ui.openMenu('quality')} />}
          <MenuLink label={t('speed')} value={rateLabel(state.rate)} onClick={() => ui.openMenu('playback-rate')} />
          {state.subtitles.length > 0 && (
            <MenuLink label={t('subtitles')} value={subtitle?.label ?? t('subtitlesOff')} onClick={() => ui.openMenu('subs')} />
          )}
          <MenuLink label={t('audio')} value={audio?.label ?? gainLabel(state.gain)} onClick={() => ui.openMenu('audio-tracks')} />
          {hasEpisodes && <MenuLink label={t('episodes')} onClick={() => ui.openMenu('episodes')} />}
        </Menu>
      );
    case 'quality':
      return (
        <Menu name="quality" label={t('quality')} onBack={back} {...frame}>
          {state.quality.map((option) => (
            <MenuChoice
              key={option.value}
              label={option.value === -1 ? t('auto') : option.label}
              checked={state.level === option.value}
              onSelect={choose(() => controller.tracks.setLevel(option.value))}
            />
          ))}
        </Menu>
      );
    case 'playback-rate':
      return (
        <Menu name="playback-rate" label={t('speed')} onBack={back} {...frame}>
          {DEFAULTS.rates.map((rate) => (
            <MenuChoice key={rate} label={rateLabel(rate)} checked={state.rate === rate} onSelect={choose(() => controller.setRate(rate))} />
          ))}
        </Menu>
      );
    case 'subs':
      return (
        <Menu name="subs" label={t('subtitles')} onBack={back} {...frame}>
          <MenuGroup>
            <MenuChoice label={t('subtitlesOff')} checked={state.subtitle === -1} onSelect={() => controller.tracks.setSubtitle(-1)} />
            {state.subtitles.map((track, index) => (
              <MenuChoice key={track.src} label={track.label || track.language} checked={state.subtitle === index} onSelect={() => controller.tracks.setSubtitle(index)} />
            ))}
          </MenuGroup>
          <MenuGroup label={t('captionSize')}>
            {CAPTION_SIZES.map((size) => (
              <MenuChoice key={size} label={formatPercent(size)} checked={captionStyle.size === size} onSelect={() => ui.setCaptionStyle({ size })} />
            ))}
          </MenuGroup>
          <MenuGroup label={t('captionColor')}>
            {CAPTION_COLORS.map((color) => (
              <MenuChoice key={color} label={t(COLOR_LABELS[color])} checked={captionStyle.color === color} onSelect={() => ui.setCaptionStyle({ color })} />
            ))}
          </MenuGroup>
          <MenuGroup label={t('captionBackground')}>
            {CAPTION_BACKGROUNDS.map((background) => (
              <MenuChoice
                key={background}
                label={t(BACKGROUND_LABELS[background])}
                checked={captionStyle.background === background}
                onSelect={() => ui.setCaptionStyle({ background })}
              />
            ))}
          </MenuGroup>
        </Menu>
      );
    case 'audio-tracks':
      return (
        <Menu name="audio-tracks" label={t('audio')} onBack={back} {...frame}>
          {state.audio.length > 0 && (
            <MenuGroup>
              {state.audio.map((option) => (
                <MenuChoice key={option.key} label={option.label} checked={state.audioKey === option.key} onSelect={choose(() => void controller.tracks.setAudio(option.key))} />
              ))}
            </MenuGroup>
          )}
          <MenuGroup label={t('gain')}>
            {DEFAULTS.gains.map((gain) => (
              <MenuChoice key={gain} label={gainLabel(gain)} checked={state.gain === gain} onSelect={() => void controller.tracks.setGain(gain)} />
            ))}
          </MenuGroup>
        </Menu>
      );
    case 'seasons':
      return (
        <Menu name="seasons" label={t('seasons')} onBack={back} {...frame}>
          {seasons.map((season) => (
            <MenuChoice
              key={season.id}
              label={season.title || t('seasonN', { n: season.order })}
              checked={(menuSeason ?? seasonOf(controller.episodes, state.episodeId)) === season.id}
              onSelect={() => ui.openMenu('episodes', season.id)}
            />
          ))}
        </Menu>
      );
    case 'episodes': {
      const seasonId = menuSeason ?? seasonOf(controller.episodes, state.episodeId);
      const season = seasons.find((candidate) => candidate.id === seasonId);
      return (
        <Menu name="episodes" label={t('episodes')} onBack={back} {...frame}>
          {seasons.length > 1 && (
            <MenuLink label={t('seasons')} value={season ? season.title || t('seasonN', { n: season.order }) : undefined} onClick={() => ui.openMenu('seasons')} />
          )}
          <MenuGroup label={season ? season.title || t('seasonN', { n: season.order }) : undefined}>
            {episodesOfSeason(controller.episodes, seasonId).map((episode) => (
              <MenuChoice
                key={episode.id}
                label={t('episodeTitle', { n: episode.order, title: episode.title || t('episodeN', { n: episode.order }) })}
                checked={state.episodeId === episode.id}
                onSelect={() => {
                  close();
                  void controller.selectEpisode(episode.id);
                }}
              />
            ))}
          </MenuGroup>
        </Menu>
      );
    }
  }
}
