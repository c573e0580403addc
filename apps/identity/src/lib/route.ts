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
import { type GuardName, type Guards, guards } from '../plugins/guards.ts';
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
  /** Who may call it (plugins/guards.ts): checked by a hook of the route before the handler. */
  auth?: GuardName;
};

/** A registered route's documentation with its outcome table from the contract. */
export type RegisteredRoute = RouteDoc & { call: AnyCallName; table: OutcomeTable };

export type RouteDef<B extends z.ZodType, Q extends z.ZodType, A extends GuardName | undefined> = Omit<
  RouteDoc,
  'body' | 'query' | 'auth'
> & {
  body?: B;
  query?: Q;
  auth?: A;
  handler: (ctx: {
    request: FastifyRequest;
    reply: FastifyReply;
    body: z.infer<B>;
    query: z.infer<Q>;
    /** What the route's guard resolved (the session, the factor journey, the staff member…). */
    auth: A extends GuardName ? Guards[A] : undefined;
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
    /** The route answers an HTML page (its table's body is 'html'): it gets the documents' headers. */
    page?: boolean;
  }
}

/**
 * Registers a contract route: the body and query are parsed with the contract's zod schemas
 * (a failure is the 400 envelope), its outcome table is taken from the contract by method and
 * path (a route without one does not start), its guard (`auth`) becomes a hook of the route,
 * and the route is recorded for /api/openapi.json.
 */
export function defineRoute<
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  A extends GuardName | undefined = undefined,
>(app: FastifyInstance, def: RouteDef<B, Q, A>) {
  const { handler, ...rest } = def;
  const call = anyCallOf(def.method, def.path);
  const table: OutcomeTable | undefined = call ? allOutcomeTables[call] : undefined;
  if (!call || !table) {
    throw new Error(`${def.method} ${def.path} has no outcome table in packages/contract/src/outcomes.ts`);
  }
  const doc: RegisteredRoute = { ...rest, call, table };
  // Per app, not per process: two apps in one process (tests, a production and a development
  // instance) each document only the routes they registered.
  const docs = app.routeDocs;
  if (!docs.some((d) => d.method === doc.method && d.path === doc.path)) docs.push(doc);
  const guard = def.auth ? guards[def.auth] : undefined;
  app.route({
    method: def.method,
    url: API_BASE + def.path,
    config: {
      outcomes: { route: `${def.method} ${API_BASE}${def.path}`, codes: outcomesOf(table) },
      ...(table.body === 'html' ? { page: true } : {}),
      ...(def.auth ? { auth: def.auth } : {}),
    },
    ...(guard ? { [guard.phase]: async (request: FastifyRequest) => void (await guard.check(request)) } : {}),
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
      // The language only names a refusal of the body or query: read when there is one to parse.
      const body = def.body ? parse(def.body, request.body, 'body', requestLanguage(request)) : undefined;
      const query = def.query
        ? parse(def.query, request.query, 'query', requestLanguage(request))
        : undefined;
      const auth = (guard ? guard.read(request) : undefined) as A extends GuardName ? Guards[A] : undefined;
      return handler({ request, reply, body: body as z.infer<B>, query: query as z.infer<Q>, auth });
    },
  });
}
