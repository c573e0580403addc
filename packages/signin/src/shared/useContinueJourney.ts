import { useCallback } from 'react';
import { useWidget } from '../context.tsx';
import { useCall } from './useCall.ts';

/**
 * After a second factor succeeds: the login journey forwards to session login (which completes
 * it), step-up is complete and the host's finish handler runs (widget spec §4).
 */
export function useContinueJourney() {
  const { config, client } = useWidget();
  const call = useCall();
  return useCallback(
    async (options: { trustDevice?: boolean; data?: unknown } = {}) => {
      if (config.journey === 'STEPUP') {
        config.onEvent?.({ type: 'finish', detail: { journey: config.journey } });
        config.onFinish({
          journey: 'STEPUP',
          code: 1200,
          message: 'Identity verified',
          data: options.data,
          context: undefined,
        });
        return;
      }
      if (options.trustDevice) {
        // The device-binding follow-up: its failure is ignored.
        await client.call('trustedDevice', { body: { bindDevice: true } }).catch(() => undefined);
      }
      await call('sessionLogin');
    },
    [config, client, call],
  );
}
