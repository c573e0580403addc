export * from './TimeLimitWarning.tsx';
