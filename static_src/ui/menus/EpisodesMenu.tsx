// The episodes menu: the episodes of one season (the playing one's unless another was chosen), a link to the seasons
// when there are several; a choice closes the menu and plays that episode.
import { t } from '../../i18n';
import { episodesOfSeason, seasonOf } from '../../player/episodes';
import { Menu, MenuChoice, MenuGroup, MenuLink } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, seasonLabel, type MenuProps } from './common';

export function EpisodesMenu(props: MenuProps) {
  const { controller, ui, seasons } = props;
  const { episodeId } = useStore(controller.store);
  const { menuSeason } = useStore(ui.store);
  const seasonId = menuSeason ?? seasonOf(controller.episodes, episodeId);
  const season = seasons.find((candidate) => candidate.id === seasonId);
  const frame = frameOf(props);
  return (
    <Menu name="episodes" label={t('episodes')} onBack={() => ui.openMenu('main')} {...frame}>
      {seasons.length > 1 && (
        <MenuLink label={t('seasons')} value={season ? seasonLabel(season) : undefined} onClick={() => ui.openMenu('seasons')} />
      )}
      <MenuGroup label={season ? seasonLabel(season) : undefined}>
        {episodesOfSeason(controller.episodes, seasonId).map((episode) => (
          <MenuChoice
            key={episode.id}
            label={t('episodeTitle', { n: episode.order, title: episode.title || t('episodeN', { n: episode.order }) })}
            checked={episodeId === episode.id}
            onSelect={() => {
              frame.onClose();
              void controller.selectEpisode(episode.id);
            }}
          />
        ))}
      </MenuGroup>
    </Menu>
  );
}
