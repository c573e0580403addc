import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

export type Argon2Settings = { memoryCost: number; timeCost: number; parallelism: number };
export type HashPoolOptions = {
  /** Worker threads that hash (default: one per core). */
  threads?: number;
  /** How much lower than the event loop the hashing threads run (Unix nice increment, 0-19). */
  nice?: number;
};

/**
 * The worker pools, one per thread count and priority, shared by every hasher of the process
 * (tests build many apps). Idle workers do not keep the process alive.
 */
const pools = new Map<string, Piscina>();
function pool(threads: number, nice: number): Piscina {
  const key = `${threads}/${nice}`;
  let found = pools.get(key);
  if (!found) {
    found = new Piscina({
      filename: new URL('./argon2-worker.mjs', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
      niceIncrement: nice,
    });
    pools.set(key, found);
  }
  return found;
}

/**
 * argon2id hashing on a worker pool of its own (decision 018): a password check never runs on the
 * event loop, and never on libuv's thread pool either, where it would queue the file reads of the
 * static files and DNS look-ups behind a burst of sign-ins. `verifyOrBurn` spends the same work
 * when there is no account, so an unknown username costs what a known one does (and gets the same
 * answer as a wrong password).
 */
export class PasswordHasher {
  private dummy: Promise<string>;
  private readonly pool: Piscina;
  constructor(
    private readonly settings: Argon2Settings,
    options: HashPoolOptions = {},
  ) {
    this.pool = pool(options.threads ?? availableParallelism(), options.nice ?? 0);
    this.dummy = this.hash('gatehouse-timing-equaliser');
  }
  hash(password: string): Promise<string> {
    return this.pool.run({ password, options: this.settings }, { name: 'hash' });
  }
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.pool.run({ storedHash, password }, { name: 'verify' });
  }
  async verifyOrBurn(storedHash: string | undefined, password: string): Promise<boolean> {
    if (storedHash === undefined) {
      await this.verify(await this.dummy, password);
      return false;
    }
    return this.verify(storedHash, password);
  }
}
