export * from './List.tsx';
