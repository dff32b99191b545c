// The full-player error screen (spec §8). Each case has its exact text; a load error names its address; only
// 'any other error' has the button that resets the player. Every screen of a fault shows the error id, for a report;
// the blocked screen does not: it is the licence's answer, and nothing a viewer could quote would change it.
import type { PlayerError } from '../core/errors';
import { ErrorCode } from '../core/errors';
import { t } from '../i18n';

export function errorText(error: PlayerError): string {
  switch (error.code) {
    case ErrorCode.MASTER_LOAD_FAILED:
      return error.address ? t('loadError', { address: error.address }) : t('genericError', { id: error.id });
    case ErrorCode.HTTP_404:
      return t('notAvailable');
    case ErrorCode.BLOCKED:
      return t('blocked');
    default:
      return t('genericError', { id: error.id });
  }
}

/** The generic text carries the id itself; the others show it on a line of its own. */
function showsIdInText(error: PlayerError): boolean {
  return errorText(error).includes(error.id);
}

export function ErrorScreen({ error, onReset }: { error: PlayerError; onReset(): void }) {
  const generic = showsIdInText(error); // spec §8: the reload button belongs to 'any other error'
  return (
    <div className="player__error" role="alert" data-error-code={error.code} data-error-id={error.id}>
      <p className="player__error-text">{errorText(error)}</p>
      {!generic && error.code !== ErrorCode.BLOCKED && (
        <p className="player__error-id">{t('errorId', { id: error.id })}</p>
      )}
      {generic && (
        <button className="player__error-reload" type="button" onClick={onReset}>
          {t('reload')}
        </button>
      )}
    </div>
  );
}
