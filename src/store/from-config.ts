import type { StoreConfig } from './config.js';
import type { StoreOptions } from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The daemon's store options from config `store:` (add bus, logger and clock at the call site). */
export function storeOptions(cfg: StoreConfig): StoreOptions {
  return {
    path: cfg.path,
    storeAudio: cfg.audio,
    minFreeBytes: Math.round(cfg.minFreeMb * 1024 * 1024),
    reserveBytes: Math.round(cfg.reserveMb * 1024 * 1024),
    housekeeping: {
      maxAgeMs: cfg.retentionDays * DAY_MS,
      maxAudioBytes: cfg.maxAudioMb * 1024 * 1024,
      batchSize: cfg.retentionBatch,
      intervalMs: cfg.housekeepingIntervalMs,
    },
  };
}
