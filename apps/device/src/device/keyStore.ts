/**
 * Where the device's key pair lives: one record. The browser's store is IndexedDB (a CryptoKey is
 * structured-cloneable, so the non-extractable private key is stored as the browser's own handle,
 * never as bytes); tests give an in-memory store.
 */
export interface KeyStore {
  get(): Promise<CryptoKeyPair | undefined>;
  /** Stores the pair unless one is stored already; answers the pair that is stored. */
  addIfAbsent(pair: CryptoKeyPair): Promise<CryptoKeyPair>;
}

const DB = 'gatehouse-device';
const STORE = 'keys';
const RECORD = 'device';

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
  };
}

/** A store in memory (tests; a browser without IndexedDB gets no store at all). */
export function memoryKeyStore(): KeyStore & { stored(): CryptoKeyPair | undefined } {
  let kept: CryptoKeyPair | undefined;
  return {
    get: async () => kept,
    async addIfAbsent(pair) {
      kept ??= pair;
      return kept;
    },
    stored: () => kept,
  };
}
