import { KitchenLanguage } from './kitchen.js';

let built: KitchenLanguage | undefined;

/** The kitchen language with only its built-in sentences, built on first use (for readers that have no config). */
export function defaultLanguage(): KitchenLanguage {
  return (built ??= new KitchenLanguage());
}
