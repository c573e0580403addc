import { paths, Status, trustedDeviceData, trustedDeviceRequest } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { bindDevice, mayBindDevice, unbindDevice } from '../services/trusted-devices.ts';

/** POST trusted device: bind or unbind the request's device (services/trusted-devices.ts). */
export async function trustedDevicePlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'POST',
    path: paths.trustedDevice,
    tag: 'factors',
    summary:
      'Trust this device (bindDevice true: skip the second factor at sign-in for TRUST_DEVICE_DAYS) or stop trusting it (false).',
    body: trustedDeviceRequest,
    successData: trustedDeviceData,
    auth: 'session',
    handler: async ({ request, reply, body, auth: session }) => {
      if (!body.bindDevice) {
        await unbindDevice(ctx, request, session.account_id);
        request.log.info({ account: session.account_id }, 'device no longer trusted');
        return answer(request, reply, Status.SUCCESS, {
          message: 'deviceNotTrusted',
          successData: { trusted: false },
        });
      }
      const expiresAt = (await mayBindDevice(ctx, session))
        ? await bindDevice(ctx, request, session.account_id, session.id)
        : null;
      if (!expiresAt) {
        return answer(request, reply, Status.FORBIDDEN, { message: 'trustNeedsFactor' });
      }
      request.log.info({ account: session.account_id }, 'device trusted');
      return answer(request, reply, Status.SUCCESS, {
        message: 'deviceTrusted',
        successData: { trusted: true, expiresAt: expiresAt.toISOString() },
      });
    },
  });
}
