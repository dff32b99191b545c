// Viewability of one ad (VAST's <ViewableImpression>, the MRC video rule): viewable once at least 50 % of its pixels
// have been in view for 2 continuous seconds while it played; when the ad ends without that, not viewable if the
// player could measure, undetermined if it could not (no IntersectionObserver). One verdict per ad, given once.

export type Verdict = 'viewable' | 'notViewable' | 'viewUndetermined';

export const MRC_VIDEO = { ratio: 0.5, continuousMs: 2000 } as const;

export class ViewabilityMeter {
  private since: number | null = null; // when the current run of viewable playback began
  private measured = false;
  private verdict: Verdict | null = null;

  /** `now`: milliseconds on the clock the 2 s are counted on (the ad layer gives the ad's media time). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * One reading: whether the ad is playing, and the share of it in view (0 in a hidden page), or null when the
   * player cannot measure. Returns 'viewable' the one time the rule is met, null otherwise.
   */
  sample(playing: boolean, ratio: number | null): Verdict | null {
    if (this.verdict) return null;
    if (ratio === null) return null;
    this.measured = true;
    const now = this.now();
    if (!playing || ratio < MRC_VIDEO.ratio) {
      this.since = null;
      return null;
    }
    this.since ??= now;
    if (now - this.since < MRC_VIDEO.continuousMs) return null;
    this.verdict = 'viewable';
    return this.verdict;
  }

  /** The ad is over (it had its impression): the verdict it never reached, once; null when it was given already. */
  end(): Verdict | null {
    if (this.verdict) return null;
    this.verdict = this.measured ? 'notViewable' : 'viewUndetermined';
    return this.verdict;
  }
}
