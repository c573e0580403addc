import { checkUsername, type UsernameRuleId, usernameRuleIds } from '@gatehouse/contract/client';
import { Button, VisuallyHidden } from '@gatehouse/ui';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { PasswordInput, UsernameInput } from '../../shared/fields.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx, type UsernameTextsKey } from './messages.ts';
import './ChangeUsername.css';

const ruleText: Record<UsernameRuleId, UsernameTextsKey> = {
  length: 'username.rule.length',
  letters: 'username.rule.letters',
  sequences: 'username.rule.sequences',
  password: 'username.rule.password',
};

/** Nothing typed yet: every rule reads as not met, rather than some passing vacuously. */
function unmetWhileEmpty(username: string, password: string): Record<UsernameRuleId, boolean> {
  const rules = checkUsername(username, password);
  return username === '' ? { length: false, letters: false, sequences: false, password: false } : rules;
}

/** Widget spec §2 "Change username" with the live checklist of §5. */
export function ChangeUsernameScreen() {
  const { idPrefix } = useWidget();
  const call = useCall();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // The checklist is re-evaluated on key-up (not Enter), as the spec says, not on every change.
  const [checked, setChecked] = useState(() => unmetWhileEmpty('', ''));
  const problems = useFormErrors();
  const [busy, setBusy] = useState(false);
  useHeadingFocus(headingRef);
  const id = (name: string) => `${idPrefix}-cu-${name}`;

  const evaluate = (u = username, p = password) => {
    const next = unmetWhileEmpty(u, p);
    setChecked(next);
    return next;
  };
  const onKeyUp = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') evaluate();
  };
  const met = usernameRuleIds.filter((rule) => checked[rule]).length;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const missing = [
      ...(username.trim() ? [] : [{ fieldId: id('username'), message: tx('username.usernameRequired') }]),
      ...(password ? [] : [{ fieldId: id('password'), message: tx('username.passwordRequired') }]),
    ];
    if (missing.length) {
      problems.fail(missing);
      return (username.trim() ? passwordRef : usernameRef).current?.focus();
    }
    const rules = evaluate();
    if (!usernameRuleIds.every((rule) => rules[rule])) {
      problems.fail([{ fieldId: id('username'), message: tx('username.notMet') }]);
      return usernameRef.current?.focus();
    }
    problems.clear();
    setBusy(true);
    const outcome = await call('changeUsername', { body: { username, password } }, { username });
    setBusy(false);
    if (outcome.kind === 'error') {
      // Spec §5: a server error on a field shows on that field (marked invalid, described by it).
      const onPassword = outcome.message === 'error.wrongPassword';
      problems.fail([{ fieldId: id(onPassword ? 'password' : 'username'), message: outcome.text }]);
      if (onPassword) {
        setPassword('');
        passwordRef.current?.focus();
      } else usernameRef.current?.focus();
    }
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={id('heading')}>
      <ScreenHeading id={id('heading')} ref={headingRef} invalid={problems.invalid}>
        {tx('username.heading')}
      </ScreenHeading>
      <p>{tx('username.intro')}</p>
      {problems.formAlert({ id: id('alert') })}
      <form className="gh-signin__form" noValidate onSubmit={submit}>
        <UsernameInput
          id={id('username')}
          ref={usernameRef}
          label={tx('username.new')}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          onKeyUp={onKeyUp}
          error={problems.onField(id('username'))}
          aria-describedby={id('rules')}
        />
        <div className="gh-username-rules" id={id('rules')}>
          <p className="gh-username-rules__title">{tx('username.requirements')}</p>
          <ul className="gh-username-rules__list">
            {usernameRuleIds.map((rule) => (
              <li key={rule} data-met={checked[rule] ? 'true' : 'false'} className="gh-username-rules__item">
                <span aria-hidden="true" className="gh-username-rules__mark">
                  {checked[rule] ? '✓' : '✗'}
                </span>
                <VisuallyHidden>{checked[rule] ? tx('username.met') : tx('username.unmet')} </VisuallyHidden>
                {tx(ruleText[rule])}
              </li>
            ))}
            <li className="gh-username-rules__item gh-username-rules__item--note">
              {tx('username.rule.personal')}
            </li>
          </ul>
        </div>
        <p className="gh-username-rules__progress" aria-live="polite">
          {/* The last rule met is said too, not only the ones before it. */}
          {met < usernameRuleIds.length
            ? tx('username.progress', met, usernameRuleIds.length)
            : tx('username.allMet')}
        </p>
        <PasswordInput
          id={id('password')}
          ref={passwordRef}
          label={tx('username.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onKeyUp={onKeyUp}
          error={problems.onField(id('password'))}
        />
        <Button
          type="submit"
          variant="primary"
          fullWidth
          loading={busy}
          loadingText={tx('username.submitting')}
        >
          {tx('username.submit')}
        </Button>
      </form>
      <p className="gh-signin__links">
        <CancelLink />
      </p>
    </section>
  );
}
