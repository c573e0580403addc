export * from './Field.tsx';
