import type { CodeParameters } from './otpUri.ts';

/** An authenticator on this device: its id, when it was added, and its parameters (secret included). */
export type CodeEntry = CodeParameters & { id: string; addedAt: string };

/**
 * Where the codes page keeps its entries (docs/decisions/026-device-app-codes.md). Every entry is
 * sealed with AES-GCM (256-bit key, a fresh 96-bit IV per write, the entry's id as additional data)
 * under one non-extractable CryptoKey kept in the same IndexedDB database: the browser holds the
 * key, the app never sees its bytes, and the records hold ciphertext only. Never web storage.
 */
export interface CodeStore {
  list(): Promise<CodeEntry[]>;
  add(entry: CodeParameters): Promise<CodeEntry>;
  remove(id: string): Promise<void>;
}

const DB = 'gatehouse-device-codes';
const KEYS = 'keys';
const ENTRIES = 'entries';
const KEY_RECORD = 'codes';

/** A stored entry: everything but its id and time is inside `sealed`. */
type Sealed = { id: string; addedAt: string; iv: Uint8Array<ArrayBuffer>; sealed: ArrayBuffer };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  const req = factory.open(DB, 1);
  req.onupgradeneeded = () => {
    req.result.createObjectStore(KEYS);
    req.result.createObjectStore(ENTRIES, { keyPath: 'id' });
  };
  return request(req);
}

const encoder = new TextEncoder();

export function indexedDbCodeStore(factory: IDBFactory = indexedDB): CodeStore {
  let key: Promise<CryptoKey> | undefined;

  /** The stored key, or a new one stored first (one readwrite transaction: two tabs agree). */
  async function sealingKey(db: IDBDatabase): Promise<CryptoKey> {
    const existing = (await request(db.transaction(KEYS).objectStore(KEYS).get(KEY_RECORD))) as
      | CryptoKey
      | undefined;
    if (existing) return existing;
    const fresh = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const store = db.transaction(KEYS, 'readwrite').objectStore(KEYS);
    const stored = (await request(store.get(KEY_RECORD))) as CryptoKey | undefined;
    if (stored) return stored;
    await request(store.add(fresh, KEY_RECORD));
    return fresh;
  }

  async function withDb<T>(work: (db: IDBDatabase, key: CryptoKey) => Promise<T>): Promise<T> {
    const db = await open(factory);
    try {
      key ??= sealingKey(db).catch((error: unknown) => {
        key = undefined;
        throw error;
      });
      return await work(db, await key);
    } finally {
      db.close();
    }
  }

  async function unseal(record: Sealed, k: CryptoKey): Promise<CodeEntry | undefined> {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: record.iv, additionalData: encoder.encode(record.id) },
        k,
        record.sealed,
      );
      const p = JSON.parse(new TextDecoder().decode(plain)) as CodeParameters;
      return { ...p, id: record.id, addedAt: record.addedAt };
    } catch {
      // Sealed under a key that is gone (site data partly cleared) or altered: not shown.
      return undefined;
    }
  }

  return {
    list: () =>
      withDb(async (db, k) => {
        const records = (await request(db.transaction(ENTRIES).objectStore(ENTRIES).getAll())) as Sealed[];
        const entries = await Promise.all(records.map((r) => unseal(r, k)));
        return entries
          .filter((e): e is CodeEntry => !!e)
          .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.id.localeCompare(b.id));
      }),
    add: (p) =>
      withDb(async (db, k) => {
        const id = crypto.randomUUID();
        const addedAt = new Date().toISOString();
        const iv = crypto.getRandomValues(new Uint8Array(12));
        const { issuer, label, secret, algorithm, digits, period } = p;
        const sealed = await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv, additionalData: encoder.encode(id) },
          k,
          encoder.encode(JSON.stringify({ issuer, label, secret, algorithm, digits, period })),
        );
        const tx = db.transaction(ENTRIES, 'readwrite');
        tx.objectStore(ENTRIES).add({ id, addedAt, iv, sealed } satisfies Sealed);
        await done(tx);
        return { issuer, label, secret, algorithm, digits, period, id, addedAt };
      }),
    remove: (id) =>
      withDb(async (db) => {
        const tx = db.transaction(ENTRIES, 'readwrite');
        tx.objectStore(ENTRIES).delete(id);
        await done(tx);
      }),
  };
}

/** The browser's store, or none where IndexedDB or WebCrypto is missing (the page says so). */
export const browserCodeStore = (): CodeStore | null =>
  typeof indexedDB === 'undefined' || !globalThis.crypto?.subtle ? null : indexedDbCodeStore();
