/** Moved to the language layer (src/language/text.ts); kept here for the modules that still import it from the router. */
export * from '../language/text.js';
