/**
 * The words every router.frames / router.voices check shares: a problem with its path in the YAML
 * (router.frames.query.rules.2.pattern: ...), and how a wrong value is described back.
 */
export interface SpecIssue {
  path: (string | number)[];
  message: string;
}

export type Path = (string | number)[];

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return JSON.stringify(v);
}
