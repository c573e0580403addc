import { type SavedUsername, Status } from '@gatehouse/contract/client';
import { Button, Checkbox } from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { factorEntries } from '../../factors.ts';
import { t, textsLanguage } from '../../messages/index.ts';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { PasswordInput, UsernameInput } from '../../shared/fields.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { onDemand } from '../../shared/onDemand.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';

const OTHER_USER = '__other__';
/** Keys that move through a select's options without opening it (Chromium on Windows and Linux). */
const browsingKeys = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

/** A logout marker in the host page's address (`?logout`) tells the host a logout happened. */
function hasLogoutMarker(): boolean {
  return new URLSearchParams(window.location.search).has('logout');
}

/** What the factors add to this screen (an entry's `login`), which looks the same with or without it. */
const extensions = factorEntries.flatMap((entry) => (entry.login ? [entry.login] : []));
/** The username field's autocomplete, with the tokens the factors add to it (their entry's `login`). */
const usernameAutocomplete = ['username', ...extensions.map((e) => e.autocomplete ?? '')].join(' ').trim();

const savedSelect = onDemand(() => import('./savedSelect.ts'));
const Select = savedSelect.component((module) => module.Select);

/**
 * Widget spec §2 "Login": saved usernames (dropdown, first preselected, 'other user' clears the
 * form), username, password with show/hide, remember checkbox, Log in, server messages.
 */
