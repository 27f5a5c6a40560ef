import { z } from 'zod';

/**
 * Field builders that carry a person-readable reason, so `hark config` says
 * "vad.threshold: must be between 0 and 1" rather than zod's internal wording.
 */
export function between(min: number, max: number, def: number) {
  const why = `must be between ${min} and ${max}`;
  return z
    .number({ error: `must be a number between ${min} and ${max}` })
    .min(min, why)
    .max(max, why)
    .default(def);
}

export function intBetween(min: number, max: number, def: number) {
  const why = `must be a whole number between ${min} and ${max}`;
  return z.number({ error: why }).int(why).min(min, why).max(max, why).default(def);
}

/** A duration in milliseconds. */
export function ms(def: number, min = 0, max = 3_600_000) {
  return intBetween(min, max, def);
}

export function text(def: string) {
  return z.string({ error: 'must be a string' }).default(def);
}

export function nonEmpty(def: string) {
  return z.string({ error: 'must be a string' }).min(1, 'must not be empty').default(def);
}

export function flag(def: boolean) {
  return z.boolean({ error: 'must be true or false' }).default(def);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T, def: T[number]) {
  return z.enum(values, { error: `must be one of: ${values.join(', ')}` }).default(def as never);
}

/**
 * A key that has moved to another section: refused with the key to write instead, not as a typo
 * ("speech.echoMode: has moved: write echo.mode").
 */
export function movedTo(newKey: string) {
  return z.never({ error: `has moved: write ${newKey}` }).optional();
}

/** A config section: unknown keys are errors (a typo must not silently fall back to a default). */
export function section<T extends z.ZodRawShape>(shape: T) {
  // prefault (not default): the empty object is parsed, so every inner default is filled in.
  return z.strictObject(shape).prefault({} as never);
}
