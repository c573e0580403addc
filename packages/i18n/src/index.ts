export { type Args, type CatalogLoaders, type Compiled, loadCatalog, translator } from './catalog.ts';
export {
  acceptedLanguages,
  browserLanguage,
  defaultLanguage,
  isLanguage,
  type Language,
  languageNames,
  languages,
  localeOf,
  pickLanguage,
} from './languages.ts';
export { type TextStore, textStore } from './texts.ts';
