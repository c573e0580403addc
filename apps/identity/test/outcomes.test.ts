import { readFileSync } from 'node:fs';
import {
  type AnyCallName,
  API_BASE,
  allOutcomeTables,
  type Codes,
  type OutcomeTable,
  outcomeDoc,
  outcomesOf,
  outcomeTables,
  paths,
  Status,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { API_DOC, generateApiDoc } from '../src/lib/api-doc.ts';
import { ApiError, answer, failure } from '../src/lib/http.ts';
import { defineRoute } from '../src/lib/route.ts';
import {
  api,
  productionMail,
  productionSecret,
  registeredRoutes,
  targets,
  useHarness,
} from './support/harness.ts';

/** Issue 10 point 4: the outcome tables of packages/contract/src/outcomes.ts against the server and the clients. */

const tables = Object.entries(allOutcomeTables) as Array<[AnyCallName, OutcomeTable]>;
const key = (method: string, url: string) => `${method} ${url}`;

/** Every call of both specs' §7 tables (widget spec §7 with its "also declared" enrollment; portal spec §7). */
const specCalls: Array<[string, string]> = [
  ['POST', paths.passwordAuthentication],
  ['POST', paths.sessionLogin],
  ['DELETE', paths.sessionLogout],
  ['GET', paths.rememberUsername],
  ['PUT', paths.rememberUsername],
  ['POST', paths.rememberUsername],
  ['GET', paths.identityAttributes],
  ['POST', paths.identifyUsername],
  ['PUT', paths.changeUsername],
  ['POST', paths.otpSms],
  ['POST', paths.otpVoice],
  ['POST', paths.otpEmail],
  ['PUT', paths.otpSms],
  ['PUT', paths.otpVoice],
  ['PUT', paths.otpEmail],
  ['PUT', paths.otpRep],
  ['GET', paths.otpState],
  ['GET', paths.svipStatus],
  ['POST', paths.svipAuthentication],
  ['POST', paths.svipSynchronization],
  ['POST', paths.totpAuthentication],
  ['POST', paths.pushAuthentication],
  ['POST', paths.pushStatus],
  ['POST', paths.trustedDevice],
  ['POST', paths.sessionUpdate],
  ['POST', paths.sessionExtend],
  ['POST', paths.clientLogs],
  ['POST', paths.passwordStatus],
  ['PUT', paths.passwordEnrollment],
  ['POST', paths.passwordEnrollment],
];

describe('outcome tables against the clients', () => {
  test('a code the server does not send has a client action and a reason; every code has a description', () => {
    for (const [call, table] of tables) {
      for (const [code, entry] of Object.entries(table.codes as Codes)) {
        expect(outcomeDoc(call, Number(code)), `${call} ${code}`).not.toBe('');
        if (entry.unsent) {
          expect(entry.action, `${call} ${code} is neither sent nor read`).toBeDefined();
          expect(outcomeDoc(call, Number(code)), `${call} ${code}`).toMatch(/^Not sent/);
        } else if (entry.http !== 204 && !table.body) {
          expect(entry.message, `${call} ${code} has no message`).toBeDefined();
        }
      }
    }
  });

  test('docs/api.md is what `npm run docs:api` writes from the tables now', () => {
    const current = readFileSync(API_DOC, 'utf8');
    expect(generateApiDoc(current) === current, 'docs/api.md is stale: run npm run docs:api').toBe(true);
    for (const [call, table] of tables) {
      expect(current).toContain(`<!-- outcomes:${call} `);
      expect(current).toContain(`\`${table.method} ${API_BASE}${table.path}\``);
    }
  });

  test('the generator refuses a page where a table has no block', () => {
    const current = readFileSync(API_DOC, 'utf8');
    const without = current.replace(/<!-- outcomes:rememberPost [\s\S]*?<!-- \/outcomes -->/, '');
    expect(() => generateApiDoc(without)).toThrow(/rememberPost has 0 blocks/);
  });
});

type Operation = {
  requestBody?: { content: { 'application/json': { schema: object } } };
  parameters?: unknown[];
  responses: Record<string, { 'x-status-codes': number[]; content?: Record<string, { schema: object }> }>;
  'x-outcomes': Array<{ code: number; http: number; sent?: false }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
};

/** A route of a contract path (here the outbox, which a production app does not register) answering as told. */
function misbehavingRoute(app: FastifyInstance) {
  defineRoute(app, {
    method: 'GET',
    path: paths.devOutbox,
    tag: 'test',
    summary: 'Answers what the test asks for.',
    handler: async ({ request, reply }) => {
      const { kind } = request.query as { kind?: string };
      if (kind === 'outside')
        return failure(request, reply, new ApiError(200, Status.FORBIDDEN, 'not in the table'));
      if (kind === 'wrongHttp') return failure(request, reply, new ApiError(503, Status.SUCCESS, 'odd'));
      if (kind === 'message') return answer(request, reply, Status.SUCCESS, { message: 'success' });
      if (kind === 'thrown') throw new ApiError(200, Status.INCORRECT_CODE, 'thrown');
      if (kind === 'generic') throw new ApiError(429, Status.RATE_LIMITED, 'wait');
      return answer(request, reply, Status.SUCCESS, { body: { messages: [] } });
    },
  });
}

describe.each(targets)('outcome tables against the server ($name)', (target) => {
  const h = useHarness(target);

  test('every route the app registers has a table, and every table a route', async () => {
    const { app } = await h.start({ DEV_COMPANIONS: 'true' });
    await app.ready();
    const registered = registeredRoutes(app)
      .filter((route) => route.url.startsWith(`${API_BASE}/`))
      .map((route) => key(route.method, route.url));
    const expected = tables.map(([, table]) => key(table.method, API_BASE + table.path));
    expect(registered.sort()).toEqual(expected.sort());
    // A route without a table does not start.
    const { app: other } = await h.start();
    expect(() =>
      defineRoute(other, {
        method: 'POST',
        path: '/user/factor/unknown/authentication',
        tag: 'test',
        summary: 'not served',
        handler: async () => undefined,
      }),
    ).toThrow(/POST \/user\/factor\/unknown\/authentication has no outcome table/);
  });

  test('an answer outside its table fails loudly in development and test: 500, Unknown error, a log line naming route and code', async () => {
    const { app, logs } = await h.start({ DEV_COMPANIONS: 'false' });
    misbehavingRoute(app);
    const url = api(paths.devOutbox);

    const good = await app.inject({ method: 'GET', url: `${url}?kind=fine` });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ messages: [] });
    const generic = await app.inject({ method: 'GET', url: `${url}?kind=generic` });
    expect(generic.statusCode).toBe(429);
    expect(generic.json().responseBaseInfo.status.code).toBe(Status.RATE_LIMITED);

    for (const [kind, code] of [
      ['outside', Status.FORBIDDEN],
      ['wrongHttp', Status.SUCCESS],
      ['message', Status.SUCCESS],
      ['thrown', Status.INCORRECT_CODE],
    ] as const) {
      const r = await app.inject({ method: 'GET', url: `${url}?kind=${kind}` });
      expect(r.statusCode, kind).toBe(500);
      expect(r.json().responseBaseInfo.status, kind).toEqual({ code: 5000, message: 'Unknown error' });
      expect(r.json().errorType, kind).toBe('SYSTEM_ERROR');
      const line = logs
        .map((l) => JSON.parse(l) as { level: number; msg: string; route?: string; code?: number })
        .find((l) => l.msg === 'answer outside the outcome table' && l.code === code && l.level === 50);
      expect(line, kind).toMatchObject({ route: `GET ${url}`, code });
      logs.length = 0;
    }
  });

  test('production: an answer outside its table is logged as an error and answered as the code would be', async () => {
    const { app, logs } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
    });
    misbehavingRoute(app);
    const r = await app.inject({ method: 'GET', url: `${api(paths.devOutbox)}?kind=outside` });
    expect(r.statusCode).toBe(200);
    expect(r.json().responseBaseInfo.status).toEqual({ code: Status.FORBIDDEN, message: 'not in the table' });
    const line = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.code === Status.FORBIDDEN);
    expect(line).toMatchObject({
      level: 50,
      msg: 'answer outside the outcome table',
      route: `GET ${api(paths.devOutbox)}`,
    });
  });

  test('the OpenAPI document: every path of both specs §7, request and response schemas, every code of the table', async () => {
    const { app } = await h.start({ DEV_COMPANIONS: 'true' });
    const doc = (await app.inject({ method: 'GET', url: api(paths.openapi) })).json() as Document;

    for (const [method, path] of specCalls) {
      const operation = doc.paths[API_BASE + path]?.[method.toLowerCase()];
      expect(operation, `${method} ${path}`).toBeDefined();
    }

    for (const [call, table] of tables) {
      const operation = doc.paths[API_BASE + table.path]?.[table.method.toLowerCase()];
      expect(operation, call).toBeDefined();
      if (!operation) continue;
      const outcomes = outcomesOf(table);
      // The whole table, unsent codes included, and each code it sends under its HTTP status.
      expect(operation['x-outcomes'].map((o) => o.code).sort(), call).toEqual(
        Object.keys(outcomes).map(Number).sort(),
      );
      for (const [code, entry] of Object.entries(outcomes)) {
        if (entry.unsent) continue;
        for (const http of [entry.http, ...(entry.alsoHttp ?? [])]) {
          expect(
            operation.responses[String(http)]?.['x-status-codes'],
            `${call} ${code} HTTP ${http}`,
          ).toContain(Number(code));
        }
      }
      for (const [http, response] of Object.entries(operation.responses)) {
        if (http === '204') expect(response.content, call).toBeUndefined();
        else expect(Object.values(response.content ?? {})[0]?.schema, `${call} ${http}`).toBeDefined();
      }
      if (table.method !== 'GET')
        expect(operation.requestBody?.content['application/json'].schema, call).toBeDefined();
    }
    for (const call of ['attributes', 'otpState', 'devOutbox'] as const) {
      const table = outcomeTables[call];
      expect(doc.paths[API_BASE + table.path]!.get!.parameters?.length, call).toBeGreaterThan(0);
    }
    // A success with data: its envelope schema names successData's fields.
    const change = doc.paths[api(paths.changeUsername)]!.put!.responses['200']!.content!['application/json']!
      .schema as { properties: { successData: { properties: Record<string, unknown> } } };
    expect(Object.keys(change.properties.successData.properties)).toEqual(['username']);
  });
});
