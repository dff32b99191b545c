// The small overlays: the 'stopped here' prompt (spec §5), the next-episode card (spec §4), «Пропустить заставку»
// (issue 35), the caption text.
import { useStore } from './useStore';
import type { EpisodeData } from '../context';
import { t } from '../i18n';
import type { PlayerIntents } from '../player/intents';
import { formatTime } from '../player/format';
import { introSkipTo, nextCardDue } from '../player/markers';
import { Icon } from './icons';
import type { UiController } from './uiState';

export function ResumePrompt({ controller }: { controller: PlayerIntents }) {
  const { resumeAt, started } = useStore(controller.store);
  if (resumeAt === null || started) return null;
  return (
    <div className="player__resume" role="region" aria-label={t('resumePrompt', { time: formatTime(resumeAt) })}>
      <p className="player__resume-text">{t('resumePrompt', { time: formatTime(resumeAt) })}</p>
      <button type="button" className="player__pill player__pill--primary" onClick={() => void controller.start(resumeAt)}>
        {t('resumeContinue')}
      </button>
      <button type="button" className="player__pill" onClick={() => void controller.start(0)}>
        {t('resumeStartOver')}
      </button>
    </div>
  );
}

/**
 * Shown from the episode's credits (its creditsStart marker), else over its last seconds, and at its end, when a next
 * episode exists.
 */
export function NextEpisodeCard({ controller, next, leadS }: { controller: PlayerIntents; next: EpisodeData; leadS: number }) {
  const state = useStore(controller.store);
  if (!nextCardDue(state, controller.episode?.creditsStart, leadS)) return null;
  return (
    <div className="player__next" role="region" aria-label={t('nextEpisode')}>
      <span className="player__next-label">{t('nextEpisode')}</span>
      <span className="player__next-title">
        {next.season ? t('seasonEpisode', { season: next.season.order, episode: next.order, title: next.title }) : next.title}
      </span>
      <button type="button" className="player__pill player__pill--primary" onClick={() => void controller.playNext()}>
        <Icon name="next" />
        <span>{t('playNext')}</span>
      </button>
    </div>
  );
}

/** «Пропустить заставку» while the playhead is inside the episode's intro (never under an ad): to the intro's end. */
export function SkipIntro({ controller }: { controller: PlayerIntents }) {
  const { currentTime, ad, started } = useStore(controller.store);
  const to = introSkipTo(controller.episode, currentTime);
  if (to === null || ad !== null || !started) return null;
  return (
    <div className="player__next player__skip" role="region" aria-label={t('skipIntro')}>
      <button type="button" className="player__pill player__pill--primary" onClick={() => controller.seek(to)}>
        {t('skipIntro')}
      </button>
    </div>
  );
}

/** The active cues of the chosen subtitle track (the controller's state), drawn as text in the viewer's style. */
export function Captions({ controller, ui }: { controller: PlayerIntents; ui: UiController }) {
  const { cues } = useStore(controller.store);
  const { captionStyle, captionSample } = useStore(ui.store);
  const shown = captionSample && cues.length === 0 ? [t('captionSample')] : cues;
  if (shown.length === 0) return null;
  return (
    <div
      className={`player__captions player__captions--${captionStyle.color} player__captions--bg-${captionStyle.background}`}
      style={{ '--caption-scale': captionStyle.size } as React.CSSProperties}
      aria-live="off"
    >
      {shown.map((line, index) => (
        <span key={index} className="player__caption-line">
          {line}
        </span>
      ))}
    </div>
  );
}
