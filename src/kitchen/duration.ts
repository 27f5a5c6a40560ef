/** Moved to the language layer (src/language/duration.ts). */
export * from '../language/duration.js';
