import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { argumentsOf, catalogFolders, checkFolder } from '../src/check.ts';
import { acceptedLanguages, pickLanguage } from '../src/languages.ts';
import { compileCatalogs } from '../src/node.ts';

const root = new URL('../../..', import.meta.url).pathname;

describe('every catalog of the product', () => {
  const folders = catalogFolders(join(root, 'apps'), join(root, 'packages'));

  it.each(folders.map((f) => [f.slice(root.length)]))(
    '%s: every language has every key, with the same placeholders',
    (folder) => {
      expect(checkFolder(join(root, folder), root)).toEqual([]);
    },
  );
});

describe('the catalog check', () => {
  const folder = () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gh-i18n-')), 'messages');
    mkdirSync(dir);
    return dir;
  };

  it('names a missing key, an extra key, a differing placeholder, a missing file and a bad text', () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'en.json'),
      JSON.stringify({ a: { one: 'One {0}', two: 'Two', three: '{n, plural, one {# day} other {# days}}' } }),
    );
    writeFileSync(
      join(dir, 'es.json'),
      JSON.stringify({
        a: { one: 'Uno {1}', three: '{n, plural, one {# día} other {# días}', four: 'Cuatro' },
      }),
    );
    const problems = checkFolder(dir, dir);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('one has placeholders {1}, not {0}'),
        expect.stringContaining('a.two is missing'),
        expect.stringContaining('four is not in en.json'),
        expect.stringContaining('three does not parse'),
      ]),
    );
    const lonely = folder();
    writeFileSync(join(lonely, 'en.json'), JSON.stringify({ a: { one: 'One' } }));
    expect(checkFolder(lonely, lonely)).toEqual([expect.stringContaining('no es.json')]);
  });

  it('reads placeholders inside plurals and selects', () => {
    expect(argumentsOf('{0} left: {count, plural, one {# try, {who}} other {# tries}}')).toEqual([
      '0',
      'count',
      'who',
    ]);
  });

  it("compiles a service catalog with the language's plural rules", () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'en.json'),
      JSON.stringify({ g: { m: 'It expires after {0, plural, one {# minute} other {# minutes}}.' } }),
    );
    writeFileSync(
      join(dir, 'es.json'),
      JSON.stringify({ g: { m: 'Caduca en {0, plural, one {# minuto} other {# minutos}}.' } }),
    );
    const catalogs = compileCatalogs(dir);
    expect(catalogs.get('en')?.m?.([1])).toBe('It expires after 1 minute.');
    expect(catalogs.get('es')?.m?.([30])).toBe('Caduca en 30 minutos.');
  });
});

describe('choosing a language', () => {
  it('takes the first shipped language by its primary subtag, else English', () => {
    expect(pickLanguage([undefined, 'es-MX', 'en-US'])).toBe('es');
    expect(pickLanguage(['fr-FR', 'EN-gb'])).toBe('en');
    expect(pickLanguage(['de', 'fr'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('orders an Accept-Language header by quality and drops q=0 and junk', () => {
    expect(acceptedLanguages('en;q=0.5, es-419, fr;q=0, <script>, de;q=0.9')).toEqual(['es-419', 'de', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
