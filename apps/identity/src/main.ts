import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { describeError } from './db/faults.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { app } = await buildApp({ config });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/`;
  app.log.info(`Gatehouse at http://localhost:${config.port}/ (${config.env} mode, data: ${where})`);
}

main().catch((error) => {
  console.error(`Gatehouse could not start: ${describeError(error)}`);
  process.exit(1);
});
