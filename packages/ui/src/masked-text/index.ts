export * from './MaskedText.tsx';
