// The control bar: every button sends an intent; what it shows comes from the stores.
import { useRef, useState, type ChangeEvent, type PointerEvent } from 'react';
import { DEFAULTS } from '../core/defaults';
import { useStore } from './useStore';
import { t } from '../i18n';
import type { PlayerIntents } from '../player/intents';
import { formatTime } from '../player/format';
import { Icon } from './icons';
import { SeekPreview } from './SeekPreview';
import type { UiController } from './uiState';

interface Props {
  controller: PlayerIntents;
  ui: UiController;
  shareEnabled: boolean;
  hasEpisodes: boolean;
}

function Button({ label, onClick, children, ...rest }: { label: string; onClick(): void; children: React.ReactNode } & Record<string, unknown>) {
  return (
    <button type="button" className="player__button" aria-label={label} title={label} onClick={onClick} {...rest}>
      {children}
    </button>
  );
}

export function SeekBar({ controller }: { controller: PlayerIntents }) {
  const { currentTime, duration, bufferedEnd, live } = useStore(controller.store);
  const [hover, setHover] = useState<number | null>(null); // the fraction of the bar under the pointer or the finger
  const touching = useRef(false); // a finger is down on the bar (read at once: its events come faster than renders)
  if (live.isLive && !live.hasDvr) return null;
  const max = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const played = max ? (currentTime / max) * 100 : 0;
  const loaded = max ? (Math.min(bufferedEnd, max) / max) * 100 : 0;
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    controller.seek(Number(event.currentTarget.value));
    if (touching.current && max) setHover(Number(event.currentTarget.value) / max);
  };
  const onPointer = (event: PointerEvent<HTMLInputElement>) => {
    const touch = event.pointerType === 'touch';
    if (touch && event.type === 'pointermove' && !touching.current) return;
    if (touch) touching.current = true;
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = (event.clientX - box.left) / box.width;
    setHover(Number.isFinite(fraction) ? Math.min(Math.max(fraction, 0), 1) : null);
  };
  const onLeave = (event: PointerEvent<HTMLInputElement>) => {
    if (event.type === 'pointerleave' && touching.current) return;
    touching.current = false;
    setHover(null);
  };
  const master = controller.episode?.m3u8MasterFilePath;
  return (
    <div className="player__seek" style={{ '--played': `${played}%`, '--loaded': `${loaded}%`, position: 'relative' } as React.CSSProperties}>
      {/* seek thumbnails (issue 35): the frame under the pointer, or under the finger while it drags */}
      {hover !== null && max > 0 && master && <SeekPreview master={master} fraction={hover} time={hover * max} />}
      <input
        className="player__range player__seek-input"
        type="range"
        min={0}
        max={max || 1}
        step={1}
        value={Math.min(currentTime, max || 1)}
        disabled={!max}
        aria-label={t('seek')}
        aria-valuetext={t('timeOf', { current: formatTime(currentTime), total: formatTime(duration) })}
        onChange={onChange}
        onPointerMove={onPointer}
        onPointerDown={onPointer}
        onPointerLeave={onLeave}
        onPointerUp={(event) => event.pointerType === 'touch' && onLeave(event)}
        onPointerCancel={onLeave}
      />
    </div>
  );
}

function TimeDisplay({ controller }: { controller: PlayerIntents }) {
  const { currentTime, duration, live } = useStore(controller.store);
  if (live.isLive) {
    return (
      <button
        type="button"
        className={`player__live${live.atLiveEdge ? ' player__live--edge' : ''}`}
        aria-label={t('goLive')}
        onClick={() => controller.seek(Number.MAX_SAFE_INTEGER)}
      >
        {t('live')}
      </button>
    );
  }
  return (
    // Two parts: where the row has no room for both (a phone with every button on), the total gives way (controls.css)
    <span className="player__time" aria-hidden="true">
      <span className="player__time-current">{formatTime(currentTime)}</span>
      <span className="player__time-total">{`\u00a0/ ${formatTime(duration || DEFAULTS.unknownTime)}`}</span>
    </span>
  );
}

function VolumeControl({ controller }: { controller: PlayerIntents }) {
  const { volume, muted } = useStore(controller.store);
  const silent = muted || volume === 0;
  return (
    <div className="player__volume">
      <Button label={silent ? t('unmute') : t('mute')} onClick={() => controller.setMuted(!silent)}>
        <Icon name={silent ? 'muted' : 'volume'} />
      </Button>
      <input
        className="player__range player__volume-input"
        type="range"
        min={0}
        max={1}
        step={DEFAULTS.keyVolumeStep}
        value={silent ? 0 : volume}
        aria-label={t('volume')}
        aria-valuetext={`${Math.round((silent ? 0 : volume) * 100)}%`}
        onChange={(event) => controller.setVolume(Number(event.currentTarget.value))}
      />
    </div>
  );
}

export function Controls({ controller, ui, shareEnabled, hasEpisodes }: Props) {
  const { phase, fullscreen, canPip, canCast, canAirplay } = useStore(controller.store);
  const { menu } = useStore(ui.store);
  const playing = phase === 'playing';
  const step = DEFAULTS.skipStepS;
  return (
    <div className="player__controls" role="group" aria-label={t('controls')}>
      <SeekBar controller={controller} />
      <div className="player__bar">
        <Button label={playing ? t('pause') : t('play')} onClick={() => controller.togglePlay()} data-control="play">
          <Icon name={playing ? 'pause' : 'play'} />
        </Button>
        <Button label={t('rewind', { n: step })} onClick={() => controller.seekBy(-step)} data-control="rewind">
          <Icon name="rewind" />
        </Button>
        <Button label={t('forward', { n: step })} onClick={() => controller.seekBy(step)} data-control="forward">
          <Icon name="forward" />
        </Button>
        <VolumeControl controller={controller} />
        <TimeDisplay controller={controller} />
        <span className="player__spacer" />
        {hasEpisodes && (
          <Button
            label={t('episodes')}
            onClick={() => ui.toggleMenu('episodes')}
            aria-haspopup="menu"
            aria-expanded={menu === 'episodes'}
            data-control="episodes"
          >
            <Icon name="episodes" />
          </Button>
        )}
        {shareEnabled && (
          <Button label={t('share')} onClick={() => ui.setShareOpen(true)} aria-haspopup="dialog" data-control="share">
            <Icon name="share" />
          </Button>
        )}
        <Button
          label={t('settings')}
          onClick={() => ui.toggleMenu('main')}
          aria-haspopup="menu"
          aria-expanded={menu !== null && menu !== 'episodes' && menu !== 'seasons'}
          data-control="settings"
        >
          <Icon name="settings" />
        </Button>
        {canAirplay && (
          <Button label={t('airplay')} onClick={() => controller.platform.airplay()} data-control="airplay">
            <Icon name="airplay" />
          </Button>
        )}
        {canCast && (
          <Button label={t('cast')} onClick={() => controller.platform.cast()} data-control="cast">
            <Icon name="cast" />
          </Button>
        )}
        {canPip && (
          <Button label={t('pip')} onClick={() => controller.platform.togglePip()} data-control="pip">
            <Icon name="pip" />
          </Button>
        )}
        <Button
          label={fullscreen ? t('exitFullscreen') : t('fullscreen')}
          onClick={() => controller.platform.toggleFullscreen()}
          data-control="fullscreen"
        >
          <Icon name={fullscreen ? 'exitFullscreen' : 'fullscreen'} />
        </Button>
      </div>
    </div>
  );
}
