// The tracks of the film (spec §3, §5, §7, §9), a sub-controller of player/controller: the voices (the master JSON's
// sources) and their audio renditions with the spec's preference rules (player/voices, player/audio), the subtitles
// (a <track> per subtitle, the chosen one's cues into the state: player/captions), the quality level, and the gain
// (player/gain). The coordinator hands it the master, the media element and the engine's track callbacks; it loads
// nothing itself: another voice is the coordinator's reload.
import type { PlayerContext } from '../context';
import type { Disposer } from '../core/dispose';
import type { Emitter, PlayerEvents } from '../core/events';
import * as storage from '../core/storage';
import type { Store } from '../core/store';
import { showSubtitle } from './captions';
import type { Engine, EngineAudioTrack, EngineCallbacks } from './engine';
import { AudioBoost } from './gain';
import type { TrackIntents } from './intents';
import type { Master, MasterSubtitle } from './master';
import { qualityOptions } from './quality';
import type { PlayerState } from './state';
import { audioOptions, chooseSource, pickRendition } from './voices';

/** What the track controller needs from the coordinator that owns it. */
export interface TrackHost {
  readonly store: Store<PlayerState>;
  readonly events: Emitter<PlayerEvents>;
  engine(): Engine | null; // the engine of the current source, while one is attached
  reload(): Promise<void>; // loads the current source again at the current time, playing on if it played
}

export class TrackController implements TrackIntents {
  /** The engine's track reports (player/engine), for each source the coordinator attaches. */
  readonly callbacks: Omit<EngineCallbacks, 'onFatal'>;
  private video: HTMLVideoElement | null = null;
  private boost: AudioBoost | null = null;
  private master: Master | null = null;
  private source = 0; // the loaded voice: its index in master.sources
  private renditions: EngineAudioTrack[] = []; // the loaded source's audio renditions, in the spec's order
  private hideCues = () => undefined as void; // stops the chosen subtitle track's cue updates

  constructor(
    private readonly host: TrackHost,
    private readonly context: PlayerContext,
  ) {
    const { store } = host;
    this.callbacks = {
      onLevels: (levels) => store.set({ quality: qualityOptions(levels), level: -1 }),
      onLevelSwitched: (index) => store.set({ playingLevel: index }),
      onAudioTracks: (tracks) => this.onAudioTracks(tracks),
      onAudioSwitched: (index) => store.set({ audioKey: this.keyOf(index) }),
    };
  }

  /** A new media element: the gain works on it from now (its Web Audio graph goes with `media`). */
  attachMedia(video: HTMLVideoElement, media: Disposer): void {
    this.video = video;
    const boost = (this.boost = new AudioBoost(video, this.context.config.baseUrl));
    media.add(() => boost.dispose());
  }

  /** The episode's master (spec §3): the voice to load first, its subtitles as <track>s, none chosen. */
  setMaster(master: Master): void {
    this.master = master;
    const favourite = storage.loadFavoriteAudio(this.context.content.id);
    this.source = chooseSource(master.sources, favourite, this.context.voiceAuthor);
    this.host.store.set({ subtitles: master.subtitles, subtitle: -1 });
    this.syncTracks(master.subtitles);
  }

  /** The address of the voice to load, null before a master. */
  sourceLink(): string | null {
    return this.master?.sources[this.source].link ?? null;
  }

  /** A source is about to load: its renditions are not known yet. */
  clearRenditions(): void {
    this.renditions = [];
    this.host.store.set({ audioKey: null });
  }

  /** The audio menu's entries for the loaded source (player/voices), the current one kept. */
  refreshAudioOptions(): void {
    if (!this.master) return;
    const audio = audioOptions(this.master.sources, this.source, this.renditions);
    const current = audio.find((option) => option.source === this.source)?.key ?? null;
    this.host.store.set({ audio, audioKey: this.host.store.get().audioKey ?? current });
  }

  /** Playback stopped: no <track> left, no cues. */
  clearSubtitles(): void {
    this.syncTracks([]);
  }

  setLevel(level: number): void {
    const { store } = this.host;
    this.host.engine()?.setLevel(level);
    store.set({ level });
    const label = store.get().quality.find((option) => option.value === level)?.label ?? '';
    this.host.events.emit('qualityChanged', { level, label });
  }

  setSubtitle(index: number): void {
    const { subtitles } = this.host.store.get();
    this.host.store.set({ subtitle: index >= 0 && index < subtitles.length ? index : -1 });
    this.showSubtitle();
  }

  async setGain(gain: number): Promise<void> {
    const current = this.renditions.find((track) => this.keyOf(track.index) === this.host.store.get().audioKey);
    const done = await this.boost?.setGain(gain, current?.channels ?? 2);
    if (done) this.host.store.set({ gain });
  }

  /** An audio menu entry: another rendition of this source, or another source (voice) from the current time. */
  async setAudio(key: string): Promise<void> {
    const option = this.host.store.get().audio.find((candidate) => candidate.key === key);
    if (!option || !this.video) return;
    storage.saveFavoriteAudio(this.context.content.id, option.label);
    if (option.source === this.source) {
      if (option.track !== null) this.host.engine()?.setAudioTrack(option.track);
      this.host.store.set({ audioKey: option.key });
      return;
    }
    this.source = option.source;
    await this.host.reload();
  }

  destroy(): void {
    this.hideCues();
  }

  private keyOf(track: number): string {
    return this.renditions.length > 1 ? `${this.source}:${track}` : String(this.source);
  }

  private onAudioTracks(tracks: EngineAudioTrack[]): void {
    const favourite = storage.loadFavoriteAudio(this.context.content.id);
    const { ordered, chosen } = pickRendition(tracks, this.context.langOrder, favourite, this.context.voiceAuthor);
    this.renditions = ordered;
    this.refreshAudioOptions();
    if (chosen) {
      this.host.engine()?.setAudioTrack(chosen.index);
      this.host.store.set({ audioKey: this.keyOf(chosen.index) });
    }
  }

  /** The chosen subtitle's cues into the state, from its <track> (player/captions). */
  private showSubtitle(): void {
    this.hideCues();
    const video = this.video;
    if (!video) return;
    const { subtitles, subtitle } = this.host.store.get();
    this.hideCues = showSubtitle(video, subtitles[subtitle]?.src ?? '', (cues) => this.host.store.set({ cues }));
  }

  /** One <track> per subtitle of the master JSON (spec §7: fetched from each track's src); drawn by ui/Overlays. */
  private syncTracks(subtitles: MasterSubtitle[]): void {
    const video = this.video;
    if (!video) return;
    for (const old of video.querySelectorAll('track')) old.remove();
    for (const subtitle of subtitles) {
      const track = document.createElement('track');
      track.kind = 'subtitles';
      track.src = subtitle.src;
      track.srclang = subtitle.language;
      track.label = subtitle.label;
      video.append(track);
    }
    this.showSubtitle();
  }
}
