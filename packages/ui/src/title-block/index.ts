export * from './TitleBlock.tsx';
