import './events.js';
import type { Bus } from '../core/bus.js';
import type { EchoGate } from '../echo/gate.js';

/** Follow hark's playback from the bus. Returns a function that stops following. */
export function bindEchoGate(bus: Bus, gate: EchoGate): () => void {
  const offs = [
    bus.on('speak.start', () => gate.playbackStarted()),
    bus.on('speak.end', () => gate.playbackEnded()),
    bus.on('speak.stopped', () => gate.playbackEnded()),
    bus.on('speak.error', () => gate.playbackEnded()),
  ];
  return () => offs.forEach((off) => off());
}
