import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * What the server benchmarks share: the identity service's settings in production mode (no
 * gateway behind its text, e-mail or push URLs: nothing is delivered) and how a child process is
 * started. One set of secrets per run, so two instances of the service accept each other's cookies.
 */
export function benchServiceEnv(input: {
  port: number;
  databaseUrl: string;
  publicOrigin?: string;
  sessionSecret?: string;
  /** Settings of this benchmark on top (limits, push gateway). */
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(input.port),
    DATABASE_URL: input.databaseUrl,
    SESSION_SECRET: input.sessionSecret ?? randomBytes(24).toString('hex'),
    CREDENTIAL_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    PUBLIC_ORIGIN: input.publicOrigin ?? 'https://bench.example',
    CONSOLE_ORIGIN: 'https://console.bench.example',
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'Bench <bench@bank.example>',
    SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms',
    SMS_WEBHOOK_TOKEN: 'bench-webhook-token',
    SERVE_APPS: 'false',
    ...input.extra,
  };
}

/** Starts `node --import tsx <script>` from the repository's root, its output to `log`. */
export function nodeChild(root: URL, log: number) {
  return (script: string[], env: Record<string, string>, flags: string[] = []) =>
    spawn(process.execPath, [...flags, '--import', 'tsx', ...script], {
      cwd: new URL('.', root).pathname,
      env: { ...process.env, ...env },
      stdio: ['ignore', log, 'inherit'],
    });
}
