// The player island. It renders the same structure as the server's shell (templates/player/player.html),
// so mounting over it changes nothing on screen; from then on it reads the store and sends intents.
import { useLayoutEffect, useRef } from 'react';
import { currentEpisode, type PlayerContext } from '../context';
import { useStore } from '../core/store';
import { t } from '../i18n';
import type { PlayerController } from '../player/controller';
import { ErrorScreen } from './ErrorScreen';

interface Props {
  context: PlayerContext;
  controller: PlayerController;
  container: HTMLElement;
}

const PLAY_ICON = 'M8 5.14v13.72a1 1 0 0 0 1.5.86l11-6.86a1 1 0 0 0 0-1.72l-11-6.86A1 1 0 0 0 8 5.14z';

export function Player({ context, controller, container }: Props) {
  const state = useStore(controller.store);
  const videoRef = useRef<HTMLVideoElement>(null);
  const { content } = context;
  const episode = currentEpisode(context);

  useLayoutEffect(() => {
    if (videoRef.current) controller.attach(videoRef.current);
  }, [controller]);

  useLayoutEffect(() => {
    // `container` is the DOM node React mounts into, outside the tree: writing its attribute is this effect's job.
    // eslint-disable-next-line react-hooks/immutability
    container.dataset.state = state.phase; // the stylesheet keys the overlays off the container's state
  }, [container, state.phase]);

  const showStart = state.phase === 'idle' || state.phase === 'paused';
  const busy = state.phase === 'loading' || state.buffering;

  return (
    <>
      <video
        ref={videoRef}
        className="player__video"
        playsInline
        preload="none"
        controls={state.started && state.phase !== 'error'}
        aria-label={content.title}
      >
        {state.subtitles.map((track) => (
          <track key={track.src} kind="subtitles" src={track.src} srcLang={track.language} label={track.label} />
        ))}
      </video>
      <div className="player__poster">
        {content.posterUrl && <img className="player__poster-img" src={content.posterUrl} alt="" />}
      </div>
      <div className="player__shade" />
      <div className="player__heading">
        <h1 className="player__title">{content.title}</h1>
        {content.hasMultipleEpisodes && episode?.season && (
          <p className="player__subtitle">
            {t('seasonEpisode', { season: episode.season.order, episode: episode.order, title: episode.title })}
          </p>
        )}
      </div>
      {showStart && (
        <button
          className="player__start"
          type="button"
          data-player-start
          aria-label={`${t('start')}: ${content.title}`}
          onClick={() => void controller.start()}
        >
          <svg className="player__start-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={PLAY_ICON} />
          </svg>
        </button>
      )}
      {busy && <div className="player__spinner" role="status" aria-label={t('loading')} />}
      {state.error && <ErrorScreen error={state.error} onReset={() => controller.reset()} />}
    </>
  );
}
