import type { ChildProcess } from 'node:child_process';

/**
 * Waits until `url` answers 2xx (a bench's service or baseline, started as a child process), and
 * fails at once if the child exits, or after `seconds`.
 */
export async function waitFor(url: string, child: ChildProcess, name: string, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer at ${url} within ${seconds} s`);
}
