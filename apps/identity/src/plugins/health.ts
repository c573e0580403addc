import { healthResponse, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { classifyDatabaseError, DatabaseUnavailable, databaseErrorFields } from '../db/faults.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';

export async function healthPlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'GET',
    path: paths.health,
    tag: 'operations',
    summary: 'The process is up.',
    rawResponse: healthResponse,
    handler: async ({ request, reply }) => answer(request, reply, Status.SUCCESS, { body: { status: 'ok' } }),
  });
  defineRoute(app, {
    method: 'GET',
    path: paths.live,
    tag: 'operations',
    summary:
      "A load balancer's liveness probe: the process is up. No cookie, no CSRF token and no info log line (GET /api/health stays for people and browsers).",
    rawResponse: healthResponse,
    handler: async ({ request, reply }) => answer(request, reply, Status.SUCCESS, { body: { status: 'ok' } }),
  });
  defineRoute(app, {
    method: 'GET',
    path: paths.ready,
    tag: 'operations',
    summary: 'The database answers within DB_READY_TIMEOUT_MS (503 with code 5003 when it does not).',
    rawResponse: healthResponse,
    handler: async ({ request, reply }) => {
      const { readyTimeoutMs } = ctx.config.database;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DatabaseUnavailable('TIMEOUT', `no answer within ${readyTimeoutMs} ms`)),
          readyTimeoutMs,
        );
      });
      try {
        // The check that loses the race still ends, by the pool's own timeouts.
        const check = sql`select 1`.execute(ctx.db);
        check.catch(() => {});
        await Promise.race([check, timeout]);
      } catch (error) {
        const fault = classifyDatabaseError(error);
        request.log.error({ db: databaseErrorFields(fault) }, 'readiness check failed');
        // Any failure of the check means "not ready": 503 with 5003, whatever the cause.
        const { errorCode, message } = databaseErrorFields(fault);
        throw fault instanceof DatabaseUnavailable ? fault : new DatabaseUnavailable(errorCode, message);
      } finally {
        clearTimeout(timer);
      }
      return answer(request, reply, Status.SUCCESS, { body: { status: 'ok' } });
    },
  });
}
