import { useEffect, useRef } from 'react';
import { useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { Loading } from '../../shared/Loading.tsx';
import { useCall } from '../../shared/useCall.ts';

/**
 * The extend-session path (widget spec §2, §7): extends the signed-in session's idle limit, then
 * goes on to the factor part. Step-up starts here, so a customer whose session has ended learns
 * it before proving a factor (HTTP 401: the '401 Unauthorized' page). docs/decisions/012.
 */
export function ExtendSession() {
  const call = useCall();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void call('sessionExtend').then((outcome) => {
      if (outcome.kind === 'success') navigate(routes.authenticator, { replace: true });
    });
  }, [call, navigate]);
  return <Loading />;
}
