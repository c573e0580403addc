export * from './mask.ts';
export * from './TextInput.tsx';
