import {
  credentialRemoveRequest,
  Status,
  securityOverviewData,
  securityPaths,
  sessionEndData,
  sessionEndRequest,
  trustedBrowserRevokeData,
  trustedBrowserRevokeRequest,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { factorSecurities } from './factor-lookup.ts';
import { auditChange, noticeChange, overview, removeCredential } from './service.ts';

/**
 * The portal's security page (`#/security`; docs/decisions/025-security-page-api.md): its calls
 * under /api/user/security, each behind the signed-in session and a step-up within
 * SECURITY_STEPUP_MINUTES (each declares `auth: 'steppedUp'`, plugins/guards.ts). The page's own calls are here: the
 * overview, the generic removal, trusted browsers and sessions; each factor adds its enrolment and
 * confirmation calls from its security part (factor-security.ts; docs/decisions/036-factor-modules.md).
 */
export async function securityPagePlugin(app: FastifyInstance, ctx: Context) {
  const tag = 'security';

  defineRoute(app, {
    method: 'GET',
    path: securityPaths.securityOverview,
    tag,
    summary:
      "The security page: the account's authenticator apps, push devices, tokens, phones, e-mail addresses, trusted browsers, signed-in sessions and recent security activity; stepUpExpiresAt.",
    successData: securityOverviewData,
    auth: 'steppedUp',
    handler: async ({ request, reply, auth: guarded }) => {
      return answer(request, reply, Status.SUCCESS, { successData: await overview(ctx, request, guarded) });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityCredentialRemove,
    tag,
    summary:
      "Remove an authenticator app, token or push device of this account (a credential of any factor that removes through this call); never the account's last usable second factor.",
    body: credentialRemoveRequest,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth }) =>
      removeCredential(ctx, request, reply, auth, body.id, 'generic'),
  });

  // Each factor's own calls: its enrolment and confirmation (factors/<key>/security.ts).
  for (const { security } of factorSecurities()) await security.routes?.(app, ctx);

  // --- trusted browsers and sessions -------------------------------------------------------------------
  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityTrustedBrowserRevoke,
    tag,
    summary:
      'Stop trusting one browser ({ id }) or every browser ({ all: true }) of this account: each must pass the second factor again at sign-in.',
    body: trustedBrowserRevokeRequest,
    successData: trustedBrowserRevokeData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: { account } }) => {
      const all = 'all' in body;
      const notice = all ? 'trustedBrowsersRevoked' : 'trustedBrowserRevoked';
      const revoked = await ctx.db.transaction().execute(async (tx) => {
        let query = tx.deleteFrom('trusted_devices').where('account_id', '=', account.id);
        if ('id' in body) query = query.where('id', '=', body.id);
        const n = Number((await query.executeTakeFirst()).numDeletedRows);
        if ('id' in body && n === 0) return 0;
        await auditChange(ctx, request, tx, account.id, {
          event: 'security.trusted-browser-revoked',
          notice,
          detail: { revoked: n, all },
        });
        return n;
      });
      if ('id' in body && revoked === 0) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      // Nothing was trusted: nothing changed, so no notice.
      if (revoked > 0) await noticeChange(ctx, request, account, notice);
      return answer(request, reply, Status.SUCCESS, {
        message: all ? 'trustedBrowsersRevoked' : 'trustedBrowserRevoked',
        successData: { revoked },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securitySessionEnd,
    tag,
    summary:
      'End another signed-in session of this account ({ id }: its cookie stops working) or all of them but this one ({ allOthers: true }).',
    body: sessionEndRequest,
    successData: sessionEndData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: { account, session } }) => {
      let ended: number;
      const allOthers = 'allOthers' in body;
      const change = (n: number) =>
        ({
          event: 'security.session-ended',
          notice: allOthers ? 'otherSessionsEnded' : 'sessionEnded',
          detail: { ended: n, allOthers },
        }) as const;
      if ('id' in body) {
        if (body.id === session.public_id) return answer(request, reply, Status.FORBIDDEN);
        ended = await ctx.db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('sessions')
            .set({ ended_at: ctx.clock.now(), end_reason: 'ended-by-owner' })
            .where('account_id', '=', account.id)
            .where('public_id', '=', body.id)
            .where('id', '!=', session.id)
            .where('ended_at', 'is', null)
            .executeTakeFirst();
          const n = Number(result.numUpdatedRows);
          if (n > 0) await auditChange(ctx, request, tx, account.id, change(n));
          return n;
        });
        if (ended === 0) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      } else {
        // Count, end and audit in one transaction under the account's row: the audit row never
        // misses a change that happened, nor records one that did not.
        ended = await ctx.sessions.underAccount(account.id, 'update', async (sessions, tx) => {
          const live = await tx
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('account_id', '=', account.id)
            .where('id', '!=', session.id)
            .where('ended_at', 'is', null)
            .executeTakeFirstOrThrow();
          const n = Number(live.n);
          // Their sign-ins and step-ups in flight end with them (services/sessions.ts).
          await sessions.endAll(account.id, 'ended-by-owner', { sessionId: session.id });
          await auditChange(ctx, request, tx, account.id, change(n));
          return n;
        });
      }
      // Nothing ended (no other session): nothing to tell the owner.
      if (ended > 0) await noticeChange(ctx, request, account, change(ended).notice);
      return answer(request, reply, Status.SUCCESS, {
        message: allOthers ? 'otherSessionsEnded' : 'sessionEnded',
        successData: { ended },
      });
    },
  });
}
