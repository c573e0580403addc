import {
  paths,
  rememberData,
  rememberPostRequest,
  rememberPutRequest,
  type SavedUsername,
  Status,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { compiledQuery } from '../db/compiled.ts';
import type { DB } from '../db/database.ts';
import { sha256 } from '../lib/crypto.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { findAccount } from '../services/accounts.ts';
import { deviceKey, issueDeviceCookie } from '../services/cookies.ts';
import { browserSubject } from '../services/session-guard.ts';

/** The saved usernames of a device, most recently used first: built and compiled once (db/compiled.ts). */
const savedUsernamesQuery = compiledQuery((db: DB, device: string) =>
  db
    .selectFrom('remembered_usernames as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select(['r.id', 'a.username'])
    .where('r.device_key', '=', device)
    .orderBy('r.last_used_at', 'desc')
    .orderBy('r.created_at', 'desc'),
);

/** The saved usernames of a device, most recently used first, as the widget lists them. */
async function savedUsernames(db: DB, device: string | undefined): Promise<SavedUsername[]> {
  if (!device) return [];
  const { rows } = await savedUsernamesQuery(db, device);
  return rows.map((row, index) => ({ friendlyName: row.username, value: row.username, index, id: row.id }));
}

/**
 * Remember username: the usernames saved on a device (widget spec §2 login, §7). A device is its
 * long-lived HttpOnly GH_DEVICE cookie; an entry names the account, so it follows a username
 * change. Saving needs a live session of that account; the answers never tell whether an unsaved
 * username exists.
 */
export async function rememberPlugin(app: FastifyInstance, ctx: Context) {
  const { db, clock, config } = ctx;

  const listed = (usernames: SavedUsername[]) => ({ successData: { usernames } });

  defineRoute(app, {
    method: 'GET',
    path: paths.rememberUsername,
    tag: 'identity',
    summary: 'The usernames saved on this device, most recently used first.',
    successData: rememberData,
    handler: async ({ request, reply }) => {
      const usernames = await savedUsernames(db, deviceKey(ctx, request));
      const message = usernames.length ? 'userIdentified' : 'userNotIdentified';
      return answer(request, reply, Status.SUCCESS, { message, ...listed(usernames) });
    },
  });

  defineRoute(app, {
    method: 'PUT',
    path: paths.rememberUsername,
    tag: 'identity',
    summary: 'ADD saves the username of the current sign-in on this device; DELETE removes it.',
    body: rememberPutRequest,
    successData: rememberData,
    handler: async ({ request, reply, body }) => {
      if (body.operation === 'DELETE') {
        const device = deviceKey(ctx, request);
        const account = device ? await findAccount(db, body.username) : undefined;
        if (device && account) {
          await db
            .deleteFrom('remembered_usernames')
            .where('device_key', '=', device)
            .where('account_id', '=', account.id)
            .execute();
        }
        return answer(request, reply, Status.SUCCESS, {
          message: 'usernameForgotten',
          ...listed(await savedUsernames(db, device)),
        });
      }

      // ADD: only the username of this browser's own live session.
      const session = await browserSubject(ctx, request);
      const account = session ? await findAccount(db, body.username) : undefined;
      if (!session || !account || account.id !== session.accountId) {
        return answer(request, reply, Status.FORBIDDEN);
      }
      let device = deviceKey(ctx, request);
      if (!device) {
        // A session request never got the anonymous cookie from the security hook: set it here.
        device = sha256(issueDeviceCookie(ctx, reply));
      }
      const now = clock.now();
      const key = device;
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('remembered_usernames')
          .values({ device_key: key, account_id: account.id, created_at: now, last_used_at: now })
          .onConflict((oc) => oc.columns(['device_key', 'account_id']).doUpdateSet({ last_used_at: now }))
          .execute();
        // At most REMEMBER_MAX per device: the least recently used drop.
        await sql`
          delete from remembered_usernames
          where device_key = ${key}
            and id not in (
              select id from remembered_usernames where device_key = ${key}
              order by last_used_at desc, created_at desc
              limit ${config.rememberMax})`.execute(tx);
      });
      request.log.info({ account: account.id }, 'username saved on device');
      return answer(request, reply, Status.SUCCESS, {
        message: 'usernameRemembered',
        ...listed(await savedUsernames(db, key)),
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.rememberUsername,
    tag: 'identity',
    summary: 'Marks a username saved on this device as the most recently used one.',
    body: rememberPostRequest,
    successData: rememberData,
    handler: async ({ request, reply, body }) => {
      const device = deviceKey(ctx, request);
      const account = device ? await findAccount(db, body.username) : undefined;
      const updated =
        device && account
          ? await db
              .updateTable('remembered_usernames')
              .set({ last_used_at: clock.now() })
              .where('device_key', '=', device)
              .where('account_id', '=', account.id)
              .executeTakeFirst()
          : undefined;
      if (!updated || updated.numUpdatedRows === 0n) return answer(request, reply, Status.FORBIDDEN);
      return answer(request, reply, Status.SUCCESS, listed(await savedUsernames(db, device)));
    },
  });
}
