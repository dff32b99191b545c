// What the seven menus (ui/Menus) share: their props, the frame's handlers, the choice that returns to the main menu,
// and the labels more than one of them shows.
import type { SeasonData } from '../../context';
import { t } from '../../i18n';
import type { PlayerIntents } from '../../player/intents';
import { formatPercent, formatRate } from '../../player/format';
import type { UiController } from '../uiState';

export interface MenuProps {
  controller: PlayerIntents;
  ui: UiController;
  seasons: SeasonData[];
}

/** The frame's close and its every item click (analytics' menu_click), for ui/Menu. */
export function frameOf({ controller, ui }: MenuProps) {
  return {
    onClose: () => ui.openMenu(null),
    onItem: (menu: string, item: string) => controller.events.emit('menuClicked', { menu, item }),
  };
}

/** A choice that, once made, returns to the main menu (quality, speed, voice). */
export const thenBack = (ui: UiController, run: () => void) => () => {
  run();
  ui.openMenu('main');
};

export const rateLabel = (rate: number) => (rate === 1 ? t('rateNormal') : formatRate(rate));
export const gainLabel = (gain: number) => (gain === 1 ? t('gainOff') : formatPercent(gain));
export const seasonLabel = (season: SeasonData) => season.title || t('seasonN', { n: season.order });
