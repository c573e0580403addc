import { Alert, Checkbox, ErrorSummary, useAnnounce } from '@gatehouse/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { browserCodeStore, type CodeEntry, type CodeStore } from '../../codes/codeStore.ts';
import { codeAt, entryName, parseOtpUri } from '../../codes/otpUri.ts';
import { t } from '../../messages/index.ts';
import { usePage } from '../../usePage.ts';
import { AddCode, type FieldErrors, fieldIds } from './AddCode.tsx';
import { CodeItem, spokenDigits } from './CodeItem.tsx';
import { DemoTokens } from './DemoTokens.tsx';
import { tc } from './texts.ts';
import { useNow } from './useNow.ts';
import './codes.css';

export type AddResult = { ok: true; name: string } | { ok: false; message: string };

/**
 * 'Codes' (#/codes, on demand): the live codes of the token app and authenticator apps added to
 * this device, each with its countdown; adding one by its otpauth:// address, a picture of its QR
 * code or the camera; in development, the demo accounts' tokens (docs/decisions/026-device-app-codes.md).
 */
export function CodesPage({ store: given }: { store?: CodeStore | null }) {
  const store = useMemo(() => (given === undefined ? browserCodeStore() : given), [given]);
  const [entries, setEntries] = useState<CodeEntry[] | null>(null);
  const [readFailed, setReadFailed] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [announceCodes, setAnnounceCodes] = useState(false);
  const hasErrors = Object.values(errors).some(Boolean);
  const heading = usePage(tc('codes.title'), { hasErrors });
  const listHeading = useRef<HTMLHeadingElement>(null);
  const announce = useAnnounce();
  const now = useNow();

  useEffect(() => {
    if (!store) return;
    let live = true;
    store.list().then(
      (list) => live && setEntries(list),
      () => live && setReadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [store]);

  // The latest entries, for adds that follow one another before a render.
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  const add = useCallback(
    async (text: string): Promise<AddResult> => {
      const parsed = parseOtpUri(text);
      if (!parsed.ok) return { ok: false, message: tc(`codes.${parsed.problem}`) };
      const name = entryName(parsed.value);
      if (!store) return { ok: false, message: tc('codes.unavailable') };
      if (entriesRef.current?.some((e) => e.secret === parsed.value.secret)) {
        return { ok: false, message: tc('codes.duplicate', name) };
      }
      try {
        const entry = await store.add(parsed.value);
        entriesRef.current = [...(entriesRef.current ?? []), entry];
        setEntries(entriesRef.current);
      } catch {
        return { ok: false, message: tc('codes.saveFailed') };
      }
      announce(tc('codes.added', name));
      return { ok: true, name };
    },
    [store, announce],
  );

  const report = useCallback((next: FieldErrors) => {
    setErrors(next);
    if (Object.values(next).some(Boolean)) setAttempt((n) => n + 1);
  }, []);

  async function remove(entry: CodeEntry) {
    if (!store) return;
    try {
      await store.remove(entry.id);
    } catch {
      announce(tc('codes.saveFailed'));
      return;
    }
    setEntries((list) => list?.filter((e) => e.id !== entry.id) ?? null);
    announce(tc('codes.removed', entryName(entry)));
    listHeading.current?.focus();
  }

  // Only when asked: each new code is said once (never the countdown).
  const spoken = useRef(new Map<string, string>());
  useEffect(() => {
    const changed: string[] = [];
    for (const entry of entries ?? []) {
      const { code } = codeAt(entry, now);
      const before = spoken.current.get(entry.id);
      if (before !== undefined && before !== code)
        changed.push(tc('codes.newCode', entryName(entry), spokenDigits(code)));
      spoken.current.set(entry.id, code);
    }
    if (announceCodes && changed.length) announce(changed.join('. '));
  }, [entries, now, announceCodes, announce]);

  const summary = fieldIds
    .filter((field) => errors[field.key])
    .map((field) => ({ fieldId: field.id, message: errors[field.key] as string }));

  return (
    <div className="gh-shell__page">
      <h1 ref={heading} tabIndex={-1}>
        {tc('codes.title')}
      </h1>
      <ErrorSummary errors={summary} attempt={attempt} />
      <p>{tc('codes.intro')}</p>
      {!store ? (
        <Alert variant="critical">{tc('codes.unavailable')}</Alert>
      ) : (
        <>
          <section className="gh-shell__section" aria-labelledby="codes-heading">
            <h2 id="codes-heading" ref={listHeading} tabIndex={-1}>
              {tc('codes.listHeading')}
            </h2>
            {readFailed ? (
              <Alert variant="critical">{tc('codes.readFailed')}</Alert>
            ) : entries === null ? (
              <p>{t('loading')}</p>
            ) : entries.length === 0 ? (
              <p>{tc('codes.none')}</p>
            ) : (
              <>
                <ul className="gh-shell__list">
                  {entries.map((entry) => (
                    <CodeItem key={entry.id} entry={entry} now={now} onRemove={remove} />
                  ))}
                </ul>
                <Checkbox
                  id="codes-announce"
                  label={tc('codes.announceLabel')}
                  hint={tc('codes.announceHint')}
                  checked={announceCodes}
                  onChange={({ checked }) => setAnnounceCodes(checked)}
                />
              </>
            )}
          </section>
          <AddCode add={add} errors={errors} report={report} />
          <DemoTokens add={add} />
        </>
      )}
    </div>
  );
}
