import type { RouterConfig } from './config.js';

/**
 * Point each of `frames` at `target` (the intent pass, Home Assistant's agent); returns the new
 * router config and where each frame pointed before, so the target can hand back what it does not
 * take. Their rules stay as they are: what hark's rules can do alone never waits on the target.
 */
export function routeFramesTo(router: RouterConfig, frames: readonly string[], target: string): { router: RouterConfig; fallbacks: Record<string, string> } {
  const routed = { ...router.frames };
  const fallbacks: Record<string, string> = {};
  for (const name of frames) {
    const f = routed[name];
    if (!f) continue;
    if (f.target && f.target !== target) fallbacks[name] = f.target;
    routed[name] = { ...f, target };
  }
  return { router: { ...router, frames: routed }, fallbacks };
}
