import { type DeviceRegistration, Status } from '@gatehouse/contract/client';
import { Alert } from '@gatehouse/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type DemoAccount, deviceApi } from '../../api.ts';
import { useDeviceKey } from '../../device/DeviceKeyContext.tsx';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { t } from '../../messages/index.ts';
import { routes, useNavigate, usePageState } from '../../router.ts';
import { usePage } from '../../usePage.ts';
import { Accounts } from './Accounts.tsx';
import { DemoDevices } from './DemoDevices.tsx';
import { History } from './History.tsx';
import { Requests } from './Requests.tsx';
import { rememberAccounts, rememberedAccounts } from './remembered.ts';
import { usePushes } from './usePushes.ts';

/** The start page, 'Your device': requests, history, the accounts, and demo devices in development. */
export function DevicePage() {
  const keyState = useDeviceKey();
  const key = keyState.status === 'ready' ? keyState.key : undefined;
  const { pushes, failed: readFailed, failedCode, refresh } = usePushes(key);
  const pending = pushes?.filter((p) => p.status === 'PENDING') ?? null;
  const heading = usePage(t('deviceTitle'), { count: pending?.length ?? 0 });

  // A notice left by the previous page (the add-an-account page's success), shown once.
  const navigate = useNavigate();
  const state = usePageState<{ notice?: string }>();
  const [notice] = useState(state?.notice);
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state?.notice) navigate(routes.device, { replace: true, state: null });
  }, [state, navigate]);
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const [registrations, setRegistrations] = useState<DeviceRegistration[] | null>(null);
  const [registrationsFailed, setRegistrationsFailed] = useState(false);
  const [removedElsewhere, setRemovedElsewhere] = useState<string[]>([]);
  const reloadRegistrations = useCallback(async () => {
    if (!key) return;
    const answer = await deviceApi.registrations(key);
    // A key with no registration has nothing to prove itself with: the service refuses its proof
    // (1403). This device then approves no account, which is not a failure to read.
    const none = !answer.ok && answer.code === Status.FORBIDDEN;
    setRegistrationsFailed(!answer.ok && !none);
    if (!answer.ok && !none) return;
    const list = answer.ok ? (answer.data.registrations ?? []) : [];
    // Accounts this device had that are gone (removed on the security page or by support): said here.
    const gone = (await rememberedAccounts(key)).filter((r) => !list.some((l) => l.id === r.id));
    if (gone.length) setRemovedElsewhere((names) => [...names, ...gone.map((r) => r.username)]);
    await rememberAccounts(key, list);
    setRegistrations(list);
  }, [key]);
  const noAccounts = registrations !== null && registrations.length === 0;
  // Pushes refused for a key with no registration (or none known yet) are no failure either.
  const pushesFailed =
    readFailed && !(failedCode === Status.FORBIDDEN && (registrations === null || noAccounts));
  useEffect(() => {
    void reloadRegistrations();
  }, [reloadRegistrations]);

  const [demo, setDemo] = useState<DemoAccount[] | null>(null);
  useEffect(() => {
    let live = true;
    void deviceApi.demoDevices().then((accounts) => live && setDemo(accounts));
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="gh-shell__page">
      <h1 ref={heading} tabIndex={-1}>
        {t('deviceTitle')}
      </h1>
      {notice ? (
        <Alert variant="confirm" ref={noticeRef} tabIndex={-1}>
          {notice}
        </Alert>
      ) : null}
      {keyState.status === 'unavailable' ? (
        <Alert variant="critical">{t('keyUnavailable')}</Alert>
      ) : keyState.status === 'loading' ? (
        <p>{t('loading')}</p>
      ) : (
        <Ready
          deviceKey={keyState.key}
          pending={pending}
          past={pushes?.filter((p) => p.status !== 'PENDING') ?? []}
          pushesFailed={pushesFailed}
          noAccounts={noAccounts}
          removedElsewhere={removedElsewhere}
          refresh={refresh}
          registrations={registrations}
          registrationsFailed={registrationsFailed}
          reloadRegistrations={reloadRegistrations}
          demo={demo}
        />
      )}
    </div>
  );
}

function Ready(props: {
  deviceKey: DeviceKey;
  pending: ReturnType<typeof usePushes>['pushes'];
  past: NonNullable<ReturnType<typeof usePushes>['pushes']>;
  pushesFailed: boolean;
  noAccounts: boolean;
  removedElsewhere: string[];
  refresh: () => Promise<void>;
  registrations: DeviceRegistration[] | null;
  registrationsFailed: boolean;
  reloadRegistrations: () => Promise<void>;
  demo: DemoAccount[] | null;
}) {
  return (
    <>
      <p>{t('deviceIntro')}</p>
      <Requests
        pending={props.pending}
        failed={props.pushesFailed}
        noAccounts={props.noAccounts}
        deviceKey={props.deviceKey}
        onAnswered={() => {
          void props.refresh();
          // An answer is a use of the device: the account's 'Last used' changed with it.
          void props.reloadRegistrations();
        }}
      />
      <History past={props.past} />
      <Accounts
        registrations={props.registrations}
        failed={props.registrationsFailed}
        removedElsewhere={props.removedElsewhere}
        deviceKey={props.deviceKey}
        onChanged={props.reloadRegistrations}
      />
      {props.demo ? (
        <DemoDevices
          accounts={props.demo}
          deviceKey={props.deviceKey}
          onClaimed={props.reloadRegistrations}
        />
      ) : null}
    </>
  );
}
