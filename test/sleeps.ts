import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every fixed wait left in the tests (`setTimeout(`, `waitForTimeout(`), with its reason: the text of
 * a `// wait: …` comment on the line itself or the line above. Tests wait for what a person or a
 * client observes; a fixed wait stays only where nothing can be observed (an absence, a scenario's
 * own duration, a poll's interval), and says so.
 *
 *   node --import tsx test/sleeps.ts      prints the list; exits 1 if one has no reason
 */
const root = new URL('..', import.meta.url).pathname;
const skip = new Set(['node_modules', 'dist', '.data', '.git', 'test-results']);
const isTestFile = (path: string) =>
  /\.(test|e2e)\.(ts|tsx)$/.test(path) || /\/(test|support)\/[^/]+\.(ts|tsx)$/.test(path);

export type FixedWait = { file: string; line: number; code: string; reason: string | null };

export function fixedWaits(): FixedWait[] {
  const found: FixedWait[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (skip.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (isTestFile(path) && !path.endsWith('/test/sleeps.ts')) scan(path);
    }
  };
  const scan = (path: string) => {
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (!/\b(setTimeout|waitForTimeout)\(/.test(text)) return;
      const reasonOf = (line: string | undefined) => /\/\/ wait: (.+)$/.exec(line ?? '')?.[1]?.trim() ?? null;
      found.push({
        file: relative(root, path),
        line: i + 1,
        code: text.trim(),
        reason: reasonOf(text) ?? reasonOf(lines[i - 1]),
      });
    });
  };
  for (const dir of ['apps', 'packages', 'e2e', 'bench', 'test']) walk(join(root, dir));
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const waits = fixedWaits();
  for (const w of waits) console.log(`${w.file}:${w.line}  ${w.reason ?? 'NO REASON GIVEN'}`);
  const missing = waits.filter((w) => !w.reason);
  console.log(`${waits.length} fixed waits in tests, ${missing.length} without a reason`);
  process.exitCode = missing.length ? 1 : 0;
}
