import { appCodeMessages } from './app-code-messages.ts';
import { consoleMessages } from './console-messages.ts';
import { deviceMessages } from './device-messages.ts';
import { factorServerMessages } from './factor-contracts.ts';
import { factorMessages, identityMessages, loginMessages } from './messages.ts';
import { pushMessages } from './push-messages.ts';
import { passwordUpdateMessages, recoveryMessages } from './recovery-messages.ts';
import { securityMessages } from './security-messages.ts';

/**
 * Every text the server sends in an envelope: the groups above, so a client imports only its own.
 * A pure call, not an object spread: a bundler can drop it (and the groups only it uses) from a
 * client that never reads it, where a spread of the groups would be kept for its possible getters.
 */
export const serverMessages: typeof loginMessages &
  typeof identityMessages &
  typeof recoveryMessages &
  typeof passwordUpdateMessages &
  typeof factorMessages &
  typeof pushMessages &
  typeof appCodeMessages &
  typeof deviceMessages &
  typeof securityMessages &
  typeof consoleMessages &
  typeof factorServerMessages = /* @__PURE__ */ Object.assign(
  {},
  loginMessages,
  identityMessages,
  recoveryMessages,
  passwordUpdateMessages,
  factorMessages,
  pushMessages,
  appCodeMessages,
  deviceMessages,
  securityMessages,
  consoleMessages,
  // Each factor contract's texts (factors/index.ts).
  factorServerMessages,
);
