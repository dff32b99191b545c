// The quality menu (spec §9): 'Auto' and the stream's levels; a choice returns to the main menu.
import { t } from '../../i18n';
import { Menu, MenuChoice } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, thenBack, type MenuProps } from './common';

export function QualityMenu(props: MenuProps) {
  const { controller, ui } = props;
  const { quality, level } = useStore(controller.store);
  return (
    <Menu name="quality" label={t('quality')} onBack={() => ui.openMenu('main')} {...frameOf(props)}>
      {quality.map((option) => (
        <MenuChoice
          key={option.value}
          label={option.value === -1 ? t('auto') : option.label}
          checked={level === option.value}
          onSelect={thenBack(ui, () => controller.tracks.setLevel(option.value))}
        />
      ))}
    </Menu>
  );
}
