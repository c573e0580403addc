import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where the suite's time goes, printed at the end of every run (CI included): each project's wall
 * clock (its first file's start to its last file's end; projects overlap, files run in parallel),
 * its files and tests and the time its files took in all, then the ten slowest files. The next
 * slowdown is seen the day it lands.
 */
export default class TimingReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();
  private runStarted = 0;

  onTestRunStart() {
    this.runStarted = performance.now();
  }

  onTestModuleStart(module: TestModule) {
    this.started.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.ended.set(module.moduleId, performance.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (modules.length === 0) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const fileTime = (m: TestModule) => {
      const d = m.diagnostic();
      return (
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration
      );
    };
    const byProject = new Map<string, TestModule[]>();
    for (const m of modules) byProject.set(m.project.name, [...(byProject.get(m.project.name) ?? []), m]);
    const lines = ['', `Where the time went (whole run ${seconds(performance.now() - this.runStarted)}):`];
    for (const [name, list] of [...byProject].sort(([a], [b]) => a.localeCompare(b))) {
      const starts = list.map((m) => this.started.get(m.moduleId) ?? this.runStarted);
      const ends = list.map((m) => this.ended.get(m.moduleId) ?? this.runStarted);
      const tests = list.reduce((n, m) => n + [...m.children.allTests()].length, 0);
      const total = list.reduce((sum, m) => sum + fileTime(m), 0);
      lines.push(
        `  ${name.padEnd(5)} ${seconds(Math.max(...ends) - Math.min(...starts)).padStart(8)} wall, ` +
          `${String(list.length).padStart(3)} files, ${String(tests).padStart(4)} tests, ${seconds(total)} in its files`,
      );
    }
    lines.push('  Ten slowest files:');
    for (const m of [...modules].sort((a, b) => fileTime(b) - fileTime(a)).slice(0, 10)) {
      lines.push(`  ${seconds(fileTime(m)).padStart(8)}  ${m.project.name.padEnd(5)} ${m.relativeModuleId}`);
    }
    console.log(lines.join('\n'));
  }
}
