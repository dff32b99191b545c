// Sentry in the browser (spec §1): a lazy chunk, loaded by reporting/report.ts only when a DSN is configured and
// only after the first frame or at the first error. Performance tracing at 0.1, session replay on every error
// (rate 1, none otherwise), environment production, the project label as a tag; every report carries its error id.
import {
  browserTracingIntegration,
  captureException,
  init,
  replayIntegration,
  withScope,
  type BrowserOptions,
} from '@sentry/browser';
import type { PlayerError } from '../core/errors';
import type { Report, ReportSink, SentrySettings } from './report';

/**
 * Sentry's own global handlers, and its wrapping of timers and listeners (whose catches rethrow into them), stay
 * off: the entry's listeners (reporting/report.ts) catch from the first moment, before this chunk exists, and give
 * each report the error id it logged.
 */
const REPLACED_BY_OURS = new Set(['GlobalHandlers', 'BrowserApiErrors']);

export function sentryOptions({ dsn, project }: SentrySettings): BrowserOptions {
  return {
    dsn,
    environment: 'production', // spec §1
    tracesSampleRate: 0.1, // spec §1: performance tracing
    replaysSessionSampleRate: 0, // spec §1: replay on every error, and only then
    replaysOnErrorSampleRate: 1,
    initialScope: { tags: { project_label: project } }, // spec §1: the error-reporting project label
    integrations: (defaults) => [
      ...defaults.filter((integration) => !REPLACED_BY_OURS.has(integration.name)),
      browserTracingIntegration(),
      // No compression worker: none to allow in the Content-Security-Policy (the build drops its inline blob: worker,
      // static_src/build.mjs); a replay is sent only with an error, uncompressed.
      replayIntegration({ useCompression: false }),
    ],
  };
}

function isPlayerError(report: Report): report is Report & { error: PlayerError } {
  return report.mechanism === 'player';
}

/**
 * A player error as an exception: its code as the type, its message with the error id (searchable, and two screens
 * of the same failure are two events, not one Sentry's dedupe drops); grouped by code, not by this stack.
 */
function playerException(error: PlayerError): Error {
  const exception = new Error(`${error.message} (error id ${error.id})`);
  exception.name = error.code;
  exception.stack = `${error.code}: ${exception.message}`; // where it was reported from says nothing
  return exception;
}

/** Starts Sentry and returns the sink the queue hands its reports to. */
export function startSentry(settings: SentrySettings): ReportSink {
  init(sentryOptions(settings));
  return (report) =>
    withScope((scope) => {
      scope.setTag('error_id', report.errorId); // the id the error screen shows (core/errors, ui/ErrorScreen)
      scope.setExtra('error_id', report.errorId);
      if (isPlayerError(report)) {
        const { code, category, address } = report.error;
        scope.setTags({ error_code: code, error_category: category });
        if (address) scope.setExtra('address', address);
        scope.setFingerprint(['player', code]);
        captureException(playerException(report.error), { mechanism: { type: 'player', handled: true } });
      } else {
        captureException(report.error, { mechanism: { type: report.mechanism, handled: false } });
      }
    });
}
