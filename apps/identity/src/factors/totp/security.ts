import { randomBytes } from 'node:crypto';
import {
  authenticatorConfirmationData,
  authenticatorConfirmationRequest,
  authenticatorEnrollmentData,
  authenticatorEnrollmentRequest,
  Status,
  securityPaths,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { answer } from '../../lib/http.ts';
import { defineRoute } from '../../lib/route.ts';
import { Confirmations } from '../../security/confirmations.ts';
import { capReached } from '../../security/credential-policy.ts';
import type { FactorSecurity } from '../../security/factor-security.ts';
import {
  appItem,
  auditChange,
  capRefusal,
  limitAccount,
  noticeChange,
  otpauthUri,
  wrongCode,
} from '../../security/service.ts';
import { findStep, timeStep } from '../app-codes.ts';

const SHA1 = { algorithm: 'SHA1', digits: 6 } as const;

/**
 * The authenticator app on the security page (docs/decisions/025-security-page-api.md): adding one
 * is an enrollment (a new secret, pending) confirmed with a current code of it; it is listed as
 * `authenticators` and removed through the page's generic removal.
 */
function routes(app: FastifyInstance, ctx: Context) {
  const confirmations = new Confirmations(ctx);
  const tag = 'security';

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityAuthenticatorEnrollment,
    tag,
    summary:
      'Start adding an authenticator app: a new secret (kept encrypted, pending) as base32 and as an otpauth:// URI for a QR code; it counts once confirmed with a code within SECURITY_ENROLLMENT_MINUTES.',
    body: authenticatorEnrollmentRequest,
    successData: authenticatorEnrollmentData,
    auth: 'steppedUp',
    handler: async ({ request, reply, auth: { account } }) => {
      await limitAccount(ctx, request, account.id);
      if (capReached(ctx, await ctx.credentials.list(account.id), 'totp'))
        return capRefusal(ctx, request, reply, 'totp');
      const secret = randomBytes(20);
      const expiresAt = new Date(ctx.clock.now().getTime() + ctx.config.security.enrollmentMs);
      const enrollmentId = await confirmations.create({
        accountId: account.id,
        kind: 'totp',
        expiresAt,
        secret,
        data: { algorithm: 'SHA1', digits: 6, period: 30 },
      });
      const uri = otpauthUri(account.username, secret);
      secret.fill(0);
      request.log.info({ account: account.id }, 'security: authenticator app enrollment started');
      return answer(request, reply, Status.SUCCESS, {
        successData: {
          enrollmentId,
          secret: new URL(uri).searchParams.get('secret') ?? '',
          otpauthUri: uri,
          expiresAt: expiresAt.toISOString(),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityAuthenticatorConfirmation,
    tag,
    summary:
      'Confirm a pending authenticator app with a current code of it: it becomes a credential of the account (kind totp). Wrong codes are counted; SECURITY_CONFIRM_MAX_TRIES end the enrollment.',
    body: authenticatorConfirmationRequest,
    successData: authenticatorConfirmationData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: guarded }) => {
      const { account } = guarded;
      await limitAccount(ctx, request, account.id);
      const reserved = await confirmations.reserve(body.enrollmentId, account.id, ['totp']);
      if (!reserved) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      const { pending, tries } = reserved;
      const secret = confirmations.secretOf(pending);
      const step = findStep(
        secret,
        body.securityCode,
        timeStep(ctx.clock.now(), 30),
        ctx.config.totp.skewSteps,
        SHA1,
      );
      if (step === null) {
        secret.fill(0);
        return wrongCode(ctx, confirmations, request, reply, guarded, {
          id: pending.id,
          tries,
          event: 'security.authenticator-failed',
        });
      }
      // Under the account's row: of concurrent confirmations, the cap admits exactly as many as it has room for.
      const added = await ctx.sessions.underAccount(account.id, 'update', async (_s, tx) => {
        if (capReached(ctx, await ctx.credentials.withDb(tx).list(account.id), 'totp')) return 'cap' as const;
        if (!(await confirmations.complete(tx, pending.id))) return undefined;
        // The confirming code's step counts as used: it never signs in (factors/app-codes claimStep).
        const credential = await ctx.credentials.withDb(tx).add({
          accountId: account.id,
          kind: 'totp',
          name: body.name ?? 'Authenticator app',
          secret,
          data: { algorithm: 'SHA1', digits: 6, period: 30, lastStep: step },
        });
        await auditChange(ctx, request, tx, account.id, {
          event: 'security.authenticator-added',
          notice: 'authenticatorAdded',
          detail: { kind: 'totp', name: credential.name },
        });
        return credential;
      });
      secret.fill(0);
      if (added === 'cap') return capRefusal(ctx, request, reply, 'totp');
      if (!added) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      await noticeChange(ctx, request, account, 'authenticatorAdded');
      return answer(request, reply, Status.SUCCESS, { successData: { authenticator: appItem(ctx, added) } });
    },
  });
}

/** The authenticator app's part of the security page and the credential lifecycle. */
export const security: FactorSecurity = {
  policy: {
    cap: { group: 'apps', max: (config) => config.security.caps.apps, message: 'capApps' },
    recentSignsIn: true,
    recovery: false,
  },
  routes,
  overview: (ctx, credentials) => {
    const items = credentials.map((c) => appItem(ctx, c));
    return { items, lists: { authenticators: items } };
  },
  remove: { route: 'generic', event: 'security.credential-removed', notice: 'credentialRemoved' },
};
