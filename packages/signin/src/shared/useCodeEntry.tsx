import { limits } from '@gatehouse/contract/client';
import { Checkbox, CodeInput } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useWidget } from '../context.tsx';
import { t } from '../messages/index.ts';
import { useFormErrors } from './FormErrors.tsx';
import type { Outcome } from './useCall.ts';
import { useContinueJourney } from './useContinueJourney.ts';

/** Widget spec §5: an empty code, or one of fewer than 6 digits; null when the code is whole. */
export const codeProblem = (code: string): string | null =>
  !code.trim() ? t('error.emptyCode') : code.length !== limits.codeLength ? t('error.shortCode') : null;

export type CodeEntryOptions = {
  /** The code field's id, after the widget's prefix: `${idPrefix}-${field}`. */
  field: string;
  /** The factor its page events name (factorVerified, invalidCode). */
  factor: string;
  /** Sends the code. */
  check: (code: string, bindDevice: boolean) => Promise<Outcome>;
  /** After a refused code: true when the screen moved on (the form is then left as it is). */
  refused?: () => boolean;
  /** A submit does nothing now (another action of the screen is running, or it is not ready). */
  blocked?: boolean;
};

/**
 * The code-entry form of the factor screens (one-time code, authenticator app, token app): the
 * code field and, in the login journey unless the host binds the device, the trust-device box; a
 * submit checks the code (widget spec §5), sends it with bindDevice (the host's setting or the
 * box), and continues the journey, or puts the refusal on the field, empties it and focuses it,
 * the error summary announcing it (spec §5).
 */
export function useCodeEntry(options: CodeEntryOptions) {
  const { idPrefix, config } = useWidget();
  const continueJourney = useContinueJourney();
  const codeRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const problems = useFormErrors();
  const codeId = `${idPrefix}-${options.field}`;

  /** A failed submit: the summary is announced, the field says why and takes focus (spec §5). */
  const failOnCode = (message: string) => {
    problems.fail([{ fieldId: codeId, message }]);
    codeRef.current?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || options.blocked) return;
    const problem = codeProblem(code);
    if (problem) return failOnCode(problem);
    // Config bindDevice: the host asks to bind (no box shown); otherwise the customer's box.
    const bindDevice = config.journey === 'LOGIN' && (config.bindDevice || trust);
    problems.clear();
    setBusy(true);
    const { factor } = options;
    const outcome = await options.check(code, bindDevice);
    if (outcome.kind === 'success') {
      config.onEvent?.({ type: 'factorVerified', detail: { factor } });
      await continueJourney({ trustDevice: bindDevice, data: outcome.data });
    } else if (outcome.kind === 'error') {
      // Spec §5: a server error on the field replaces the message with the server's text.
      config.onEvent?.({ type: 'invalidCode', detail: { factor } });
      if (options.refused?.()) return;
      setCode('');
      failOnCode(outcome.text);
    }
    setBusy(false);
  }

  /** The code field and the trust-device box, with the screen's labels. */
  const fields = (labels: { code: string; trust: string; autoComplete?: 'one-time-code' | 'off' }) => (
    <>
      <CodeInput
        id={codeId}
        ref={codeRef}
        label={labels.code}
        required
        autoComplete={labels.autoComplete ?? 'off'}
        value={code}
        onValueChange={setCode}
        error={problems.onField(codeId)}
      />
      {config.journey === 'LOGIN' && !config.bindDevice ? (
        <Checkbox
          id={`${idPrefix}-trust`}
          label={labels.trust}
          checked={trust}
          onChange={(change) => setTrust(change.checked)}
        />
      ) : null}
    </>
  );

  return { code, setCode, codeRef, problems, busy, submit, fields };
}
