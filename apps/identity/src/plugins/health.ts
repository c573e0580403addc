import { healthResponse, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { defineRoute } from '../lib/route.ts';

export async function healthPlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'GET',
    path: paths.health,
    tag: 'operations',
    summary: 'The process is up.',
    codes: {},
    rawResponse: healthResponse,
    handler: async ({ reply }) => reply.send({ status: 'ok' }),
  });
  defineRoute(app, {
    method: 'GET',
    path: paths.ready,
    tag: 'operations',
    summary: 'The database answers (503 when it does not).',
    codes: {},
    rawResponse: healthResponse,
    handler: async ({ request, reply }) => {
      try {
        await sql`select 1`.execute(ctx.db);
        return reply.send({ status: 'ok' });
      } catch (error) {
        request.log.error({ err: error }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  });
}
