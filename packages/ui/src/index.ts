import './styles.css';

export * from './alert/index.ts';
export * from './button/index.ts';
export * from './card/index.ts';
export * from './checkbox/index.ts';
export * from './code-input/index.ts';
export * from './error-summary/index.ts';
export * from './field/index.ts';
export * from './heading/index.ts';
export { motion, prefersReducedMotion } from './internal/motion.ts';
export { type Size, sizes } from './internal/sizes.ts';
export { useEnum, warnUnknown } from './internal/warnUnknown.ts';
export * from './messages.ts';
export * from './select/index.ts';
export * from './spinner/index.ts';
export * from './text-input/index.ts';
export * from './visually-hidden/index.ts';
