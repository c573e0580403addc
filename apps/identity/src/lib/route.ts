import {
  type AnyCallName,
  API_BASE,
  allOutcomeTables,
  anyCallOf,
  type Codes,
  type OutcomeTable,
  outcomesOf,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parse } from './http.ts';
import { requestLanguage } from './language.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RouteDoc = {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  successData?: z.ZodType;
  /** The 200 body is this schema itself, not an envelope (health, outbox). */
  rawResponse?: z.ZodType;
};

/** A registered route's documentation with its outcome table from the contract. */
export type RegisteredRoute = RouteDoc & { call: AnyCallName; table: OutcomeTable };

export type RouteDef<B extends z.ZodType, Q extends z.ZodType> = Omit<RouteDoc, 'body' | 'query'> & {
  body?: B;
  query?: Q;
  handler: (ctx: {
    request: FastifyRequest;
    reply: FastifyReply;
    body: z.infer<B>;
    query: z.infer<Q>;
  }) => Promise<unknown>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route this app answers, for its OpenAPI document (decorated once in app.ts). */
    routeDocs: RegisteredRoute[];
  }
  interface FastifyContextConfig {
    /** The route's outcome table (the generic answers included), read by the answer check. */
    outcomes?: { route: string; codes: Codes };
  }
}

/**
 * Registers a contract route: the body and query are parsed with the contract's zod schemas
 * (a failure is the 400 envelope), its outcome table is taken from the contract by method and
 * path (a route without one does not start), and the route is recorded for /api/openapi.json.
 */
export function defineRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  app: FastifyInstance,
  def: RouteDef<B, Q>,
) {
  const { handler, ...rest } = def;
  const call = anyCallOf(def.method, def.path);
  const table: OutcomeTable | undefined = call ? allOutcomeTables[call] : undefined;
  if (!call || !table || table.unserved) {
    throw new Error(`${def.method} ${def.path} has no outcome table in packages/contract/src/outcomes.ts`);
  }
  const doc: RegisteredRoute = { ...rest, call, table };
  // Per app, not per process: two apps in one process (tests, a production and a development
  // instance) each document only the routes they registered.
  const docs = app.routeDocs;
  if (!docs.some((d) => d.method === doc.method && d.path === doc.path)) docs.push(doc);
  app.route({
    method: def.method,
    url: API_BASE + def.path,
    config: { outcomes: { route: `${def.method} ${API_BASE}${def.path}`, codes: outcomesOf(table) } },
    // For the OpenAPI document (@fastify/swagger with fastify-type-provider-zod's transform). The
    // body and query are parsed in the handler, as before (docs/decisions/016): Fastify's own
    // validation step lets everything through, untouched (`true`, not a value that would replace it).
    schema: {
      summary: def.summary,
      tags: [def.tag],
      ...(def.body ? { body: def.body } : {}),
      ...(def.query ? { querystring: def.query } : {}),
    },
    validatorCompiler: () => () => true,
    handler: async (request, reply) => {
      const language = requestLanguage(request);
      const body = def.body ? parse(def.body, request.body, 'body', language) : undefined;
      const query = def.query ? parse(def.query, request.query, 'query', language) : undefined;
      return handler({ request, reply, body: body as z.infer<B>, query: query as z.infer<Q> });
    },
  });
}
