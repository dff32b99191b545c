// The menu frame (spec §4): one menu open at a time, a back button to the main menu, close on Escape or a click
// outside; arrow keys move between items. A touch drag inside never counts as a choice (spec §9: the drag state
// clears 300 ms after the drag ends).
import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { DEFAULTS } from '../core/defaults';
import { t } from '../i18n';
import { Icon } from './icons';

interface MenuProps {
  label: string;
  onBack?: () => void;
  onClose(): void;
  children: ReactNode;
  name: string;
  onItem?(menu: string, item: string): void; // every item clicked (analytics' menu_click): its label, 'back', 'close'
}

/** An item's name for onItem: 'back', 'close', or its label as shown. */
function itemName(item: Element): string {
  if (item.classList.contains('player__menu-back')) return 'back';
  if (item.classList.contains('player__menu-close')) return 'close';
  return item.querySelector('.player__menu-label')?.textContent ?? '';
}

function items(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([aria-disabled="true"])'));
}

export function Menu({ label, onBack, onClose, children, name, onItem }: MenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  const drag = useRef({ active: false, startY: 0, timer: 0 as ReturnType<typeof setTimeout> | 0 });

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const first = root.querySelector<HTMLElement>('[aria-checked="true"]') ?? items(root)[0];
    first?.focus({ preventScroll: true });
    first?.scrollIntoView?.({ block: 'nearest' });
  }, [name]);

  useEffect(() => () => clearTimeout(drag.current.timer || undefined), []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const root = ref.current;
    if (!root) return;
    const list = items(root);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => list[(to + list.length) % list.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(index + 1),
      ArrowUp: () => move(index - 1),
      Home: () => move(0),
      End: () => move(list.length - 1),
      Escape: onClose,
      ArrowLeft: () => onBack?.(),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    event.stopPropagation(); // the player's own shortcuts stay out of an open menu
    action();
  };

  const onPointerDown = (event: PointerEvent) => {
    drag.current.startY = event.clientY;
  };
  const onPointerMove = (event: PointerEvent) => {
    if (event.buttons && Math.abs(event.clientY - drag.current.startY) > DEFAULTS.menuDragThresholdPx) drag.current.active = true;
  };
  const onPointerUp = () => {
    if (!drag.current.active) return;
    clearTimeout(drag.current.timer || undefined);
    drag.current.timer = setTimeout(() => (drag.current.active = false), DEFAULTS.menuDragClearMs);
  };
  const onClickCapture = (event: React.MouseEvent) => {
    if (drag.current.active) {
      event.stopPropagation();
      event.preventDefault();
    }
  };
  const onClick = (event: React.MouseEvent) => {
    const item = (event.target as Element).closest?.('[role^="menuitem"]');
    if (item && onItem) onItem(name, itemName(item)); // a drag never gets here (stopped in the capture phase)
  };

  return (
    <div
      className="player__menu"
      ref={ref}
      role="menu"
      aria-label={label}
      data-menu={name}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onClickCapture={onClickCapture}
      onClick={onClick}
    >
      <div className="player__menu-head" role="none">
        {onBack ? (
          <button type="button" role="menuitem" className="player__menu-back" onClick={onBack}>
            <Icon name="back" />
            <span>{label}</span>
          </button>
        ) : (
          <span className="player__menu-title">{label}</span>
        )}
        <button type="button" role="menuitem" className="player__menu-close" aria-label={t('close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="player__menu-body" role="none">
        {children}
      </div>
    </div>
  );
}

export function MenuLink({ label, value, onClick }: { label: string; value?: string; onClick(): void }) {
  return (
    <button type="button" role="menuitem" className="player__menu-item" aria-haspopup="menu" onClick={onClick}>
      <span className="player__menu-label">{label}</span>
      {value && <span className="player__menu-value">{value}</span>}
      <Icon name="chevron" />
    </button>
  );
}

export function MenuChoice({ label, checked, onSelect }: { label: string; checked: boolean; onSelect(): void }) {
  return (
    <button type="button" role="menuitemradio" aria-checked={checked} className="player__menu-item" onClick={onSelect}>
      <span className="player__menu-check">{checked && <Icon name="check" />}</span>
      <span className="player__menu-label">{label}</span>
    </button>
  );
}

export function MenuGroup({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="player__menu-group">
      {label && (
        <div className="player__menu-group-label" aria-hidden="true">
          {label}
        </div>
      )}
      {children}
    </div>
  );
}
