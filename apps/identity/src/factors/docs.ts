import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { FactorRegistry } from './registry.ts';
import type { SettingsSlice } from './settings-kit.ts';

/**
 * docs/factors.md and the factors' tables of docs/configuration.md, generated from the registry
 * and the settings slices (`npm run docs:config`; factors/docs.test.ts fails when they are stale).
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (values: readonly string[]) => (values.length ? values.map((v) => `\`${v}\``).join(', ') : '—');

/** What the table shows as a setting's default: `shownDefault` of its meta, or its parsed default. */
function shownDefault(slice: SettingsSlice, name: string, parsedDefaults: Record<string, unknown>): string {
  const meta = (slice.schema.shape[name] as z.ZodType | undefined)?.meta() as
    | { shownDefault?: string }
    | undefined;
  if (meta?.shownDefault) return meta.shownDefault;
  const value = parsedDefaults[name];
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'empty';
  return `\`${String(value)}\``;
}

/** A slice's settings as a table: setting, default, meaning (its `.describe()`). */
export function settingsTable(slice: SettingsSlice): string {
  const defaults = slice.schema.parse({}) as Record<string, unknown>;
  const rows = Object.keys(slice.schema.shape).map((name) => {
    const description = (slice.schema.shape[name] as z.ZodType | undefined)?.description;
    if (!description) throw new Error(`Setting ${name} has no description (.describe())`);
    return `| \`${name}\` | ${cell(shownDefault(slice, name, defaults))} | ${cell(description)} |`;
  });
  return ['| setting | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const begin = (key: string) =>
  `<!-- settings:${key} (generated from apps/identity/src/factors/${key}/settings.ts by npm run docs:config) -->`;
const end = (key: string) => `<!-- /settings:${key} -->`;

/**
 * docs/configuration.md with each factor's table regenerated between its markers. A slice with
 * settings but no markers, markers without a slice, or a core setting the text never names, stop it.
 */
export function configurationDoc(
  text: string,
  slices: ReadonlyMap<string, SettingsSlice>,
  coreSettings: readonly string[],
): string {
  let out = text;
  for (const [key, slice] of slices) {
    if (!Object.keys(slice.schema.shape).length) continue;
    const from = out.indexOf(begin(key));
    const to = out.indexOf(end(key));
    if (from < 0 || to < from) throw new Error(`docs/configuration.md has no ${begin(key)} … ${end(key)}`);
    out = `${out.slice(0, from)}${begin(key)}\n${settingsTable(slice)}\n${out.slice(to)}`;
  }
  for (const [, key] of out.matchAll(/<!-- settings:([a-z0-9-]+) /g)) {
    if (!slices.has(key as string))
      throw new Error(`docs/configuration.md has a table of ${key}, which no factor has`);
  }
  const unnamed = coreSettings.filter((name) => !out.includes(`\`${name}\``));
  if (unnamed.length) throw new Error(`docs/configuration.md never names ${unnamed.join(', ')}`);
  return out;
}

/** docs/factors.md: the name table (one row per factor), then each factor's rank, assurance, settings and limits. */
export function factorsDoc(registry: FactorRegistry, config: Config): string {
  const lines = [
    '# Factors',
    '',
    '<!-- Generated from the factor registry (apps/identity/src/factors/*/module.ts) by `npm run docs:config`; do not edit. -->',
    '',
    'Each factor is one module, `apps/identity/src/factors/<key>/module.ts` (decision',
    '[036](decisions/036-factor-modules.md)). Its names, one row per factor, in the order of the',
    'authenticator list (rank, lower first):',
    '',
    '| key | types | credential kinds | widget routes | text group | counter key | holds | operations | audit events |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { names } of registry.modules) {
    lines.push(
      `| \`${names.key}\` | ${code(names.types)} | ${code(names.credentialKinds)} | ${code(names.widgetRoutes)} | \`${names.textGroup}\` | ${names.counterKey ? `\`${names.counterKey}\`` : '—'} | ${code(names.holds ?? [])} | ${code(names.operations)} | ${code(names.auditEvents ?? [])} |`,
    );
  }
  lines.push(
    '',
    '| key | rank | assurance | settings | limits (at the defaults) |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const module of registry.modules) {
    const { assurance } = module;
    const limits = Object.entries(module.limits(config)).map(([name, value]) => `\`${name}\` ${value}`);
    lines.push(
      `| \`${module.names.key}\` | ${module.rank} | level ${assurance.level}${assurance.phishingResistant ? ', phishing-resistant' : ''} | ${code(Object.keys(module.settings.schema.shape))} | ${limits.join(', ') || '—'} |`,
    );
  }
  lines.push(
    '',
    'Settings: [configuration.md](configuration.md). A new factor is its folder (module, settings,',
    'migrations), its widget screen folder and its portal section; nothing here is written by hand.',
    '',
  );
  return lines.join('\n');
}
