import { API_BASE, anyEnvelopeSchema, envelopeSchema, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, type RouteDoc } from '../lib/route.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** The OpenAPI 3.1 document, generated from the contract's zod schemas of every route. */
export function openApiDocument(version: string, routeDocs: readonly RouteDoc[]) {
  const pathItems: Record<string, Record<string, unknown>> = {};
  for (const doc of routeDocs) {
    const url = API_BASE + doc.path;
    pathItems[url] ??= {};
    const item = pathItems[url];
    const responses: Record<string, unknown> = doc.noContent
      ? { '204': { description: 'Done' } }
      : {
          '200': {
            description:
              Object.entries(doc.codes)
                .map(([code, text]) => `${code}: ${text}`)
                .join('; ') || 'OK',
            content: doc.html
              ? { 'text/html': { schema: { type: 'string' } } }
              : {
                  'application/json': {
                    schema: json(
                      doc.rawResponse ??
                        (doc.successData ? envelopeSchema(doc.successData) : anyEnvelopeSchema),
                    ),
                  },
                },
          },
        };
    const unsafe = doc.method !== 'GET';
    for (const [http, text, applies] of [
      [
        '400',
        'The request does not match the contract (envelope, code 4400)',
        Boolean(doc.body || doc.query),
      ],
      ['403', 'CSRF token or origin refused (envelope, code 4403)', unsafe],
      ['429', 'Rate limited; Retry-After says when to try again (envelope, code 4429)', unsafe],
      ['500', 'Unknown error (envelope, code 5000)', true],
    ] as const) {
      if (applies) responses[http] = { description: text };
    }
    const operation: Record<string, unknown> = { tags: [doc.tag], summary: doc.summary, responses };
    if (doc.body) {
      operation.requestBody = { content: { 'application/json': { schema: json(doc.body) } } };
    }
    if (doc.query) {
      const schema = json(doc.query) as { properties?: Record<string, unknown>; required?: string[] };
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: s,
      }));
    }
    item[doc.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse identity service',
      version,
      description:
        'Every call of the sign-in widget and the portal. Responses carry the envelope; the status code in responseBaseInfo.status.code is the outcome. State-changing calls need the X-XSRF-TOKEN header (the XSRF-TOKEN cookie).',
    },
    paths: pathItems,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, script-free reference page rendered from the same document. */
function referencePage(version: string, routeDocs: readonly RouteDoc[]): string {
  const doc = openApiDocument(version, routeDocs);
  const sections = Object.entries(doc.paths)
    .map(([url, ops]) =>
      Object.entries(ops)
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

export async function openApiPlugin(app: FastifyInstance, opts: { version: string }) {
  defineRoute(app, {
    method: 'GET',
    path: paths.openapi,
    tag: 'operations',
    summary: 'This document.',
    codes: {},
    handler: async ({ reply }) => reply.send(openApiDocument(opts.version, app.routeDocs)),
  });
  defineRoute(app, {
    method: 'GET',
    path: '/docs',
    tag: 'operations',
    summary: 'This reference as a script-free HTML page.',
    codes: {},
    html: true,
    handler: async ({ reply }) =>
      reply.type('text/html; charset=utf-8').send(referencePage(opts.version, app.routeDocs)),
  });
}
