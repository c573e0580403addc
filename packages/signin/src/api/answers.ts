/**
 * What the widget reads once a call has answered: the status tables and the callback-to-page
 * table. One on-demand chunk (shared/useCall.ts), off the login route's first paint.
 */
export { callbackScreen } from '../screen-tables.ts';
export { ignoredFailures, interpret } from './status-tables.ts';
