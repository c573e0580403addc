import { useCallback } from 'react';
import { useWidget } from '../context.tsx';
import { useNavigate } from '../router.tsx';
import { routes } from '../routes.ts';

/** Widget spec §4 "Cancel": the login journey goes to login; others tell the host. */
export function useCancel(): () => void {
  const { config } = useWidget();
  const navigate = useNavigate();
  return useCallback(() => {
    if (config.journey === 'LOGIN') {
      navigate(routes.login);
      return;
    }
    config.onEvent?.({ type: 'cancel', detail: { journey: config.journey } });
    config.onCancel?.();
  }, [config, navigate]);
}
