// When playback progress is saved (spec §5, §9: "Progress is saved at most every 10 s and never on the first tick").
import { DEFAULTS } from '../core/defaults';

/** Spec §5/§9: throttles progress saves to one per interval, never on the first tick; whole seconds. */
export class ProgressThrottle {
  private mark: number | null = null; // when the clock started or the last save happened; null before the first tick
  private lastSaved: number | null = null;
  private ticked = false; // a tick since the last save

  constructor(
    private readonly save: (seconds: number) => void,
    private readonly intervalMs: number = DEFAULTS.progressSaveMs,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Spec §5: a time update; the first one only starts the clock, later ones save once the interval passed. */
  tick(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    const time = this.now();
    if (this.mark === null) {
      this.mark = time;
      this.ticked = true;
      return;
    }
    if (time - this.mark >= this.intervalMs) this.commit(seconds, time);
    else this.ticked = true;
  }

  /** Spec §5: save now (pause, ended, page hide) if ticked since the last save and the time changed. */
  flush(seconds: number): void {
    if (!this.ticked || !Number.isFinite(seconds) || seconds < 0) return;
    if (Math.floor(seconds) === this.lastSaved) return;
    this.commit(seconds, this.now());
  }

  /** Back to the first-tick state (a new episode). */
  reset(): void {
    this.mark = null;
    this.lastSaved = null;
    this.ticked = false;
  }

  private commit(seconds: number, time: number): void {
    const whole = Math.floor(seconds);
    this.mark = time;
    this.lastSaved = whole;
    this.ticked = false;
    this.save(whole);
  }
}

/** Spec §5: the resume prompt only when not started, no timeCode in the URL, and a saved time above 0. */
export function shouldOfferResume(args: { started: boolean; timeCode: number | null; savedTime: number | null }): boolean {
  const { started, timeCode, savedTime } = args;
  return !started && (timeCode === null || timeCode === undefined) && typeof savedTime === 'number' && savedTime > 0;
}

/** Where an episode picked from a menu starts: its saved time, unless it is nearly finished (or none is saved). */
export function episodeStartAt(duration: number | null, saved: number | null): number | null {
  const nearlyDone = duration !== null && saved !== null && saved >= duration * DEFAULTS.resumeBelowFraction;
  return nearlyDone ? null : saved;
}
