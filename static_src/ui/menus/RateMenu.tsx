// The playback-rate menu (spec §9: DEFAULTS.rates, 1 labelled 'Обычная'); a choice returns to the main menu.
import { DEFAULTS } from '../../core/defaults';
import { t } from '../../i18n';
import { Menu, MenuChoice } from '../Menu';
import { useStore } from '../useStore';
import { frameOf, rateLabel, thenBack, type MenuProps } from './common';

export function RateMenu(props: MenuProps) {
  const { controller, ui } = props;
  const { rate: current } = useStore(controller.store);
  return (
    <Menu name="playback-rate" label={t('speed')} onBack={() => ui.openMenu('main')} {...frameOf(props)}>
      {DEFAULTS.rates.map((rate) => (
        <MenuChoice
          key={rate}
          label={rateLabel(rate)}
          checked={current === rate}
          onSelect={thenBack(ui, () => controller.setRate(rate))}
        />
      ))}
    </Menu>
  );
}
