import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import {
  type AnyCallName,
  API_BASE,
  anyEnvelopeSchema,
  envelopeSchema,
  type Outcome,
  type OutcomeTable,
  outcomeDoc,
  outcomeMessages,
  outcomesOf,
  paths,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describeAction } from '../lib/api-doc.ts';
import { answer } from '../lib/http.ts';
import { defineRoute, type RegisteredRoute } from '../lib/route.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** The texts of an outcome's message keys, as the envelope carries them (placeholders shown). */
const texts = (outcome: Outcome) => outcomeMessages(outcome).map((key) => serverMessages[key]);

/** The full outcome table of a call as the document's `x-outcomes` lists it, every code included. */
function outcomeList(call: AnyCallName, table: OutcomeTable) {
  return Object.entries(outcomesOf(table)).map(([code, outcome]) => ({
    code: Number(code),
    http: outcome.http,
    ...(outcome.alsoHttp ? { alsoHttp: outcome.alsoHttp } : {}),
    messages: texts(outcome),
    failure: outcome.failure === true,
    ...(outcome.action ? { clientAction: describeAction(outcome.action) } : {}),
    ...(outcome.unsent ? { sent: false } : {}),
    description: outcomeDoc(call, Number(code)),
  }));
}

/** The responses of a call by HTTP status: each lists its codes (`x-status-codes`) and their meaning. */
function responsesOf(
  call: AnyCallName,
  table: OutcomeTable,
  schemas: { successData?: z.ZodType; rawResponse?: z.ZodType },
) {
  const byHttp = new Map<number, number[]>();
  for (const [code, outcome] of Object.entries(outcomesOf(table))) {
    if (outcome.unsent) continue;
    for (const http of [outcome.http, ...(outcome.alsoHttp ?? [])]) {
      byHttp.set(http, [...(byHttp.get(http) ?? []), Number(code)]);
    }
  }
  const responses: Record<string, unknown> = {};
  for (const [http, codes] of [...byHttp].sort(([a], [b]) => a - b)) {
    const description = codes.map((code) => `${code}: ${outcomeDoc(call, code)}`).join('; ');
    let content: Record<string, unknown> | undefined;
    if (http === 204) content = undefined;
    else if (http === 200 && table.body === 'html') content = { 'text/html': { schema: { type: 'string' } } };
    else if (http === 200 && table.body === 'raw')
      content = { 'application/json': { schema: schemas.rawResponse ? json(schemas.rawResponse) : {} } };
    else {
      const schema =
        http === 200 && schemas.successData ? envelopeSchema(schemas.successData) : anyEnvelopeSchema;
      content = { 'application/json': { schema: json(schema) } };
    }
    responses[String(http)] = { description, 'x-status-codes': codes, ...(content ? { content } : {}) };
  }
  return responses;
}

const info = (version: string) => ({
  title: 'Gatehouse identity service',
  version,
  description:
    'Every call of the sign-in widget and the portal. Responses carry the envelope; the status code in responseBaseInfo.status.code is the outcome. State-changing calls need the X-XSRF-TOKEN header (the XSRF-TOKEN cookie).',
});

type OpenApiObject = {
  paths?: Record<string, Record<string, Record<string, unknown>> | undefined>;
  [key: string]: unknown;
};

/**
 * @fastify/swagger's options (docs/decisions/016): it collects the routes, and
 * fastify-type-provider-zod's transform turns their zod request schemas (body, query) into the
 * document's request bodies and parameters. Routes outside /api (the static apps) are hidden.
 * `transformObject` is the hand-written part: each operation's responses by HTTP status with the
 * status codes of its outcome table (`x-status-codes`) and the whole table (`x-outcomes`).
 */
export function swaggerOptions(version: string, routeDocs: () => readonly RegisteredRoute[]) {
  return {
    openapi: { openapi: '3.1.0', info: info(version) },
    transform: ((input) =>
      input.url.startsWith(`${API_BASE}/`) && input.schema
        ? jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0])
        : { schema: { hide: true } as FastifySchema, url: input.url }) satisfies SwaggerTransform,
    transformObject: ((input) => {
      const document = ('openapiObject' in input ? input.openapiObject : {}) as OpenApiObject;
      for (const doc of routeDocs()) {
        const operation = document.paths?.[API_BASE + doc.path]?.[doc.method.toLowerCase()];
        if (!operation) continue;
        operation.responses = responsesOf(doc.call, doc.table, doc);
        // @fastify/swagger marks every body required; an empty body is allowed where the schema says so.
        const requestBody = operation.requestBody as { required?: boolean } | undefined;
        if (requestBody && doc.body?.safeParse(undefined).success) requestBody.required = false;
        operation['x-outcomes'] = outcomeList(doc.call, doc.table);
      }
      return document as ReturnType<SwaggerTransformObject>;
    }) satisfies SwaggerTransformObject,
  };
}

type Document = OpenApiObject & { info: { description: string } };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, script-free reference page rendered from the same document. */
function referencePage(doc: Document): string {
  const sections = Object.entries(doc.paths ?? {})
    .map(([url, ops]) =>
      Object.entries(ops ?? {})
        .map(([method, op]) => {
          const o = op as {
            summary: string;
            requestBody?: unknown;
            responses: Record<string, { description: string }>;
          };
          const body = o.requestBody
            ? `<h4>Request body</h4><pre>${escapeHtml(JSON.stringify((o.requestBody as { content: { 'application/json': { schema: unknown } } }).content['application/json'].schema, null, 2))}</pre>`
            : '';
          const responses = Object.entries(o.responses)
            .map(([code, r]) => `<li><strong>${code}</strong> ${escapeHtml(r.description)}</li>`)
            .join('');
          return `<section><h3><code>${method.toUpperCase()} ${escapeHtml(url)}</code></h3><p>${escapeHtml(o.summary)}</p>${body}<h4>Responses</h4><ul>${responses}</ul></section>`;
        })
        .join(''),
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse API reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main><h1>Gatehouse API reference</h1><p>${escapeHtml(doc.info.description)}</p><p><a href="${API_BASE}${paths.openapi}">OpenAPI document (JSON)</a></p><h2>Calls</h2>${sections}</main></body></html>`;
}

export async function openApiPlugin(app: FastifyInstance) {
  const document = () => app.swagger() as unknown as Document;
  defineRoute(app, {
    method: 'GET',
    path: paths.openapi,
    tag: 'operations',
    summary: 'This document.',
    handler: async ({ request, reply }) => answer(request, reply, Status.SUCCESS, { body: document() }),
  });
  defineRoute(app, {
    method: 'GET',
    path: paths.apiDocs,
    tag: 'operations',
    summary: 'This reference as a script-free HTML page.',
    handler: async ({ request, reply }) =>
      answer(request, reply.type('text/html; charset=utf-8'), Status.SUCCESS, {
        body: referencePage(document()),
      }),
  });
}
