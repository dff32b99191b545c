// The seek thumbnail (issue 35): the storyboard's tile for the time under the pointer or the finger, drawn as its
// sprite sheet's window over the seek bar, with that time. The storyboard's code (player/storyboard, a lazy chunk of
// its own) and its files load when this first shows, at the first hover or touch of the bar; nothing is drawn while
// they load or when the episode has none. Its place and size are its own (inline): no stylesheet grows for it.
import { useEffect, useState } from 'react';
import { t } from '../i18n';
import { formatTime } from '../player/format';
import type { Storyboard } from '../player/storyboard';

interface Props {
  master: string; // the episode's master JSON address
  fraction: number; // where on the bar, 0..1
  time: number; // seconds
}

export function SeekPreview({ master, fraction, time }: Props) {
  const [board, setBoard] = useState<{ master: string; at: Storyboard } | null>(null);
  useEffect(() => {
    let live = true;
    import('../player/storyboard')
      .then(({ loadStoryboard }) => loadStoryboard(master))
      .then((at) => live && setBoard({ master, at }))
      .catch(() => undefined); // said by loadStoryboard; no thumbnails this time
    return () => {
      live = false;
    };
  }, [master]);
  const tile = board?.master === master ? board.at(time) : null;
  if (!tile) return null;
  const label = formatTime(time);
  return (
    <div
      className="player__thumbnail"
      role="img"
      aria-label={t('thumbnail', { time: label })}
      style={{
        position: 'absolute',
        bottom: 'calc(100% + 8px)',
        left: `clamp(0px, calc(${fraction * 100}% - ${tile.w / 2}px), calc(100% - ${tile.w}px))`,
        width: tile.w,
        pointerEvents: 'none',
        zIndex: 3,
      }}
    >
      <div
        className="player__thumbnail-frame"
        style={{
          width: tile.w,
          height: tile.h,
          backgroundImage: `url(${JSON.stringify(tile.url)})`,
          backgroundPosition: `${-tile.x}px ${-tile.y}px`,
          backgroundRepeat: 'no-repeat',
          borderRadius: 4,
          boxShadow: '0 0 0 1px rgba(255,255,255,.6)',
        }}
      />
      <div className="player__thumbnail-time" style={{ textAlign: 'center', fontSize: '.8rem', marginTop: 2 }}>
        {label}
      </div>
    </div>
  );
}
