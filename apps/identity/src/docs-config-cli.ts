import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { coreSettingNames, factorSettings, loadConfig } from './config.ts';
import { configurationDoc, factorsDoc } from './factors/docs.ts';
import { findFactors } from './factors/registry.ts';

/**
 * `npm run docs:config`: writes docs/factors.md and the factors' tables of docs/configuration.md
 * from the registry and the settings slices; `--check` only says whether they are stale (exit 1).
 */
const docs = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

export async function generatedDocs(): Promise<Record<string, string>> {
  const registry = await findFactors();
  const configuration = readFileSync(docs('configuration.md'), 'utf8');
  return {
    [docs('configuration.md')]: configurationDoc(configuration, factorSettings, coreSettingNames),
    [docs('factors.md')]: factorsDoc(registry, loadConfig({})),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [path, text] of Object.entries(await generatedDocs())) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    if (current === text) continue;
    stale = true;
    if (check) console.error(`${path} is stale: run npm run docs:config`);
    else writeFileSync(path, text);
  }
  if (check && stale) process.exit(1);
}
