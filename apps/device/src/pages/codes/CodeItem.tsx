import { Button, Dialog, DialogClose, useAnnounce, VisuallyHidden } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import type { CodeEntry } from '../../codes/codeStore.ts';
import { codeAt, entryName, groupCode } from '../../codes/otpUri.ts';
import { t } from '../../messages/index.ts';
import { tc } from './texts.ts';

/** The code's digits one by one, for screen readers ('1 2 3 4 5 6', not 'one hundred twenty-three thousand…'). */
export const spokenDigits = (code: string) => code.split('').join(' ');

/**
 * One entry: its name, the live code (grouped on screen, digit by digit for screen readers), the
 * seconds left in its period (text and a progress bar, neither of them live), Copy and Remove.
 */
export function CodeItem({
  entry,
  now,
  onRemove,
}: {
  entry: CodeEntry;
  now: number;
  onRemove: (entry: CodeEntry) => Promise<void>;
}) {
  const announce = useAnnounce();
  const [confirming, setConfirming] = useState(false);
  /** A removal was confirmed: the dialog closes without returning focus to its trigger. */
  const removing = useRef(false);
  /** What the last Copy did, shown beside it for a few seconds (and announced). */
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const name = entryName(entry);
  const { code, secondsLeft } = codeAt(entry, now);
  const headingId = `code-${entry.id}`;

  function note(text: string) {
    setCopyNote(text);
    setTimeout(() => setCopyNote(null), 5000);
    announce(text);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      note(tc('codes.copied', name));
    } catch {
      note(tc('codes.copyFailed'));
    }
  }

  return (
    <li className="gh-shell__item codes__item">
      <h3 id={headingId}>{name}</h3>
      <p className="codes__code">
        <VisuallyHidden>{tc('codes.spokenCode', spokenDigits(code))}</VisuallyHidden>
        <span className="codes__digits" aria-hidden="true" data-code={code}>
          {groupCode(code)}
        </span>
      </p>
      <div className="codes__countdown">
        <progress
          className="codes__progress"
          max={entry.period}
          value={secondsLeft}
          aria-label={tc('codes.progressLabel', name)}
        />
        <span>{tc('codes.secondsLeft', secondsLeft)}</span>
      </div>
      <div className="gh-shell__actions">
        <Button variant="secondary" aria-label={tc('codes.copyName', name)} onClick={() => void copy()}>
          {tc('codes.copy')}
        </Button>
        {copyNote ? <span className="codes__copied">{copyNote}</span> : null}
        <Dialog
          title={tc('codes.removeTitle', name)}
          description={tc('codes.removeDescription')}
          open={confirming}
          onOpenChange={setConfirming}
          // A confirmed removal hands focus to the list's heading (CodesPage); the dialog must not
          // hand it back to its trigger afterwards, which the removal takes away (focus would fall
          // to the page's body).
          onCloseAutoFocus={(event) => {
            if (removing.current) event.preventDefault();
          }}
          trigger={
            <Button variant="danger" aria-label={tc('codes.removeName', name)}>
              {tc('codes.remove')}
            </Button>
          }
          footer={
            <>
              <Button
                variant="danger"
                onClick={() => {
                  removing.current = true;
                  setConfirming(false);
                  void onRemove(entry);
                }}
              >
                {tc('codes.removeConfirm')}
              </Button>
              <DialogClose asChild>
                <Button variant="secondary">{t('cancel')}</Button>
              </DialogClose>
            </>
          }
        />
      </div>
    </li>
  );
}
