import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { describeError } from './db/faults.ts';
import { migrate } from './db/migrations.ts';

try {
  const config = loadConfig();
  const db = await openDatabase(
    config.databaseUrl
      ? // A migration may run longer than a request's statement: no statement or query timeout here.
        {
          kind: 'postgres',
          url: config.databaseUrl,
          ...config.database,
          statementTimeoutMs: 0,
          queryTimeoutMs: 0,
        }
      : { kind: 'pglite', dir: config.dataDir },
  );
  const applied = await migrate(db as never);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  await db.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${describeError(error)}`);
  process.exit(1);
}
