/**
 * `npm run docs:api`: writes the outcome tables of packages/contract/src/outcomes.ts into
 * docs/api.md (the blocks between `<!-- outcomes:NAME -->` and `<!-- /outcomes -->`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_DOC, generateApiDoc } from './lib/api-doc.ts';

const before = readFileSync(API_DOC, 'utf8');
const after = generateApiDoc(before);
if (after === before) {
  console.log(`${fileURLToPath(API_DOC)} is current`);
} else {
  writeFileSync(API_DOC, after);
  console.log(`${fileURLToPath(API_DOC)} written`);
}
