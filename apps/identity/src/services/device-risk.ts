import type { DeviceRiskSignals } from '@gatehouse/contract';
import type { Config } from '../config.ts';
import type { Account, Journey } from '../db/schema.ts';

/**
 * The device-risk step (widget spec §7; docs/decisions/045-device-risk-step.md). The provider's
 * signals, as the first-party beacon recorded them on the login journey (`data.risk`), with the time
 * they arrived.
 */
export type RecordedRisk = DeviceRiskSignals & { at: string };

/** What the rule sees: the journey's signals (none: no beacon arrived), the account and the settings. */
export type RiskInput = {
  signals: RecordedRisk | undefined;
  account: Pick<Account, 'id' | 'username'>;
  settings: NonNullable<Config['deviceRisk']>;
};

/**
 * The rule hook: 'second-factor' makes a login journey owe its second factor even on a trusted
 * device; 'allow' leaves the usual rules. A deployment replaces it (buildApp's `deviceRiskRule`), for
 * example to ask the provider server to server about `signals.reference`. It can only add a factor,
 * never spare one: the signals come through the browser, so they are a claim, not a proof.
 */
export type DeviceRiskRule = (
  input: RiskInput,
) => 'second-factor' | 'allow' | Promise<'second-factor' | 'allow'>;

/** The default rule: a score at or above RISK_SECOND_FACTOR_SCORE owes the factor; no signals, no change. */
export const defaultDeviceRiskRule: DeviceRiskRule = ({ signals, settings }) =>
  signals && signals.score >= settings.secondFactorScore ? 'second-factor' : 'allow';

/** The signals recorded on a journey, if any (its `data.risk`). */
export function recordedRisk(journey: Pick<Journey, 'data'>): RecordedRisk | undefined {
  const risk = (journey.data as { risk?: unknown } | null)?.risk;
  return risk && typeof risk === 'object' ? (risk as RecordedRisk) : undefined;
}

/**
 * Does the rule demand a second factor of this login journey? Never when the step is off (the
 * default), so a deployment without a provider signs in exactly as before.
 */
export async function riskDemandsFactor(
  config: Config,
  rule: DeviceRiskRule,
  journey: Pick<Journey, 'data'>,
  account: Pick<Account, 'id' | 'username'>,
): Promise<boolean> {
  const settings = config.deviceRisk;
  if (!settings) return false;
  return (await rule({ signals: recordedRisk(journey), account, settings })) === 'second-factor';
}
