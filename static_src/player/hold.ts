// The film's hold (an ad break before it or inside it; player/controller holdPlayback): what the next start waits for.
import { DEFAULTS } from '../core/defaults';

/** A hold on the next start (a pre-roll): settles when the film may play; `contentMayLoad` lets the episode load. */
export type Hold = (contentMayLoad: () => void) => Promise<void>;

export interface HoldGate {
  released: Promise<void>; // the film may play: the hold settled (a rejection counts: nothing on the ad side stops it)
  loadable: Promise<void>; // the episode may load underneath: at contentMayLoad, at the end, or after the gate's time
}

/**
 * Starts `hold` (the pre-roll starts now, beside the master's request) and opens the episode's load at its
 * `contentMayLoad` (its ad is on screen: loading earlier would compete with the ad's first frame for the CPU), when it
 * settles, or after DEFAULTS.contentLoadGateMs, whichever comes first.
 */
export function startHold(hold: Hold): HoldGate {
  let open = () => undefined as void;
  const loadable = new Promise<void>((resolve) => (open = resolve));
  const gate = setTimeout(open, DEFAULTS.contentLoadGateMs);
  const released = Promise.resolve()
    .then(() => hold(open))
    .catch(() => undefined)
    .finally(() => {
      clearTimeout(gate);
      open();
    });
  return { released, loadable };
}
