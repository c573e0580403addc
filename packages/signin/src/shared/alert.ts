/**
 * The alert, as its own on-demand chunk: the login route shows one only after a failed submit, so
 * it (with the icons it draws) is fetched when the browser is idle, not before the first paint.
 */
export { Alert } from '@gatehouse/ui';
