export * from './RadioGroup.tsx';
