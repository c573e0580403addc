import { fileURLToPath } from 'node:url';
import { type ServerMessageKey, serverMessages } from '@gatehouse/contract';
import type { activity, mail, oidc, phone } from '@gatehouse/contract/messages/en.json';
import { acceptedLanguages, defaultLanguage, isLanguage, type Language, pickLanguage } from '@gatehouse/i18n';
import { compileCatalogs } from '@gatehouse/i18n/node';
import type { FastifyRequest } from 'fastify';

/**
 * The service's texts in every shipped language (packages/contract/messages, compiled once at
 * start; docs/decisions/029-languages.md). English is the specs' wording, verbatim.
 */
export type ServiceTextKey =
  | ServerMessageKey
  | keyof typeof mail
  | keyof typeof phone
  | keyof typeof oidc
  | keyof typeof activity;
const catalogs = compileCatalogs<ServiceTextKey>(
  fileURLToPath(new URL('../../../../packages/contract/messages', import.meta.url)),
);

/** English text -> key, for the answers built with a text and no placeholders. */
const keyOfEnglish = new Map<string, ServerMessageKey>(
  (Object.entries(serverMessages) as Array<[ServerMessageKey, string]>)
    .filter(([, text]) => !/\{\d+\}/.test(text))
    .map(([key, text]) => [text, key]),
);

const chosen = new WeakMap<FastifyRequest, Language>();

/**
 * The request's language: the best shipped one of its Accept-Language (a client sends the
 * language its page shows), English without one. Read once per request.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  // Without the header nothing is parsed and nothing kept (a WeakMap entry per request costs).
  if (!header) return defaultLanguage;
  let language = chosen.get(request);
  if (!language) {
    language = pickLanguage(acceptedLanguages(header));
    chosen.set(request, language);
  }
  return language;
}

/**
 * The language a request names: the best shipped one of its Accept-Language, or undefined
 * without one (a client that says nothing leaves an account's language as it is).
 */
export function namedLanguage(request: FastifyRequest): Language | undefined {
  return request.headers['accept-language'] ? requestLanguage(request) : undefined;
}

/** An account's language as stored, English for anything else. */
export const languageOf = (value: string | null | undefined): Language =>
  isLanguage(value) ? value : defaultLanguage;

/** A service text in a language, its `{0}`-style placeholders filled. */
export function serverText(
  language: Language,
  key: ServiceTextKey,
  params: ReadonlyArray<string | number> = [],
): string {
  const message = (catalogs.get(language) ?? catalogs.get(defaultLanguage)!)[key];
  return message ? message(params) : catalogs.get(defaultLanguage)![key](params);
}

/**
 * An envelope message in the request's language: by its key when the answer has one, else by
 * its English text when that is a catalog text without placeholders; anything else as it is.
 */
export function localise(
  request: FastifyRequest,
  english: string,
  key?: ServerMessageKey,
  params?: ReadonlyArray<string | number>,
): string {
  const language = requestLanguage(request);
  if (language === defaultLanguage && !key) return english;
  const found = key ?? keyOfEnglish.get(english);
  return found ? serverText(language, found, params) : english;
}
