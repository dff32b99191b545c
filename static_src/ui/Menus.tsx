// The seven menus of spec §2/§4 (main, quality, playback-rate, subs, audio-tracks, episodes, seasons): the one open
// (ui/uiState), each its own component in ui/menus/.
import type { ComponentType } from 'react';
import { AudioMenu } from './menus/AudioMenu';
import type { MenuProps } from './menus/common';
import { EpisodesMenu } from './menus/EpisodesMenu';
import { MainMenu } from './menus/MainMenu';
import { QualityMenu } from './menus/QualityMenu';
import { RateMenu } from './menus/RateMenu';
import { SeasonsMenu } from './menus/SeasonsMenu';
import { SubtitlesMenu } from './menus/SubtitlesMenu';
import type { MenuName } from './uiState';
import { useStore } from './useStore';

const MENUS: Record<MenuName, ComponentType<MenuProps>> = {
  main: MainMenu,
  quality: QualityMenu,
  'playback-rate': RateMenu,
  subs: SubtitlesMenu,
  'audio-tracks': AudioMenu,
  episodes: EpisodesMenu,
  seasons: SeasonsMenu,
};

export function Menus(props: MenuProps) {
  const { menu } = useStore(props.ui.store);
  const Open = menu && MENUS[menu];
  return Open ? <Open {...props} /> : null;
}
