// The payload fields of spec §7, as pure functions of the context, the player's state and the ad history item.
// Field names are the spec's, spelling included (kinopoisk_raiting, IMDb_raiting). Unknown values are null.
import type { AdHistoryItem } from '../ads/scheduler';
import type { ContentData, EpisodeData, PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import type { PlayerError } from '../core/errors';
import type { PlayerState } from '../player/state';
import { networkType, type DeviceType } from './classify';

export type Value = string | number | null;
export type Payload = Record<string, Value>;

/** Times and lengths in the payload: seconds to the hundredth. */
export const round2 = (value: number) => Math.round(value * 100) / 100;
const finite = (value: number) => Number.isFinite(value) && value > 0;

/** Content: the film or series (video_id is the content's id; season and episode say which episode). */
export function contentFields(content: ContentData, episode: EpisodeData | null, state: PlayerState): Payload {
  return {
    video_id: content.id,
    video_title: content.title,
    duration: finite(state.duration) ? round2(state.duration) : (episode?.duration ?? DEFAULTS.unknownTime),
    player_type: 'embedded',
    video_category: content.contentType.slug,
    video_thumbnail: episode?.posterPath ?? content.posterUrl ?? null,
    kinopoisk_raiting: content.rating.kinopoisk.value,
    kinopoisk_id: content.kinopoiskId,
    IMDb_raiting: content.rating.imdb.value,
    IMDb_id: content.imdbId,
    year: content.year,
    countries: content.countries.map((country) => country.slug).join(','),
  };
}

/** The quality on screen ('480p'; what Auto picked), else the chosen one, else 'Auto' ('' without levels: native). */
export function qualityLabel(state: PlayerState): string {
  const label = (value: number) => state.quality.find((option) => option.value === value)?.label;
  return (state.playingLevel >= 0 ? label(state.playingLevel) : undefined) ?? label(state.level) ?? '';
}

/** Playback: where and how it plays; the played times come from analytics/clock. */
export function playbackFields(
  state: PlayerState,
  episode: EpisodeData | null,
  played: { realSeconds: number; videoSeconds: number },
): Payload {
  const audio = state.audio.find((option) => option.key === state.audioKey);
  return {
    current_time: round2(state.currentTime),
    playback_rate: state.rate,
    real_time_played_sec: played.realSeconds,
    video_time_played_sec: played.videoSeconds,
    video_quality: qualityLabel(state),
    season: episode?.season?.order ?? null,
    episode: episode?.order ?? null,
    language: audio ? audio.language || audio.label : null,
  };
}

/** Session: the device, the viewer (the user_id query parameter), never a trailer here. */
export function sessionFields(context: PlayerContext, device: DeviceType): Payload {
  return { device_type: device, user_id: context.userId, isTrailer: '0' };
}

/** Ads: the ad history item (spec §3) of the ad the event is about. */
export function adFields(ad: AdHistoryItem | null): Payload {
  return {
    ad_id: ad?.id ?? null,
    ad_type: ad?.type ?? null,
    ad_duration_sec: ad?.duration ?? null,
    ad_position_perc: ad?.perc ?? null,
    ad_position: ad?.position ?? null,
  };
}

/**
 * Errors: error_type is the error's category (network, media, content, other), error_code its stable code;
 * buffer_length the seconds buffered ahead when it happened; fps_drop the video frames dropped until then.
 */
export function errorFields(error: PlayerError, state: PlayerState, droppedFrames: number | null, kbps: number | null) {
  return {
    error_type: error.category,
    error_code: error.code,
    error_id: error.id,
    error_fatal: error.fatal ? 1 : 0,
    network_type: networkType(kbps),
    buffer_length: round2(Math.max(0, state.bufferedEnd - state.currentTime)),
    fps_drop: droppedFrames,
  } satisfies Payload;
}
