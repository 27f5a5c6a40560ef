import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { VirtualDrive } from '../../src/core/virtual-drive.js';

/** simulate's and replay's one way through virtual time: timer by timer, each one's work settled before the next. */
describe('the virtual-clock driver', () => {
  const rig = () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    let inFlight: Promise<void>[] = [];
    // A timer that sets off async work (a delivery): it is reported at its own time, before the next timer.
    const deliverAt = (at: number, name: string) =>
      clock.setTimer(at, () => {
        seen.push(`${name} fired @${clock.now()}`);
        inFlight.push(Promise.resolve().then(() => void seen.push(`${name} delivered @${clock.now()}`)));
      });
    const settle = async () => {
      const now = inFlight;
      inFlight = [];
      await Promise.all(now);
    };
    return { clock, seen, deliverAt, drive: new VirtualDrive(clock, settle) };
  };

  it('moving to a time runs each timer on the way and settles what it set off before the next', async () => {
    const { clock, seen, deliverAt, drive } = rig();
    deliverAt(100, 'a');
    deliverAt(200, 'b');
    deliverAt(900, 'c');
    await drive.advanceTo(500);
    expect(seen).toEqual(['a fired @100', 'a delivered @100', 'b fired @200', 'b delivered @200']);
    expect(clock.now()).toBe(500);
  });

  it('running the timers out stops at the last one due within the limit, not at the limit', async () => {
    const { clock, seen, deliverAt, drive } = rig();
    deliverAt(100, 'a');
    deliverAt(5000, 'late');
    await drive.runTimers(1000);
    expect(seen).toEqual(['a fired @100', 'a delivered @100']);
    expect(clock.now()).toBe(100);
    expect(clock.pending()).toBe(1);
  });
});
