import type { RouterConfig } from './config.js';
import { mayStartKitchen } from './kitchen-verb.js';
import { said } from '../language/text.js';

type PhraseKind = 'exact' | 'prefix' | 'near';
interface RawRule {
  do?: unknown;
  kitchen?: unknown;
  exact?: unknown;
  prefix?: unknown;
  near?: unknown;
}

function phrasesOf(rule: RawRule, kinds: readonly PhraseKind[]): string[] {
  const out: string[] = [];
  for (const kind of kinds) {
    const v = rule[kind];
    for (const p of typeof v === 'string' ? [v] : Array.isArray(v) ? v : []) if (typeof p === 'string' && !p.startsWith('@')) out.push(said(p).norm);
  }
  return out;
}

/**
 * Is this text, as it stands, a whole command of the top frame — one of its `exact` phrases, or a
 * `near` phrase said exactly ("yes", "no", "stop", "repeat", "end dictation")? Then hark can act on
 * a transcript of the words so far without waiting out the rest of the VAD hangover.
 *
 * Only when nothing the person might still add can make it a different command: no longer phrase
 * of the frame that does something else starts with these words ("cancel" and "cancel inventory"
 * may differ; "yes" and "yes please" do not), and, in a frame with a kitchen rule, they cannot be
 * the start of a timer or list request ("cancel" … "the rice timer" said into a query must not
 * cancel the query). Prefix and pattern rules are never complete: "computer set a timer" may go on
 * with "for five minutes". Pure.
 */
export function completeCommand(frames: RouterConfig['frames'], top: string | undefined, text: string): boolean {
  const norm = said(text).norm;
  if (!norm || top === undefined) return false;
  const rules = (((frames as Record<string, unknown>)[top] as { rules?: unknown[] } | undefined)?.rules ?? []).filter(
    (r): r is RawRule => typeof r === 'object' && r !== null,
  );
  const matched = rules.find((r) => phrasesOf(r, ['exact', 'near']).includes(norm));
  if (!matched) return false;
  const verbs = JSON.stringify(matched.do);
  const longer = rules.some((r) => JSON.stringify(r.do) !== verbs && phrasesOf(r, ['exact', 'near', 'prefix']).some((p) => p.startsWith(norm + ' ')));
  if (longer) return false;
  if (rules.some((r) => r.kitchen !== undefined) && mayStartKitchen(norm.split(' '))) return false;
  return true;
}
