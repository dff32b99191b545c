// The ad path wired to the controller (ads/boot): the mid-roll goes through the controller's hold as the pre-roll does,
// and dispose() leaves no subscription behind.
import { installFetch, jsonResponse, makeContext } from '../test/fixtures';
import { PlayerController } from '../player/controller';
import { startAds } from './boot';
import { AdScheduler } from './scheduler';

jest.mock('../player/engine', () => ({ attachSource: jest.fn() }));

let restoreFetch: () => void;

beforeEach(() => {
  restoreFetch = installFetch(jest.fn().mockResolvedValue(jsonResponse({ prerollList: [], midrollList: [] })));
});

afterEach(() => {
  restoreFetch();
  jest.restoreAllMocks();
});

function wired() {
  const context = makeContext();
  context.config.adListUrl = '/ad-list.json';
  const controller = new PlayerController(context, 'https://player.example/');
  const container = document.createElement('div');
  const ads = startAds(context, controller, container);
  const hold = jest.spyOn(controller, 'holdPlayback');
  return { controller, ads, hold };
}

describe('startAds', () => {
  it("hands a due mid-roll to the controller's hold while the film plays", () => {
    const midroll = Promise.resolve();
    const due = jest.spyOn(AdScheduler.prototype, 'maybeMidroll').mockReturnValue(midroll);
    const { controller, hold } = wired();
    controller.store.set({ phase: 'playing' });
    expect(due).toHaveBeenCalled();
    expect(hold).toHaveBeenCalledTimes(1);
    return expect(hold.mock.calls[0][0](() => undefined)).resolves.toBeUndefined();
  });

  it('holds the next start for a pre-roll on a new episode', () => {
    const { controller, hold, ads } = wired();
    const reset = jest.spyOn(ads.scheduler, 'reset');
    controller.events.emit('episodeChanged', { episode: makeContext().episodes[0] });
    expect(reset).toHaveBeenCalledTimes(1);
    expect(hold).toHaveBeenCalledWith(ads.preroll);
  });

  it('after dispose() neither the film nor a new episode reaches the ad path, and the break on screen ends', () => {
    const due = jest.spyOn(AdScheduler.prototype, 'maybeMidroll').mockReturnValue(null);
    const { controller, hold, ads } = wired();
    const reset = jest.spyOn(ads.scheduler, 'reset');
    ads.dispose();
    expect(reset).toHaveBeenCalledTimes(1);
    due.mockClear();
    controller.store.set({ phase: 'playing' });
    controller.events.emit('episodeChanged', { episode: makeContext().episodes[0] });
    expect(due).not.toHaveBeenCalled();
    expect(hold).not.toHaveBeenCalled();
    expect(reset).toHaveBeenCalledTimes(1);
    ads.dispose(); // twice is safe
  });
});
