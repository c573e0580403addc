export * from './animate.ts';
export * from './useAnimate.ts';
