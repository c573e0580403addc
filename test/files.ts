import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The files under `dir` whose names `accept` takes, outside dependencies, builds and dot folders. */
export function files(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (['node_modules', 'dist', '.data', 'test-results'].includes(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...files(path, accept));
    else if (accept(entry)) out.push(path);
  }
  return out;
}
