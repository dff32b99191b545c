// The settings menu (spec §4): quality, speed, subtitles, audio, episodes, each with what is chosen now.
import { t } from '../../i18n';
import { Menu, MenuLink } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, gainLabel, rateLabel, type MenuProps } from './common';

export function MainMenu(props: MenuProps) {
  const { controller, ui } = props;
  const state = useStore(controller.store);
  const levelLabel = (value: number) => state.quality.find((option) => option.value === value)?.label ?? '';
  const autoPicked = state.level === -1 && state.playingLevel >= 0; // 'Auto (720p)': what Auto plays now
  const qualityValue = autoPicked ? t('autoPlaying', { label: levelLabel(state.playingLevel) }) : levelLabel(state.level);
  const subtitle = state.subtitles[state.subtitle];
  const audio = state.audio.find((option) => option.key === state.audioKey);
  return (
    <Menu name="main" label={t('settings')} {...frameOf(props)}>
      {state.quality.length > 1 && <MenuLink label={t('quality')} value={qualityValue} onClick={() => ui.openMenu('quality')} />}
      <MenuLink label={t('speed')} value={rateLabel(state.rate)} onClick={() => ui.openMenu('playback-rate')} />
      {state.subtitles.length > 0 && (
        <MenuLink label={t('subtitles')} value={subtitle?.label ?? t('subtitlesOff')} onClick={() => ui.openMenu('subs')} />
      )}
      <MenuLink label={t('audio')} value={audio?.label ?? gainLabel(state.gain)} onClick={() => ui.openMenu('audio-tracks')} />
      {controller.episodes.length > 1 && <MenuLink label={t('episodes')} onClick={() => ui.openMenu('episodes')} />}
    </Menu>
  );
}
