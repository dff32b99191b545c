// The seasons menu: the one the episodes menu shows is checked; a choice opens the episodes menu on it.
import { t } from '../../i18n';
import { seasonOf } from '../../player/episodes';
import { Menu, MenuChoice } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, seasonLabel, type MenuProps } from './common';

export function SeasonsMenu(props: MenuProps) {
  const { controller, ui, seasons } = props;
  const { episodeId } = useStore(controller.store);
  const { menuSeason } = useStore(ui.store);
  const shown = menuSeason ?? seasonOf(controller.episodes, episodeId);
  return (
    <Menu name="seasons" label={t('seasons')} onBack={() => ui.openMenu('main')} {...frameOf(props)}>
      {seasons.map((season) => (
        <MenuChoice
          key={season.id}
          label={seasonLabel(season)}
          checked={shown === season.id}
          onSelect={() => ui.openMenu('episodes', season.id)}
        />
      ))}
    </Menu>
  );
}
