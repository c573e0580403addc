export { type Args, type CatalogLoaders, type Compiled, loadCatalog, translator } from './catalog.ts';
export {
  acceptedLanguages,
  defaultLanguage,
  isLanguage,
  type Language,
  languageNames,
  languages,
  pickLanguage,
} from './languages.ts';
