import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, type Token } from '@messageformat/parser';
import { defaultLanguage, languages } from './languages.ts';
import { type CatalogSource, readCatalog } from './source.ts';

/** Every `messages` folder under the given roots (node_modules and build output left out). */
export function catalogFolders(...roots: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || ['node_modules', 'dist', '.git'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.name === 'messages' && readdirSync(path).includes(`${defaultLanguage}.json`))
        found.push(path);
      walk(path);
    }
  };
  for (const root of roots) walk(root);
  return found.sort();
}

/** The argument names a message uses, plural and select included (`{0}`, `{count, plural, …}`). */
export function argumentsOf(text: string): string[] {
  const names = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'select') {
        names.add(token.arg);
        for (const c of token.cases) visit(c.tokens);
      }
    }
  };
  visit(parse(text));
  return [...names].sort();
}

/** A message's arguments, or '' when it does not parse (reported on its own). */
function safeArguments(text: string): string {
  try {
    return argumentsOf(text).join(',');
  } catch {
    return '';
  }
}

/**
 * What is wrong with a folder's catalogs against English: a language without a file, a group or
 * key missing or extra, a key in two groups, a text that does not parse, placeholders that differ.
 */
export function checkFolder(folder: string, root = process.cwd()): string[] {
  const where = relative(root, folder);
  const problems: string[] = [];
  const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
  for (const name of files) {
    if (!languages.some((language) => `${language}.json` === name)) {
      problems.push(`${where}/${name}: not a shipped language (add it to packages/i18n/src/languages.ts)`);
    }
  }
  const reference = readCatalog(join(folder, `${defaultLanguage}.json`));
  const flatten = (source: CatalogSource, language: string) => {
    const flat = new Map<string, { group: string; text: string }>();
    for (const [group, texts] of Object.entries(source)) {
      for (const [key, text] of Object.entries(texts)) {
        if (typeof text !== 'string')
          problems.push(`${where}/${language}.json: ${group}.${key} is not a text`);
        if (flat.has(key)) problems.push(`${where}/${language}.json: ${key} is in two groups`);
        flat.set(key, { group, text });
        try {
          parse(text);
        } catch (error) {
          problems.push(`${where}/${language}.json: ${key} does not parse: ${(error as Error).message}`);
        }
      }
    }
    return flat;
  };
  const english = flatten(reference, defaultLanguage);
  for (const language of languages) {
    if (language === defaultLanguage) continue;
    if (!files.includes(`${language}.json`)) {
      problems.push(`${where}: no ${language}.json`);
      continue;
    }
    const other = flatten(readCatalog(join(folder, `${language}.json`)), language);
    for (const [key, { group, text }] of english) {
      const translated = other.get(key);
      if (!translated) {
        problems.push(`${where}/${language}.json: ${group}.${key} is missing`);
        continue;
      }
      if (translated.group !== group) {
        problems.push(`${where}/${language}.json: ${key} is in group ${translated.group}, not ${group}`);
      }
      const [want, got] = [safeArguments(text), safeArguments(translated.text)];
      if (want !== got)
        problems.push(`${where}/${language}.json: ${key} has placeholders {${got}}, not {${want}}`);
    }
    for (const key of other.keys()) {
      if (!english.has(key))
        problems.push(`${where}/${language}.json: ${key} is not in ${defaultLanguage}.json`);
    }
  }
  return problems;
}
