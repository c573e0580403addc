import { ConfigError, loadConfig } from './config.ts';
import { openForTask } from './db/database.ts';
import { describeError } from './db/faults.ts';
import { migrate } from './db/migrations.ts';

try {
  const config = loadConfig();
  const db = await openForTask(config);
  const applied = await migrate(db as never);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  await db.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${describeError(error)}`);
  process.exit(1);
}
