import { outboxQuery, outboxResponse, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';

/** Development companion: every e-mail, text and voice message the service sent, newest first. */
export async function outboxPlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'GET',
    path: paths.devOutbox,
    tag: 'development',
    summary: 'Development mode only: messages sent to an address or number, newest first.',
    query: outboxQuery,
    rawResponse: outboxResponse,
    handler: async ({ request, reply, query }) => {
      const rows = await ctx.db
        .selectFrom('outbox')
        .selectAll()
        .where('recipient', '=', query.to)
        .orderBy('sent_at', 'desc')
        .limit(50)
        .execute();
      return answer(request, reply, Status.SUCCESS, {
        body: {
          messages: rows.map((r) => ({
            channel: r.channel,
            to: r.recipient,
            text: r.text,
            code: r.code,
            sentAt: new Date(r.sent_at).toISOString(),
          })),
        },
      });
    },
  });
}
