// The player's icons as React elements; the paths and a plain-DOM twin for the ad bar are in shell/iconPaths.
import { ICON_PATHS, type IconName } from '../shell/iconPaths';

export function Icon({ name, className = 'player__icon' }: { name: IconName; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
