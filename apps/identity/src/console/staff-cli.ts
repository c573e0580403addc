import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { staffNamePattern, staffRoles } from '@gatehouse/contract';
import { loadConfig } from '../config.ts';
import { openForTask } from '../db/database.ts';
import { describeError } from '../db/faults.ts';
import { migrate } from '../db/migrations.ts';
import { systemClock } from '../lib/clock.ts';
import { PasswordHasher } from '../lib/passwords.ts';
import { newStaffPassword, StaffStore, staffOtpauthUri } from './staff.ts';

/**
 * `npm run staff -- add NAME --role representative|supervisor [--customer USERNAME] [--ask-password]`
 * adds a staff member of the console and prints, once, their initial password (16 random
 * characters, or one typed at the prompt with --ask-password) and their authenticator-app secret
 * with its otpauth:// address. `npm run staff -- disable NAME` disables one and ends their sessions.
 * `npm run staff -- list` lists them. There is no sign-up: this command is the only way in
 * (docs/operations.md "Staff of the console").
 */
const usage = `Usage:
  npm run staff -- add NAME --role representative|supervisor [--customer USERNAME] [--ask-password]
  npm run staff -- disable NAME
  npm run staff -- list`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      role: { type: 'string' },
      customer: { type: 'string' },
      'ask-password': { type: 'boolean', default: false },
    },
  });
  const [command, name] = positionals;
  const config = loadConfig();
  const db = await openForTask(config);
  await migrate(db as never);
  const hasher = new PasswordHasher(config.argon2, { threads: 1 });
  const store = new StaffStore(db, systemClock, hasher, config);
  try {
    if (command === 'add' && name) {
      const role = values.role as (typeof staffRoles)[number];
      if (!staffRoles.includes(role)) throw new Error(`--role must be one of ${staffRoles.join(', ')}`);
      if (!staffNamePattern.test(name)) {
        throw new Error('NAME must be 3-32 lowercase letters, digits, ".", "_" or "-", a letter first');
      }
      if (await store.byName(name)) throw new Error(`A staff member named ${name} exists already`);
      let password = newStaffPassword();
      if (values['ask-password']) {
        const prompt = createInterface({ input: process.stdin, output: process.stdout });
        password = await prompt.question('Initial password (at least 12 characters): ');
        prompt.close();
        if (password.length < 12) throw new Error('The password must have at least 12 characters');
      }
      const { totpSecret } = await store.add({ name, role, password, customerUsername: values.customer });
      console.log(`Added ${name} (${role}).`);
      if (!values['ask-password']) console.log(`Initial password: ${password}`);
      console.log(`Authenticator secret: ${totpSecret}`);
      console.log(`Authenticator address: ${staffOtpauthUri(name, totpSecret)}`);
      console.log('Hand these over in person; they are not shown again.');
    } else if (command === 'disable' && name) {
      console.log((await store.disable(name)) ? `Disabled ${name}.` : `No staff member named ${name}.`);
    } else if (command === 'list') {
      const rows = await db
        .selectFrom('staff')
        .select(['name', 'role', 'status', 'created_at'])
        .orderBy('name')
        .execute();
      for (const r of rows)
        console.log(`${r.name}\t${r.role}\t${r.status}\t${new Date(r.created_at).toISOString()}`);
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(
    `staff: ${error instanceof Error && !('code' in error) ? error.message : describeError(error)}`,
  );
  process.exit(1);
});
