import { existsSync, readdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * What a factor's settings slice is made of (docs/decisions/036-factor-modules.md), and the
 * settings' shared parsers. This file imports neither config.ts nor a module: config.ts reads the
 * slices (`factors/<key>/settings.ts`) while it loads, before any module can be imported.
 */

/** An invalid setting: stops the start with one line naming it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const int = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

export const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** https://, or http:// to this machine only (a sidecar on the loopback interface). */
export function secureUrl(text: string): boolean {
  const url = new URL(text);
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  return url.protocol === 'http:' && loopback;
}

/** What a slice's `read` may use besides its own settings. */
export type SettingsBase = { production: boolean; sessionSecret: string };

/**
 * A factor's settings: `schema`, a zod object over environment variables (each with its default and
 * a `.describe()` that docs/configuration.md shows), `read`, the typed settings the factor uses
 * (`config.factors[key]`), and `productionChecks`: what production mode refuses (stop with a message).
 */
export interface SettingsSlice<S extends z.ZodRawShape = z.ZodRawShape, T = unknown> {
  /** The section of docs/configuration.md its table goes to. */
  title: string;
  schema: z.ZodObject<S>;
  read(v: z.output<z.ZodObject<S>>, base: SettingsBase): T;
  productionChecks?(v: z.output<z.ZodObject<S>>, stop: (name: string, message: string) => never): void;
}

export function defineSettings<S extends z.ZodRawShape, T>(slice: SettingsSlice<S, T>): SettingsSlice<S, T> {
  return slice;
}

/** The folder of the factor modules (apps/identity/src/factors). */
export const factorsRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The folders of `root` that hold `file` (a factor's `module.ts` or `settings.ts`), by folder name:
 * the factor's key. Other folders (shared code, `migrations/`) are skipped.
 */
export function factorFolders(file: string, root: string = factorsRoot): { key: string; path: string }[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => ({ key: entry.name, path: join(root, entry.name, file) }))
    .filter((folder) => existsSync(folder.path))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** The session secret used when none is set: published in the source, so never for production. */
export const DEVELOPMENT_SECRET = 'development-only-secret-not-for-production-use';

/** Keyboard rows (US layout), for telling a run of neighbouring keys from random characters. */
const keyboardRows = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const keyboardNeighbours = (a: string, b: string) =>
  keyboardRows.some((row) => {
    const i = row.indexOf(a.toLowerCase());
    return i >= 0 && Math.abs(row.indexOf(b.toLowerCase()) - i) === 1 && row.includes(b.toLowerCase());
  });

/**
 * Why a secret is too weak to protect production, or null. Judged by the text itself, not by a list
 * of known values: at least 32 characters; at least 3 bits of Shannon entropy per character and 96
 * bits in all; no repeated pattern (`abcabc…`); not a run (more than half of the neighbouring
 * characters next to each other in the alphabet, the digits or a keyboard row: `abcdef…`,
 * `qwerty…`); not words (more than 60 % of it in lower-case runs of five letters or more, as in
 * `a-production-secret-of-…`). 32 random hex digits or base64 characters pass.
 */
export function secretWeakness(value: string): string | null {
  if (value.length < 32) return 'must be at least 32 characters';
  const weak = 'is too weak: use at least 32 random characters (for example `openssl rand -base64 32`)';
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    perChar -= p * Math.log2(p);
  }
  const periodic = Array.from({ length: Math.floor(value.length / 2) }, (_, i) => i + 1).some((period) =>
    [...value].every((ch, i) => i < period || ch === value[i - period]),
  );
  if (periodic || perChar < 3 || perChar * value.length < 96) return weak;
  let runs = 0;
  for (let i = 1; i < value.length; i++) {
    const a = value[i - 1]!;
    const b = value[i]!;
    if (Math.abs(a.charCodeAt(0) - b.charCodeAt(0)) === 1 || keyboardNeighbours(a, b)) runs++;
  }
  if (runs / (value.length - 1) > 0.5) return weak;
  const words = (value.match(/[a-z]{5,}/g) ?? []).join('').length;
  if (words / value.length > 0.6) return weak;
  return null;
}
