/** The settings of every end-to-end server: development mode, so the demo data and the outbox are there. */
export function serverEnv(env: Record<string, string> = {}): Record<string, string> {
  return { NODE_ENV: 'development', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
}
