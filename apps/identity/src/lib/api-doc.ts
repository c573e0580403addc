import {
  type AnyCallName,
  API_BASE,
  allOutcomeTables,
  type ClientAction,
  type Codes,
  genericOutcomeDocs,
  genericOutcomes,
  type Outcome,
  type OutcomeTable,
  outcomeDoc,
  outcomeMessages,
  serverMessages,
} from '@gatehouse/contract';

/**
 * docs/api.md is prose written by hand with the outcome tables generated into it: each block
 * between `<!-- outcomes:NAME -->` and `<!-- /outcomes -->` is the table of the call NAME of
 * packages/contract/src/outcomes.ts (`generic` for the answers every call may give), written by
 * `npm run docs:api`. Every table must have exactly one block; a test compares the file with what
 * this produces.
 */
export const API_DOC = new URL('../../../../docs/api.md', import.meta.url);

const block = /<!-- outcomes:(\w+)[^>]*-->\n[\s\S]*?<!-- \/outcomes -->/g;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const quoted = (outcome: Outcome) =>
  outcomeMessages(outcome)
    .map((key) => `\`${serverMessages[key]}\``)
    .join(' or ');

/** Widget spec §4's words for a client action: `REDIRECT authenticatorRep {"reason":"limit"}`. */
export function describeAction(action: ClientAction | undefined): string {
  if (!action) return '';
  switch (action.kind) {
    case 'FORWARD':
      return `FORWARD ${action.call}`;
    case 'REDIRECT':
      return `REDIRECT ${action.to}${action.state ? ` ${JSON.stringify(action.state)}` : ''}`;
    case 'CUSTOM':
      return `CUSTOM ${action.name}`;
    case 'ERROR':
      return `ERROR ${action.error}${action.server ? ' (server text)' : ''}`;
    default:
      return action.kind;
  }
}

function rows(codes: Codes, meaning: (code: number) => string): string[] {
  return Object.entries(codes).map(([key, outcome]) => {
    const code = Number(key);
    const http = outcome.unsent ? 'not sent' : [outcome.http, ...(outcome.alsoHttp ?? [])].join(', ');
    return `| ${http} | ${code} | ${cell(quoted(outcome))} | ${cell(describeAction(outcome.action))} | ${cell(meaning(code))} |`;
  });
}

const header = ['| HTTP | code | message | client action | meaning |', '| --- | --- | --- | --- | --- |'];

/** The markdown of one call's table (its own codes; the generic ones are listed once). */
function outcomeTableMarkdown(name: AnyCallName | 'generic'): string {
  if (name === 'generic') {
    return [...header, ...rows(genericOutcomes, (code) => genericOutcomeDocs[code] ?? '')].join('\n');
  }
  const table: OutcomeTable = allOutcomeTables[name];
  const lines = [
    `\`${table.method} ${API_BASE}${table.path}\``,
    '',
    ...header,
    ...rows(table.codes, (code) => outcomeDoc(name, code)),
  ];
  lines.push('', 'And the [generic answers](#generic-answers) of every call.');
  return lines.join('\n');
}

/** docs/api.md with every outcome block regenerated; throws when a table has no block or two. */
export function generateApiDoc(source: string): string {
  const seen = new Map<string, number>();
  const out = source.replace(block, (_whole, name: string) => {
    if (name !== 'generic' && !(name in allOutcomeTables))
      throw new Error(`docs/api.md: no outcome table ${name}`);
    seen.set(name, (seen.get(name) ?? 0) + 1);
    return [
      `<!-- outcomes:${name} (generated from packages/contract/src/outcomes.ts by npm run docs:api) -->`,
      outcomeTableMarkdown(name as AnyCallName | 'generic'),
      '<!-- /outcomes -->',
    ].join('\n');
  });
  for (const name of ['generic', ...Object.keys(allOutcomeTables)]) {
    const count = seen.get(name) ?? 0;
    if (count !== 1) throw new Error(`docs/api.md: the outcome table ${name} has ${count} blocks, not 1`);
  }
  return out;
}
