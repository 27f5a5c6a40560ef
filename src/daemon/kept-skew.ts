import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { KeptSkew } from '../echo/component.js';
import { cardPair, ONE_CLOCK_PPM } from '../store/echo-skew.js';
import type { Store } from '../store/store.js';

/**
 * The echo canceller's skew for the cards configured, kept in the store (its echo_skew table, keyed by
 * capture.device and speech.device: other cards start from nothing). A failing or absent store costs
 * only the cold start's 8-16 s of measuring, so its errors are logged and passed over.
 */
export function keptSkew(
  config: { capture: { device: string }; speech: { device: string } },
  store: () => Store | null,
  log: Pick<Logger, 'warn' | 'info'>,
): KeptSkew {
  const cards = cardPair(config.capture.device, config.speech.device);
  return {
    known: () => {
      try {
        const kept = store()?.echoSkew().get(cards)?.ppm ?? null;
        if (kept === null && store())
          log.info(
            `echo canceller: the speaker's clock has not been measured on these cards (${cards}): \`hark clocks\` measures it now, in about 20 s; else hark's first minute of sound does`,
          );
        // `hark clocks` keeps a one-clock pair too, so that it is known to be measured: nothing to follow.
        return kept !== null && Math.abs(kept) < ONE_CLOCK_PPM ? null : kept;
      } catch (err) {
        log.warn('echo skew not read from the store: measured afresh', { error: errorMessage(err) });
        return null;
      }
    },
    keep: (ppm, errorPpm) => {
      try {
        store()?.echoSkew().save(cards, ppm, errorPpm);
      } catch (err) {
        log.warn('echo skew not kept in the store', { error: errorMessage(err) });
      }
    },
  };
}
