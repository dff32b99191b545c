// The subtitles menu: off or one of the master's subtitles, and the caption style (size, colour, background), which
// the interface keeps (ui/uiState). A choice here keeps the menu open.
import { t } from '../../i18n';
import { formatPercent } from '../../player/format';
import { Menu, MenuChoice, MenuGroup } from '../Menu';
import { CAPTION_BACKGROUNDS, CAPTION_COLORS, CAPTION_SIZES } from '../uiState';
import { useStore } from '../useStore';
import { frameOf, type MenuProps } from './common';

const COLOR_LABELS = { white: 'colorWhite', yellow: 'colorYellow', cyan: 'colorCyan' } as const;
const BACKGROUND_LABELS = { none: 'backgroundNone', semi: 'backgroundSemi', solid: 'backgroundSolid' } as const;

export function SubtitlesMenu(props: MenuProps) {
  const { controller, ui } = props;
  const { subtitles, subtitle } = useStore(controller.store);
  const { captionStyle } = useStore(ui.store);
  const { tracks } = controller;
  return (
    <Menu name="subs" label={t('subtitles')} onBack={() => ui.openMenu('main')} {...frameOf(props)}>
      <MenuGroup>
        <MenuChoice label={t('subtitlesOff')} checked={subtitle === -1} onSelect={() => tracks.setSubtitle(-1)} />
        {subtitles.map((track, index) => (
          <MenuChoice
            key={track.src}
            label={track.label || track.language}
            checked={subtitle === index}
            onSelect={() => tracks.setSubtitle(index)}
          />
        ))}
      </MenuGroup>
      <MenuGroup label={t('captionSize')}>
        {CAPTION_SIZES.map((size) => (
          <MenuChoice
            key={size}
            label={formatPercent(size)}
            checked={captionStyle.size === size}
            onSelect={() => ui.setCaptionStyle({ size })}
          />
        ))}
      </MenuGroup>
      <MenuGroup label={t('captionColor')}>
        {CAPTION_COLORS.map((color) => (
          <MenuChoice
            key={color}
            label={t(COLOR_LABELS[color])}
            checked={captionStyle.color === color}
            onSelect={() => ui.setCaptionStyle({ color })}
          />
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
}
