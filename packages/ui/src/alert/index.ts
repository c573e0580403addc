export * from './Alert.tsx';
