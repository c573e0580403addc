export * from './envelope.ts';
export * from './headers.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './paths.ts';
export * from './rules/username.ts';
export * from './schemas.ts';
export * from './status.ts';
