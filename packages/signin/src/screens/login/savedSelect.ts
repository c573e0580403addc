/**
 * The saved-usernames select, in a chunk of its own: only a browser with saved usernames needs
 * it, and it is fetched when the remember call says there are some, before the select replaces
 * the username field (docs/decisions/029-languages.md, the login route's budget).
 */
export { Select } from '@gatehouse/ui';
