// The audio menu (spec §3, §5, §9): the voices and their renditions (a choice returns to the main menu), and the gain.
import { DEFAULTS } from '../../core/defaults';
import { t } from '../../i18n';
import { Menu, MenuChoice, MenuGroup } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, gainLabel, thenBack, type MenuProps } from './common';

export function AudioMenu(props: MenuProps) {
  const { controller, ui } = props;
  const { audio, audioKey, gain: current } = useStore(controller.store);
  const { tracks } = controller;
  return (
    <Menu name="audio-tracks" label={t('audio')} onBack={() => ui.openMenu('main')} {...frameOf(props)}>
      {audio.length > 0 && (
        <MenuGroup>
          {audio.map((option) => (
            <MenuChoice
              key={option.key}
              label={option.label}
              checked={audioKey === option.key}
              onSelect={thenBack(ui, () => void tracks.setAudio(option.key))}
            />
          ))}
        </MenuGroup>
      )}
      <MenuGroup label={t('gain')}>
        {DEFAULTS.gains.map((gain) => (
          <MenuChoice key={gain} label={gainLabel(gain)} checked={current === gain} onSelect={() => void tracks.setGain(gain)} />
        ))}
      </MenuGroup>
    </Menu>
  );
}
