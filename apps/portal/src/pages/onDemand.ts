import { onDemand } from '@gatehouse/signin';
import { texts } from '../texts.ts';

/**
 * The portal's pages off the login route, behind one dynamic import (one on-demand chunk) with
 * their texts, so the login route stays within its budget; the portal fetches it when the browser
 * is idle, so the next page does not wait on the network (docs/decisions/019-small-router.md).
 */
export const pages = onDemand(() =>
  import('./lazy.ts').then(async (module) => {
    await texts.load('pages', module.pageTexts);
    return module;
  }),
);
