// The full-player error screen (spec §8): the load error names its address; anything else shows an error id
// and a button that resets the player.
import type { PlayerError } from '../core/errors';
import { ErrorCode } from '../core/errors';
import { t } from '../i18n';

export function errorText(error: PlayerError): string {
  if (error.code === ErrorCode.MASTER_LOAD_FAILED && error.address) return t('loadError', { address: error.address });
  return t('genericError', { id: error.id });
}

export function ErrorScreen({ error, onReset }: { error: PlayerError; onReset(): void }) {
  const generic = error.code !== ErrorCode.MASTER_LOAD_FAILED;
  return (
    <div className="player__error" role="alert" data-error-code={error.code} data-error-id={error.id}>
      <p className="player__error-text">{errorText(error)}</p>
      {generic && (
        <button className="player__error-reload" type="button" onClick={onReset}>
          {t('reload')}
        </button>
      )}
    </div>
  );
}
