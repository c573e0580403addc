import { Status } from '@gatehouse/contract/client';
import { useCallback } from 'react';
import { useWidget } from '../context.tsx';
import { t } from '../messages/index.ts';
import { useCall } from './useCall.ts';

/**
 * After a second factor succeeds: the login journey forwards to session login (which completes
 * it); step-up records the host's context on the session (session update, widget spec §7: step-up
 * has no session login to carry SESSION_CTX; its failure is ignored), then the host's finish
 * handler runs (widget spec §4).
 */
export function useContinueJourney() {
  const { config, client, finish } = useWidget();
  const call = useCall();
  return useCallback(
    async (options: { trustDevice?: boolean; data?: unknown } = {}) => {
      if (config.journey === 'STEPUP') {
        const body = config.sessionContext ? { context: config.sessionContext } : {};
        await client.call('sessionUpdate', { body }).catch(() => undefined);
        finish({
          journey: 'STEPUP',
          code: Status.SUCCESS,
          // 'Identity verified' (the service's factorVerified), in the widget's language.
          message: t('page.doneStepUp'),
          data: options.data,
          context: config.sessionContext,
        });
        return;
      }
      if (options.trustDevice) {
        // The device-binding follow-up: its failure is ignored.
        await client.call('trustedDevice', { body: { bindDevice: true } }).catch(() => undefined);
      }
      await call('sessionLogin');
    },
    [config, client, call, finish],
  );
}
