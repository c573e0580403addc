/**
 * Where the device's key pair lives: one record. The browser's store is IndexedDB (a CryptoKey is
 * structured-cloneable, so the non-extractable private key is stored as the browser's own handle,
 * never as bytes); tests give an in-memory store.
 */
export interface KeyStore {
  get(): Promise<CryptoKeyPair | undefined>;
  /** Stores the pair unless one is stored already; answers the pair that is stored. */
  addIfAbsent(pair: CryptoKeyPair): Promise<CryptoKeyPair>;
  /**
   * The accounts the device last read as its own (ids and usernames, never a secret), beside the
   * key: an account removed elsewhere is then told on the device (pages/device/remembered.ts).
   */
  getAccounts(): Promise<RememberedAccount[]>;
  setAccounts(accounts: RememberedAccount[]): Promise<void>;
}

export type RememberedAccount = { id: string; username: string };

const isRemembered = (value: unknown): value is RememberedAccount[] =>
  Array.isArray(value) &&
  value.every(
    (r) => typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.username === 'string',
  );

const DB = 'gatehouse-device';
const STORE = 'keys';
const RECORD = 'device';
const ACCOUNTS = 'accounts';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(): Promise<IDBDatabase> {
  const req = indexedDB.open(DB, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE);
  return request(req);
}

export function indexedDbKeyStore(): KeyStore {
  return {
    async get() {
      const db = await open();
      try {
        return (await request(db.transaction(STORE).objectStore(STORE).get(RECORD))) as
          | CryptoKeyPair
          | undefined;
      } finally {
        db.close();
      }
    },
    async addIfAbsent(pair) {
      const db = await open();
      try {
        // One readwrite transaction: of two tabs starting at once, the first pair stays.
        const store = db.transaction(STORE, 'readwrite').objectStore(STORE);
        const stored = (await request(store.get(RECORD))) as CryptoKeyPair | undefined;
        if (stored) return stored;
        await request(store.add(pair, RECORD));
        return pair;
      } finally {
        db.close();
      }
    },
    async getAccounts() {
      const db = await open();
      try {
        const value = await request(db.transaction(STORE).objectStore(STORE).get(ACCOUNTS));
        return isRemembered(value) ? value : [];
      } finally {
        db.close();
      }
    },
    async setAccounts(accounts) {
      const db = await open();
      try {
        await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(accounts, ACCOUNTS));
      } finally {
        db.close();
      }
    },
  };
}

/** A store in memory (tests; a browser without IndexedDB gets no store at all). */
export function memoryKeyStore(): KeyStore & { stored(): CryptoKeyPair | undefined } {
  let kept: CryptoKeyPair | undefined;
  let accounts: RememberedAccount[] = [];
  return {
    get: async () => kept,
    async addIfAbsent(pair) {
      kept ??= pair;
      return kept;
    },
    stored: () => kept,
    getAccounts: async () => [...accounts],
    async setAccounts(next) {
      accounts = [...next];
    },
  };
}
