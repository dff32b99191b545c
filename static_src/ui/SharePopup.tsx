// The share popup (spec §2): the link to this episode on the publisher's page, optionally at the current time,
// and the five services. Shown only when the context enables sharing.
import { useEffect, useId, useRef, useState } from 'react';
import type { ShareAction } from '../core/events';
import { t } from '../i18n';
import { formatTime } from '../player/format';
import { buildShareLink, shareTargets, topPageUrl, type PageClaim } from '../share/link';
import { Icon } from './icons';

interface Props {
  title: string;
  position: { season: number; episode: number } | null;
  currentTime: number;
  claim: PageClaim; // the embed's word for the page it is on (page_url, the parent origin): share/link checks it
  onClose(): void;
  onAction?(action: ShareAction): void; // what the viewer did here (analytics' share event)
}

function shareLink(position: Props['position'], seconds: number | null, claim: PageClaim): string {
  const page = topPageUrl(window, claim);
  if (!page) return '';
  try {
    return buildShareLink(page, position, seconds);
  } catch (error) {
    console.warn('player: no share link', error); // spec §8: share errors are only logged
    return '';
  }
}

export function SharePopup({ title, position, currentTime, claim, onClose, onAction }: Props) {
  const [withTime, setWithTime] = useState(false);
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const headingId = useId();
  const seconds = Math.floor(currentTime);
  const link = shareLink(position, withTime ? seconds : null, claim);

  useEffect(() => inputRef.current?.focus(), []);
  const opened = useRef(onAction); // mounting is opening, whatever opened it: said once
  useEffect(() => opened.current?.('open'), []);
  const close = () => {
    onAction?.('close');
    onClose();
  };

  const copy = async () => {
    onAction?.('copy');
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch (error) {
      inputRef.current?.select(); // the viewer can still copy by hand
      console.warn('player: clipboard refused', error);
    }
  };

  return (
    <div
      className="player__share"
      role="dialog"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          close();
        }
      }}
    >
      <div className="player__share-head">
        <h2 className="player__share-title" id={headingId}>
          {t('share')}
        </h2>
        <button type="button" className="player__button" aria-label={t('close')} onClick={close}>
          <Icon name="close" />
        </button>
      </div>
      <label className="player__share-field">
        <span className="player__visually-hidden">{t('shareLink')}</span>
        {/* wrapped over lines, so that a phone shows the whole address rather than its tail */}
        <textarea
          ref={inputRef}
          className="player__share-input"
          readOnly
          rows={2}
          spellCheck={false}
          value={link}
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <div className="player__share-row">
        <label className="player__share-check">
          <input
            type="checkbox"
            checked={withTime}
            onChange={(event) => {
              setWithTime(event.currentTarget.checked);
              onAction?.(event.currentTarget.checked ? 'timecode_on' : 'timecode_off');
            }}
          />
          <span>{t('shareWithTime', { time: formatTime(seconds) })}</span>
        </label>
        <button type="button" className="player__share-copy" onClick={() => void copy()} disabled={!link}>
          {copied ? t('copied') : t('copy')}
        </button>
      </div>
      <ul className="player__share-services">
        {link &&
          shareTargets(link, title).map((target) => (
            <li key={target.id}>
              <a
                className={`player__share-service player__share-service--${target.id}`}
                href={target.href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t('shareVia', { name: target.name })}
                onClick={() => onAction?.(target.id)}
              >
                {target.name}
              </a>
            </li>
          ))}
      </ul>
    </div>
  );
}
