// The SDK is faked here, in this unit test only: what is checked is what we hand it. The browser test
// (tests/browser/test_session.py) runs the real one against a real ingest endpoint.
import * as Sentry from '@sentry/browser';
import { ErrorCode, playerError } from '../core/errors';
import { sentryOptions, startSentry } from './sentry';

jest.mock('@sentry/browser', () => {
  const scope = { setTag: jest.fn(), setTags: jest.fn(), setExtra: jest.fn(), setFingerprint: jest.fn() };
  return {
    init: jest.fn(),
    captureException: jest.fn(),
    withScope: jest.fn((fn: (s: typeof scope) => unknown) => fn(scope)),
    browserTracingIntegration: jest.fn(() => ({ name: 'BrowserTracing' })),
    replayIntegration: jest.fn((options: unknown) => ({ name: 'Replay', options })),
    __scope: scope,
  };
});

const sdk = Sentry as unknown as {
  init: jest.Mock;
  captureException: jest.Mock;
  replayIntegration: jest.Mock;
  __scope: Record<'setTag' | 'setTags' | 'setExtra' | 'setFingerprint', jest.Mock>;
};
const settings = { dsn: 'https://key@ingest.test/42', project: 'player-prod' };

describe('sentryOptions', () => {
  it('carries the spec §1 rates, the production environment and the project label', () => {
    const options = sentryOptions(settings);
    expect(options).toMatchObject({
      dsn: 'https://key@ingest.test/42',
      environment: 'production',
      tracesSampleRate: 0.1,
      replaysSessionSampleRate: 0,
      replaysOnErrorSampleRate: 1,
      initialScope: { tags: { project_label: 'player-prod' } },
    });
  });

  it('swaps Sentry global handlers for ours, and adds tracing and a replay without a compression worker', () => {
    const integrations = sentryOptions(settings).integrations as (defaults: Array<{ name: string }>) => unknown[];
    const defaults = ['InboundFilters', 'BrowserApiErrors', 'Breadcrumbs', 'GlobalHandlers', 'Dedupe'].map((name) => ({
      name,
    }));
    const names = (integrations(defaults) as Array<{ name: string }>).map((i) => i.name);
    expect(names).toEqual(['InboundFilters', 'Breadcrumbs', 'Dedupe', 'BrowserTracing', 'Replay']);
    expect(sdk.replayIntegration).toHaveBeenCalledWith({ useCompression: false });
  });
});

describe('startSentry', () => {
  it('initialises the SDK once with those options', () => {
    startSentry(settings);
    expect(sdk.init).toHaveBeenCalledTimes(1);
    expect(sdk.init.mock.calls[0][0]).toMatchObject({ dsn: settings.dsn, replaysOnErrorSampleRate: 1 });
  });

  it('reports a player error with the id its screen shows, its code, and grouped by code', () => {
    const sink = startSentry(settings);
    const error = playerError('content', ErrorCode.HTTP_404, 'hls.js levelLoadError: HTTP 404', {
      address: 'https://cdn.test/a.m3u8',
    });
    sink({ errorId: error.id, mechanism: 'player', error });
    expect(sdk.__scope.setTag).toHaveBeenCalledWith('error_id', error.id);
    expect(sdk.__scope.setTags).toHaveBeenCalledWith({ error_code: 'HTTP_404', error_category: 'content' });
    expect(sdk.__scope.setExtra).toHaveBeenCalledWith('address', 'https://cdn.test/a.m3u8');
    expect(sdk.__scope.setFingerprint).toHaveBeenCalledWith(['player', 'HTTP_404']);
    const [exception, hint] = sdk.captureException.mock.calls[0];
    expect(exception).toBeInstanceOf(Error);
    expect([exception.name, exception.message]).toEqual([
      'HTTP_404',
      `hls.js levelLoadError: HTTP 404 (error id ${error.id})`,
    ]);
    expect(hint).toEqual({ mechanism: { type: 'player', handled: true } });
  });

  it('reports an unhandled error as it was thrown, unhandled, with its id', () => {
    const sink = startSentry(settings);
    const thrown = new TypeError('x is undefined');
    sink({ errorId: '0123456789abcdef', mechanism: 'onunhandledrejection', error: thrown });
    expect(sdk.__scope.setTag).toHaveBeenCalledWith('error_id', '0123456789abcdef');
    expect(sdk.__scope.setFingerprint).not.toHaveBeenCalled();
    expect(sdk.captureException).toHaveBeenCalledWith(thrown, {
      mechanism: { type: 'onunhandledrejection', handled: false },
    });
  });
});
