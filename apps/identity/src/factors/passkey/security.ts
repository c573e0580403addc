import { createHmac } from 'node:crypto';
import { Status } from '@gatehouse/contract';
import {
  passkeyOptionsRequest,
  passkeyPaths,
  passkeyRegistrationData,
  passkeyRegistrationRequest,
} from '@gatehouse/contract/factors/passkey';
import {
  type AuthenticatorTransportFuture,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import type { Credential } from '../../credentials/store.ts';
import { answer } from '../../lib/http.ts';
import { defineRoute } from '../../lib/route.ts';
import { capReached } from '../../security/credential-policy.ts';
import type { FactorSecurity } from '../../security/factor-security.ts';
import { appItem, auditChange, capRefusal, limitAccount, noticeChange } from '../../security/service.ts';
import { originsFor, signedChallenge } from './routes.ts';
import { passkeySettingsOf } from './settings.ts';
import { PasskeyChallenges, type PasskeyData, passkeyById, passkeyData } from './store.ts';

/**
 * The passkey on the portal's security page (after its step-up, as every security call): the
 * registration ceremony (options, then the authenticator's response), listing (the overview's
 * `credentials.passkey`) and removal (the generic credential-remove call).
 */

/**
 * The WebAuthn user handle of an account: opaque (an HMAC of its id under the service's pepper),
 * the same for every passkey of the account, never the username (W3C WebAuthn §14.6.1).
 */
export const userHandle = (ctx: Context, accountId: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(createHmac('sha256', ctx.config.otp.pepper).update(`passkey-user:${accountId}`).digest());

function routes(app: FastifyInstance, ctx: Context) {
  const settings = passkeySettingsOf(ctx.config);
  const challenges = new PasskeyChallenges(ctx);
  const tag = 'security';

  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.securityPasskeyOptions,
    tag,
    summary:
      "Start adding a passkey: PublicKeyCredentialCreationOptionsJSON (attestation 'none', resident key and user verification required, excludeCredentials the account's passkeys, an opaque user handle), its challenge bound to this session for PASSKEY_CHALLENGE_SECONDS.",
    body: passkeyOptionsRequest,
    auth: 'steppedUp',
    handler: async ({ request, reply, auth: { account, session } }) => {
      await limitAccount(ctx, request, account.id);
      const held = await ctx.credentials.list(account.id);
      if (capReached(ctx, held, 'passkey')) return capRefusal(ctx, request, reply, 'passkey');
      const options = await generateRegistrationOptions({
        rpName: settings.rpName,
        rpID: settings.rpId,
        userName: account.username,
        userDisplayName: account.display_name || account.username,
        userID: userHandle(ctx, account.id),
        attestationType: 'none',
        excludeCredentials: held
          .filter((c) => c.kind === 'passkey')
          .map((c) => ({
            id: c.publicPart ?? '',
            transports: passkeyData(c).transports as AuthenticatorTransportFuture[],
          })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: settings.challengeMs,
      });
      await challenges.issue({
        purpose: 'register',
        challenge: options.challenge,
        binding: `session:${session.id}`,
        accountId: account.id,
        ttlMs: settings.challengeMs,
      });
      return answer(request, reply, Status.SUCCESS, { successData: { options } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.securityPasskeys,
    tag,
    summary:
      "Add a passkey: the authenticator's response to this session's registration challenge, named by the customer (1-40 characters); it becomes a credential of the account (kind passkey). An audit event and an e-mail notice.",
    body: passkeyRegistrationRequest,
    successData: passkeyRegistrationData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: { account, session } }) => {
      await limitAccount(ctx, request, account.id);
      const challenge = signedChallenge(body.response.response.clientDataJSON);
      const used = challenge
        ? await challenges.consume('register', `session:${session.id}`, { challenge })
        : undefined;
      if (!challenge || !used || used.account_id !== account.id) {
        return answer(request, reply, Status.INCORRECT_CODE, { message: 'passkeyChallengeExpired' });
      }
      let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
      try {
        const result = await verifyRegistrationResponse({
          response: body.response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: originsFor(ctx, body.response.response.clientDataJSON),
          expectedRPID: settings.rpId,
          requireUserVerification: true,
        });
        info = result.verified ? result.registrationInfo : undefined;
      } catch (error) {
        request.log.info(
          { account: account.id, reason: (error as Error).message },
          'passkey: registration refused',
        );
        info = undefined;
      }
      if (!info) return answer(request, reply, Status.INCORRECT_CODE, { message: 'passkeyNotVerified' });
      const exists = () => answer(request, reply, Status.CONTACT_EXISTS, { message: 'passkeyExists' });
      if (await passkeyById(ctx, info.credential.id)) return exists();

      const data: PasskeyData = {
        publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
        counter: info.credential.counter,
        transports: info.credential.transports ?? body.response.response.transports ?? [],
        backedUp: info.credentialBackedUp,
        deviceType: info.credentialDeviceType,
        aaguid: info.aaguid,
      };
      // Under the account's row: of concurrent additions, the cap admits as many as it has room for.
      const added = await ctx.sessions
        .underAccount(account.id, 'update', async (_s, tx) => {
          if (capReached(ctx, await ctx.credentials.withDb(tx).list(account.id), 'passkey'))
            return 'cap' as const;
          const credential = await ctx.credentials.withDb(tx).add({
            accountId: account.id,
            kind: 'passkey',
            name: body.name,
            publicPart: info.credential.id,
            data,
          });
          await auditChange(ctx, request, tx, account.id, {
            event: 'security.authenticator-added',
            notice: 'credentialAdded',
            detail: { kind: 'passkey', name: credential.name },
          });
          return credential;
        })
        .catch(async (error) => {
          // The same passkey added by a concurrent request (the unique index of 031_passkeys).
          if (await passkeyById(ctx, info.credential.id)) return 'exists' as const;
          throw error;
        });
      if (added === 'cap') return capRefusal(ctx, request, reply, 'passkey');
      if (added === 'exists') return exists();
      await noticeChange(ctx, request, account, 'credentialAdded');
      request.log.info({ account: account.id }, 'security: passkey added');
      return answer(request, reply, Status.SUCCESS, { successData: { passkey: appItem(ctx, added) } });
    },
  });
}

/**
 * The passkey on the security page: counted with the apps (CREDENTIAL_MAX_APPS), a recent one signs
 * in but never opens the page or a step-up, listed as `credentials.passkey`, removed through the
 * generic removal.
 */
export const security: FactorSecurity = {
  policy: {
    cap: { group: 'apps', max: (config) => config.security.caps.apps, message: 'capApps' },
    recentSignsIn: true,
    recovery: false,
  },
  routes,
  overview: (ctx, credentials: Credential[]) => ({ items: credentials.map((c) => appItem(ctx, c)) }),
  remove: { route: 'generic', event: 'security.credential-removed', notice: 'credentialRemoved' },
};
