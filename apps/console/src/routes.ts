/** The console's hash routes. */
export const routes = { signIn: '/sign-in', customer: '/', audit: '/audit' } as const;
