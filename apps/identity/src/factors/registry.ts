import { pathToFileURL } from 'node:url';
import type { AuthenticatorItem, AuthenticatorType } from '@gatehouse/contract';
import { composeFactors, listedFactorContracts } from '@gatehouse/contract';
import { factorSettings } from '../config.ts';
import type { Context } from '../context.ts';
import { HeldCredentials } from '../credentials/held.ts';
import type { Account } from '../db/schema.ts';
import { provideFactorSecurities } from '../security/factor-lookup.ts';
import type { FactorSecurityEntry } from '../security/factor-security.ts';
import type { FactorModule } from './module.ts';
import { factorFolders, factorsRoot } from './settings-kit.ts';

export type { FactorModule } from './module.ts';

/**
 * The factor registry (docs/decisions/036-factor-modules.md): every `factors/<key>/module.ts`,
 * found by walking the folders (as db/migrations.ts finds migrations), loaded once at start
 * (buildApp awaits `loadFactors`), in the order of their `rank`. A factor is its folder: nothing
 * here names one.
 */
export class FactorRegistry {
  private readonly byType = new Map<string, FactorModule>();
  private readonly byKind = new Map<string, FactorModule>();
  private readonly byKey = new Map<string, FactorModule>();

  /** The modules, lowest rank first. */
  readonly modules: readonly FactorModule[];

  constructor(modules: readonly FactorModule[]) {
    this.modules = [...modules].sort((a, b) => a.rank - b.rank);
    const seen = new Map<string, string>();
    const claim = (kind: string, name: string, key: string) => {
      const other = seen.get(`${kind}:${name}`);
      if (other) throw new Error(`Factors ${other} and ${key} both name the ${kind} ${name}`);
      seen.set(`${kind}:${name}`, key);
    };
    for (const module of this.modules) {
      const { names } = module;
      claim('key', names.key, names.key);
      claim('rank', String(module.rank), names.key);
      if (names.counterKey) claim('counter key', names.counterKey, names.key);
      for (const hold of names.holds ?? []) claim('hold', hold, names.key);
      for (const event of names.auditEvents ?? []) claim('audit event', event, names.key);
      for (const type of names.types) claim('type', type, names.key);
      for (const kind of names.credentialKinds) claim('credential kind', kind, names.key);
      for (const route of names.widgetRoutes) claim('widget route', route, names.key);
      for (const operation of names.operations) claim('operation', operation, names.key);
      this.byKey.set(names.key, module);
      for (const type of names.types) this.byType.set(type, module);
      for (const kind of names.credentialKinds) this.byKind.set(kind, module);
    }
  }

  /** The module of an authenticator type (undefined: no factor declares it). */
  ofType(type: string): FactorModule | undefined {
    return this.byType.get(type);
  }

  /** The module owning a credential kind (undefined: no factor declares it). */
  ofCredentialKind(kind: string): FactorModule | undefined {
    return this.byKind.get(kind);
  }

  /** The module of a key (its folder's name). */
  ofKey(key: string): FactorModule | undefined {
    return this.byKey.get(key);
  }

  /** Every credential kind a module declares. */
  get credentialKinds(): string[] {
    return [...this.byKind.keys()];
  }

  /** An authenticator type's place in the list: its module's rank, then its place in the module's types. */
  order(type: string): number {
    const module = this.byType.get(type);
    if (!module) return Number.POSITIVE_INFINITY;
    return module.rank * 1000 + module.names.types.indexOf(type as AuthenticatorType);
  }
}

/**
 * Every factor module under `root` (default: this folder): the folders holding a `module.ts` that
 * exports `factor`; a folder without one (shared code, migrations) is skipped. A module's folder is
 * its key, and its settings are the slice config.ts composed for that key.
 */
export async function findFactors(root: string = factorsRoot): Promise<FactorRegistry> {
  const modules: FactorModule[] = [];
  for (const { key, path } of factorFolders('module.ts', root)) {
    const { factor } = (await import(pathToFileURL(path).href)) as { factor?: FactorModule };
    if (!factor) throw new Error(`${path} exports no factor`);
    if (factor.names.key !== key) throw new Error(`${path} names its key ${factor.names.key}, not ${key}`);
    if (root === factorsRoot && factorSettings.get(key) !== factor.settings) {
      throw new Error(`${path}: its settings are not ${key}/settings.ts, which config.ts composed`);
    }
    modules.push(factor);
  }
  return new FactorRegistry(modules);
}

/**
 * The security parts of the modules that declare one, in the modules' order, with the key and
 * credential kinds of their name table (security/factor-lookup.ts: the credential policy, the
 * overview and the removal find them there, by credential kind).
 */
function securityEntries(registry: FactorRegistry): FactorSecurityEntry[] {
  return registry.modules.flatMap(({ names, security }) =>
    security ? [{ key: names.key, credentialKinds: names.credentialKinds, security }] : [],
  );
}

let loaded: Promise<FactorRegistry> | undefined;
let registry: FactorRegistry | undefined;

/** Loads the registry once (buildApp awaits it before registering routes). */
export async function loadFactors(): Promise<FactorRegistry> {
  loaded ??= findFactors().then((found) => {
    // The contract's factor files: a clash of type, call or text refuses the start (the clients'
    // join does not check, to stay small).
    composeFactors(listedFactorContracts);
    registry = found;
    provideFactorSecurities(securityEntries(found));
    return found;
  });
  return loaded;
}

/** The loaded registry; before `loadFactors` finished it is a programming error. */
export function factors(): FactorRegistry {
  if (!registry) throw new Error('The factor registry is not loaded yet (await loadFactors() at start)');
  return registry;
}

/**
 * The authenticators an account may use now, in the modules' order. Empty when it has none: the
 * widget then opens its default, the representative page.
 */
export async function allowedAuthenticators(
  ctx: Context,
  account: Account,
  held?: HeldCredentials,
  journey: 'login' | 'stepup' = 'login',
): Promise<AuthenticatorItem[]> {
  const credentials = held ?? (await HeldCredentials.read(ctx, account.id));
  const registry = factors();
  const items: AuthenticatorItem[] = [];
  for (const module of registry.modules)
    items.push(...(await module.offer(ctx, account, credentials, journey)));
  return items.sort((a, b) => registry.order(a.type) - registry.order(b.type));
}

/**
 * A step-up's authenticators that a recently added credential would have added: offered at sign-in,
 * not for this step-up (credential-policy.ts), so the widget can say why.
 */
export async function recentOnlyAuthenticators(
  ctx: Context,
  account: Account,
  held?: HeldCredentials,
): Promise<AuthenticatorType[]> {
  const credentials = held ?? (await HeldCredentials.read(ctx, account.id));
  const stepUp = new Set(
    (await allowedAuthenticators(ctx, account, credentials, 'stepup')).map((a) => a.type),
  );
  const signIn = await allowedAuthenticators(ctx, account, credentials, 'login');
  return signIn.map((a) => a.type).filter((t) => !stepUp.has(t));
}
