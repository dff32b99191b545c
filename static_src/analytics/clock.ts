// Played time and progress milestones of one episode (spec §7, §9), from the time updates alone: no timer to own.
import { DEFAULTS } from '../core/defaults';

/**
 * Counts what was really played: wall-clock time while the media plays (real_time_played_sec) and media time it
 * advanced by playing (video_time_played_sec: seeks excluded, faster at a higher rate). A gap between two updates
 * longer than DEFAULTS.analyticsTickCapMs (a stall, a throttled tab) is not counted. `tick` says when another
 * DEFAULTS.analyticsTimeupdateMs of playing has gone by: the 'timeupdate' event's cadence.
 */
export class PlayClock {
  private realMs = 0;
  private videoS = 0;
  private lastAt: number | null = null;
  private lastTime: number | null = null;
  private nextReportMs: number = DEFAULTS.analyticsTimeupdateMs;

  get realSeconds(): number {
    return Math.round(this.realMs / 1000);
  }

  get videoSeconds(): number {
    return Math.round(this.videoS);
  }

  /** A time update at `at` (ms) with the media at `time` (s); true when a timeupdate event is due. */
  tick(time: number, at: number, playing: boolean): boolean {
    if (playing && this.lastAt !== null && this.lastTime !== null) {
      const gap = at - this.lastAt;
      if (gap > 0 && gap <= DEFAULTS.analyticsTickCapMs) this.realMs += gap;
      const advanced = time - this.lastTime;
      if (advanced > 0 && advanced <= (DEFAULTS.analyticsTickCapMs / 1000) * DEFAULTS.rateMax) this.videoS += advanced;
    }
    this.lastAt = playing ? at : null;
    this.lastTime = time;
    if (this.realMs < this.nextReportMs) return false;
    const every = DEFAULTS.analyticsTimeupdateMs;
    this.nextReportMs = (Math.floor(this.realMs / every) + 1) * every;
    return true;
  }

  /** A seek: the jump is not played time. */
  seek(to: number): void {
    this.lastTime = to;
  }

  /** Playback stopped (pause, end, error): the time until the next update is not playing time. */
  halt(): void {
    this.lastAt = null;
  }
}

/** Spec §9 milestones, once each: a position past several (a seek, a resume) reaches each of them, in order. */
export class Milestones {
  private readonly reached = new Set<number>();

  /** The milestones `fraction` (of the duration) reaches for the first time, as whole percents. */
  reach(fraction: number): number[] {
    if (!Number.isFinite(fraction)) return [];
    const due = DEFAULTS.progressMilestones.filter((mark) => fraction >= mark && !this.reached.has(mark));
    for (const milestone of due) this.reached.add(milestone);
    return due.map((milestone) => Math.round(milestone * 100));
  }
}
