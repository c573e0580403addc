export * from './Heading.tsx';
