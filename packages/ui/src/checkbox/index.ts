export * from './Checkbox.tsx';
