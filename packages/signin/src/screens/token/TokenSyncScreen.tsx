import { Button, CodeInput, ErrorSummary } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { type FormError, useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { codeProblem } from '../../shared/useCodeEntry.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from '../app-codes/messages.ts';
import { tokenAppName } from '../app-codes/names.ts';

/**
 * Widget spec §2 "Token resync screen", §5 (both codes required and 6 digits, the same messages
 * per field), §4 "Sync submit follows the server redirect" (1200 with redirectPath
 * '/authenticator/svip': the token screen, its failure count fresh, which shows the server's 'in
 * sync' text and asks for the next code). Errors: a GOV.UK summary that
 * takes focus and links to each field, and each field's own message.
 */
export function TokenSyncScreen() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [codes, setCodes] = useState<[string, string]>(['', '']);
  const [busy, setBusy] = useState(false);
  const problems = useFormErrors({ summary: true });
  const headingId = `${idPrefix}-sync-heading`;
  const ids = [`${idPrefix}-sync-code1`, `${idPrefix}-sync-code2`] as const;
  useHeadingFocus(headingRef);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const errors: FormError[] = [];
    codes.forEach((code, i) => {
      const problem = codeProblem(code);
      if (problem) errors.push({ fieldId: ids[i], message: problem });
    });
    if (errors.length) return problems.fail(errors);
    problems.clear();
    setBusy(true);
    // The token screen it leads back to says the token is in sync and asks for the next code.
    const outcome = await call(
      'svipSynchronization',
      { body: { securityCode1: codes[0], securityCode2: codes[1] } },
      { resynced: true },
    );
    if (outcome.kind === 'error') {
      config.onEvent?.({ type: 'invalidCode', detail: { factor: 'token' } });
      setCodes(['', '']);
      // The server's text, on the first field (spec §5: it replaces the field's message).
      problems.fail([{ fieldId: ids[0], message: outcome.text }]);
    }
    setBusy(false);
  }

  const labels = [tx('sync.first'), tx('sync.second')];
  // Two links of the same text would not say where each goes (WCAG 2.4.4): then each names its field.
  const messages = problems.errors.map((e) => e.message);
  const summary = problems.errors.flatMap((e) =>
    e.fieldId
      ? [
          {
            fieldId: e.fieldId,
            message:
              messages.indexOf(e.message) !== messages.lastIndexOf(e.message)
                ? tx('sync.summaryItem', labels[ids.indexOf(e.fieldId as (typeof ids)[number])]!, e.message)
                : e.message,
          },
        ]
      : [],
  );

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx('sync.heading')}
      </ScreenHeading>
      <ErrorSummary errors={summary} attempt={problems.attempt} />
      <p>{tx('sync.text', tokenAppName(config))}</p>
      <form className="gh-signin__form" noValidate onSubmit={submit}>
        {ids.map((id, i) => (
          <CodeInput
            key={id}
            id={id}
            label={labels[i]}
            required
            autoComplete="off"
            value={codes[i]}
            onValueChange={(value) => setCodes((c) => (i === 0 ? [value, c[1]] : [c[0], value]))}
            error={problems.onField(id)}
          />
        ))}
        <Button type="submit" variant="primary" fullWidth loading={busy} loadingText={tx('token.checking')}>
          {tx('token.submit')}
        </Button>
      </form>
      <div className="gh-signin__links">
        <CancelLink />
      </div>
    </section>
  );
}
