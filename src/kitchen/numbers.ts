/** Moved to the language layer (src/language/numbers.ts). */
export * from '../language/numbers.js';
