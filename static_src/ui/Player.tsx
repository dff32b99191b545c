// The player island. It renders the same structure as the server's shell (templates/player/player.html, inside
// #player-ui), so mounting over it changes nothing on screen; from then on it reads the stores and sends intents.
// The <video> is the shell's own, outside this tree: the entry attached it before React arrived.
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { DEFAULTS } from '../core/defaults';
import type { PlayerContext } from '../context';
import { t } from '../i18n';
import type { PlayerIntents } from '../player/intents';
import { Controls } from './Controls';
import { ErrorScreen } from './ErrorScreen';
import { Menus } from './Menus';
import { Captions, NextEpisodeCard, ResumePrompt, SkipIntro } from './Overlays';
import { SharePopup } from './SharePopup';
import { UiController } from './uiState';
import { useGestures } from './useGestures';
import { useIdleControls } from './useIdleControls';
import { useKeyboard } from './useKeyboard';
import { useLayout } from './useLayout';
import { useStore } from './useStore';

interface Props {
  context: PlayerContext;
  controller: PlayerIntents;
  container: HTMLElement;
}


export function Player({ context, controller, container }: Props) {
  const state = useStore(controller.store);
  const ui = useMemo(() => new UiController(), []);
  const uiState = useStore(ui.store);
  const { content } = context;
  const episode = controller.episode;
  const next = controller.next;
  const layout = useLayout(container);

  useLayoutEffect(() => () => ui.dispose(), [ui]);
  // Fullscreen of #player, PiP, AirPlay and Cast availability, the media session: the controller's, while this is up
  useEffect(() => controller.platform.watch(container), [controller, container]);

  const menuOpen = uiState.menu !== null || uiState.shareOpen;
  useIdleControls(controller, ui, container, menuOpen);
  useKeyboard(controller, ui);
  const onTap = useGestures(controller, ui, layout === 'mobile');

  useLayoutEffect(() => {
    // `container` (#player) is outside this tree: writing its attributes is this effect's job (data-state is the
    // entry's, see shell/state).
    /* eslint-disable react-hooks/immutability */
    container.dataset.layout = layout;
    container.dataset.controls = uiState.controlsVisible || menuOpen ? 'visible' : 'hidden';
    container.dataset.fullscreen = state.fullscreen ? 'on' : 'off';
    if (uiState.tapGuard) container.dataset.tapGuard = '';
    else delete container.dataset.tapGuard;
    /* eslint-enable react-hooks/immutability */
  }, [container, layout, uiState.controlsVisible, menuOpen, state.fullscreen, uiState.tapGuard]);

  const showStart = state.phase === 'idle' || state.phase === 'paused';
  const busy = state.phase === 'loading' || (state.buffering && state.phase !== 'paused');
  const active = state.phase !== 'idle' && state.phase !== 'loading' && state.phase !== 'error'; // controls apply
  const season = episode?.season ?? null;

  return (
    <>
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
      {active && <div className="player__surface" onPointerUp={onTap} aria-hidden="true" />}
      <Captions controller={controller} ui={ui} />
      {uiState.seekFlash !== null && (
        <div className={`player__flash player__flash--${uiState.seekFlash < 0 ? 'left' : 'right'}`} aria-hidden="true">
          {t('seeked', { sign: uiState.seekFlash < 0 ? '−' : '+', n: Math.abs(uiState.seekFlash) })}
        </div>
      )}
      {showStart && (
        <button
          className="player__start"
          type="button"
          data-player-start
          aria-label={`${state.phase === 'paused' ? t('play') : t('start')}: ${content.title}`}
          onClick={() => void controller.start()}
        >
          <span className="player__start-icon" aria-hidden="true" />
        </button>
      )}
      <ResumePrompt controller={controller} />
      {busy && <div className="player__spinner" role="status" aria-label={t('loading')} />}
      {active && (
        <Controls
          controller={controller}
          ui={ui}
          shareEnabled={context.isEnabledShare}
          hasEpisodes={controller.episodes.length > 1}
        />
      )}
      {active && <Menus controller={controller} ui={ui} seasons={context.seasons} />}
      {active && uiState.shareOpen && context.isEnabledShare && (
        <SharePopup
          title={content.title}
          position={season && episode ? { season: season.order, episode: episode.order } : null}
          currentTime={state.currentTime}
          claim={{ pageUrl: context.pageUrl ?? null, serverOrigin: context.config.parentOrigin }}
          onClose={() => ui.setShareOpen(false)}
          onAction={(action) => controller.events.emit('shareAction', { action })}
        />
      )}
      {context.isAvailable && <SkipIntro controller={controller} />}
      {next && context.isAvailable && state.started && (
        <NextEpisodeCard controller={controller} next={next} leadS={DEFAULTS.nextCardLeadS} />
      )}
      {state.error && <ErrorScreen error={state.error} onReset={() => controller.reset()} />}
    </>
  );
}

