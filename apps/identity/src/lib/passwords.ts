import { hash, verify } from '@node-rs/argon2';

export type Argon2Settings = { memoryCost: number; timeCost: number; parallelism: number };

/**
 * argon2id hashing. `verifyOrBurn` spends the same work when there is no account, so an unknown
 * username costs what a known one does (and gets the same answer as a wrong password).
 */
export class PasswordHasher {
  private dummy: Promise<string>;
  constructor(private readonly settings: Argon2Settings) {
    // Algorithm 2 is argon2id in @node-rs/argon2.
    this.dummy = hash('gatehouse-timing-equaliser', { ...settings, algorithm: 2 });
  }
  hash(password: string): Promise<string> {
    return hash(password, { ...this.settings, algorithm: 2 });
  }
  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  }
  async verifyOrBurn(storedHash: string | undefined, password: string): Promise<boolean> {
    if (storedHash === undefined) {
      await this.verify(await this.dummy, password);
      return false;
    }
    return this.verify(storedHash, password);
  }
}
