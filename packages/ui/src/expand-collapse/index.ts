export * from './ExpandCollapse.tsx';