export function LoginScreen() {
  const { config, idPrefix, client, risk } = useWidget();
  const call = useCall();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState<SavedUsername[]>([]);
  const [useSaved, setUseSaved] = useState(false);
  const [selected, setSelected] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const problems = useFormErrors();
  const [busy, setBusy] = useState(false);
  // 'Use a different username' reached with the arrow keys is only a highlighted option: it acts
  // when chosen on purpose (WCAG 3.2.2), with its own button or Log in.
  const browsing = useRef(false);
  useHeadingFocus(headingRef);
  // Each factor's login hook, in entry order: the list is fixed at build time, so the hooks are
  // called in the same order on every render.
  for (const extension of extensions) {
    // biome-ignore lint/correctness/useHookAtTopLevel: a constant list, the same calls every render
    extension.useLogin?.({
      setUsername: (name) => {
        setUseSaved(false);
        setUsername(name);
      },
      language: textsLanguage() ?? 'en',
    });
  }

  const id = (name: string) => `${idPrefix}-${name}`;
  const usernameId = useSaved ? id('saved-username') : id('username');

  useEffect(() => {
    if (hasLogoutMarker() && config.onLogout) {
      config.onEvent?.({ type: 'logout' });
      config.onLogout();
    }
  }, [config]);

  useEffect(() => {
    let live = true;
    client
      .call<{ usernames: SavedUsername[] }>('rememberGet')
      .then(async (result) => {
        const list = result.envelope?.successData?.usernames ?? [];
        // 'User Identified' comes with the saved names (the message is in the page's language).
        if (!live || result.status.code !== Status.SUCCESS || list.length === 0) return;
        // The select's chunk first, so it replaces the field in one step.
        await savedSelect.load();
        if (!live) return;
        // Never swap the field out from under someone who has started typing.
        if (
          usernameRef.current &&
          (usernameRef.current.value !== '' || document.activeElement === usernameRef.current)
        ) {
          setSaved([...list].sort((a, b) => a.index - b.index));
          return;
        }
        const ordered = [...list].sort((a, b) => a.index - b.index);
        setSaved(ordered);
        setUseSaved(true);
        setSelected(ordered[0]!.value);
        setRemember(true);
      })
      .catch(() => undefined); // Saved usernames are a convenience: the form works without them.
    return () => {
      live = false;
    };
  }, [client]);

  const clearForm = () => {
    setUsername('');
    setPassword('');
    problems.clear();
    setRemember(false);
  };

  const chooseOtherUser = () => {
    clearForm();
    setUseSaved(false);
    requestAnimationFrame(() => usernameRef.current?.focus());
  };

  const chooseSaved = (value: string) => {
    if (value === OTHER_USER && !browsing.current) return chooseOtherUser();
    setSelected(value);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (useSaved && selected === OTHER_USER) {
      // 'Use a different username' submitted: the text field takes its place with what was typed
      // kept, and the missing username is said like any other (announced, 'Error: ' title).
      setUsername('');
      setUseSaved(false);
      problems.fail([{ fieldId: id('username'), message: t('login.usernameRequired') }]);
      requestAnimationFrame(() => usernameRef.current?.focus());
      return;
    }
    const name = (useSaved ? selected : username).trim();
    const missing = [
      ...(name ? [] : [{ fieldId: usernameId, message: t('login.usernameRequired') }]),
      ...(password ? [] : [{ fieldId: id('password'), message: t('login.passwordRequired') }]),
    ];
    if (missing.length) {
      problems.fail(missing);
      return (name ? passwordRef : useSaved ? selectRef : usernameRef).current?.focus();
    }
    problems.clear();

    setBusy(true);
    const wasSaved = saved.some((s) => s.value.toLowerCase() === name.toLowerCase());
    const outcome = await call(
      'passwordAuthentication',
      { body: { username: name, password } },
      {},
      async () => {
        // A username already saved on this device and still remembered is marked as the latest
        // used (POST); a new one is saved (PUT ADD, which needs the login transaction this
        // password just started); an unticked saved one is forgotten (PUT DELETE). Failure is not fatal.
        const save =
          remember && wasSaved
            ? client.call('rememberPost', { body: { username: name } })
            : remember || wasSaved
              ? client.call('rememberPut', {
                  body: { username: name, operation: remember ? 'ADD' : 'DELETE' },
                })
              : undefined;
        // The device-risk step's signals reach the new journey before session login (decision 045).
        await Promise.all([save?.catch(() => undefined), risk?.then((r) => r.journeyStarted())]);
      },
    );
    setBusy(false);
    if (outcome.kind === 'error') {
      setPassword('');
      problems.fail([{ message: outcome.text }]);
      (useSaved ? selectRef : usernameRef).current?.focus();
    }
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={id('login-heading')}>
      <ScreenHeading id={id('login-heading')} ref={headingRef} invalid={problems.invalid}>
        {t('login.heading')}
      </ScreenHeading>
      {problems.formAlert({ id: id('login-alert') })}
      <form className="gh-signin__form" noValidate onSubmit={submit}>
        {useSaved ? (
          <Select
            id={id('saved-username')}
            ref={selectRef}
            label={t('login.savedUsername')}
            required
            fullWidth
            value={selected}
            onChange={chooseSaved}
            onKeyDown={(e) => {
              browsing.current = browsingKeys.has(e.key);
            }}
            onPointerDown={() => {
              browsing.current = false;
            }}
            error={problems.onField(id('saved-username'))}
            options={[
              ...saved.map((s) => ({ text: s.friendlyName, value: s.value })),
              { text: t('login.otherUser'), value: OTHER_USER },
            ]}
          />
        ) : (
          <UsernameInput
            id={id('username')}
            ref={usernameRef}
            label={t('login.username')}
            autoComplete={usernameAutocomplete}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={problems.onField(id('username'))}
          />
        )}
        {useSaved && selected === OTHER_USER ? (
          <Button variant="secondary" onClick={chooseOtherUser}>
            {t('login.typeOtherUser')}
          </Button>
        ) : null}
        <PasswordInput
          id={id('password')}
          ref={passwordRef}
          label={t('login.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={problems.onField(id('password'))}
        />
        <Checkbox
          id={id('remember')}
          label={t('login.remember')}
          checked={remember}
          onChange={(change) => setRemember(change.checked)}
        />
        <Button type="submit" variant="primary" fullWidth loading={busy} loadingText={t('login.submitting')}>
          {t('login.submit')}
        </Button>
      </form>
      <div className="gh-signin__links">
        {!useSaved && saved.length > 0 ? (
          <Button
            variant="link"
            onClick={() => {
              clearForm();
              setUseSaved(true);
              setSelected(saved[0]!.value);
              setRemember(true);
              requestAnimationFrame(() => selectRef.current?.focus());
            }}
          >
            {t('login.useSaved')}
          </Button>
        ) : null}
        {config.identityEndpoint ? <a href={config.identityEndpoint}>{t('login.forgotUsername')}</a> : null}
      </div>
    </section>
  );
}
