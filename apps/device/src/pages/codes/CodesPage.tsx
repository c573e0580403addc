import { format } from '@gatehouse/contract/client';
import { Alert, Checkbox, ErrorSummary } from '@gatehouse/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAnnounce } from '../../announcer.tsx';
import { browserCodeStore, type CodeEntry, type CodeStore } from '../../codes/codeStore.ts';
import { codeAt, entryName, parseOtpUri } from '../../codes/otpUri.ts';
import { messages } from '../../messages.ts';
import { usePage } from '../../usePage.ts';
import { AddCode, type FieldErrors, fieldIds } from './AddCode.tsx';
import { CodeItem, spokenDigits } from './CodeItem.tsx';
import { DemoTokens } from './DemoTokens.tsx';
import { codesMessages as m } from './messages.ts';
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
  const heading = usePage(m.title, { hasErrors });
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
      if (!parsed.ok) return { ok: false, message: m[parsed.problem] };
      const name = entryName(parsed.value);
      if (!store) return { ok: false, message: m.unavailable };
      if (entriesRef.current?.some((e) => e.secret === parsed.value.secret)) {
        return { ok: false, message: format(m.duplicate, name) };
      }
      try {
        const entry = await store.add(parsed.value);
        entriesRef.current = [...(entriesRef.current ?? []), entry];
        setEntries(entriesRef.current);
      } catch {
        return { ok: false, message: m.saveFailed };
      }
      announce(format(m.added, name));
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
      announce(m.saveFailed);
      return;
    }
    setEntries((list) => list?.filter((e) => e.id !== entry.id) ?? null);
    announce(format(m.removed, entryName(entry)));
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
        changed.push(format(m.newCode, entryName(entry), spokenDigits(code)));
      spoken.current.set(entry.id, code);
    }
    if (announceCodes && changed.length) announce(changed.join('. '));
  }, [entries, now, announceCodes, announce]);

  const summary = fieldIds
    .filter((field) => errors[field.key])
    .map((field) => ({ fieldId: field.id, message: errors[field.key] as string }));

  return (
    <div className="device__page">
      <h1 ref={heading} tabIndex={-1}>
        {m.title}
      </h1>
      <ErrorSummary title={m.errorSummaryTitle} errors={summary} attempt={attempt} />
      <p>{m.intro}</p>
      {!store ? (
        <Alert variant="critical">{m.unavailable}</Alert>
      ) : (
        <>
          <section className="device__section" aria-labelledby="codes-heading">
            <h2 id="codes-heading" ref={listHeading} tabIndex={-1}>
              {m.listHeading}
            </h2>
            {readFailed ? (
              <Alert variant="critical">{m.readFailed}</Alert>
            ) : entries === null ? (
              <p>{messages.loading}</p>
            ) : entries.length === 0 ? (
              <p>{m.none}</p>
            ) : (
              <>
                <ul className="device__list">
                  {entries.map((entry) => (
                    <CodeItem key={entry.id} entry={entry} now={now} onRemove={remove} />
                  ))}
                </ul>
                <Checkbox
                  id="codes-announce"
                  label={m.announceLabel}
                  hint={m.announceHint}
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
