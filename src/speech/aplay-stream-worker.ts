import { parentPort, workerData } from 'node:worker_threads';
import { SystemClock } from '../core/clock.js';
import { AplayStream } from './aplay-stream.js';
import type { Playback, StreamingPlayback } from './playback.js';
import { mainTimeline, type FromWorker, type ToWorker, type WorkerInit } from './aplay-stream-protocol.js';

/**
 * The thread that feeds the long-lived aplay (see aplay-stream-thread.ts for why). It runs the same
 * AplayStream as the main thread would, on a clock laid over the main thread's, spawns aplay from here
 * and keeps writing to it whatever the main thread is doing; it reports back what it mixed and when
 * that is due to sound (for the echo reference), each clip's start and end, and aplay's pid.
 */
const port = parentPort!;
const init = workerData as WorkerInit;
const now = mainTimeline(init.originNs);

class MainClock extends SystemClock {
  override now(): number {
    return now();
  }
}

const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

const stream = new AplayStream({
  ...init.options,
  clock: new MainClock(),
  reference: init.reference
    ? {
        // Copied: the mix's buffer is still to be written to aplay.
        streamed: (pcm, atMs, s) => {
          const copy = pcm.slice();
          post({ t: 'streamed', pcm: copy, atMs, stream: s }, [copy.buffer]);
        },
        moved: (atMs) => post({ t: 'moved', atMs }),
      }
    : null,
  onLate: (lateMs) => post({ t: 'late', lateMs }),
});

const clips = new Map<number, Playback | StreamingPlayback>();
let lastPid: number | undefined;
let lastProcesses = 0;
let closing = false;
let watch: NodeJS.Timeout | null = null;

/** Which aplay runs, if that changed. */
function reportPid(): void {
  const pid = stream.pid;
  if (pid !== lastPid || stream.processes !== lastProcesses) {
    lastPid = pid;
    lastProcesses = stream.processes;
    post({ t: 'pid', pid, processes: lastProcesses });
  }
}

/** pid changes and each clip's progress, while anything plays or aplay is open. */
function report(): void {
  const pid = stream.pid;
  reportPid();
  for (const [id, pb] of clips) post({ t: 'played', id, ms: pb.playedMs() });
  if (clips.size === 0 && pid === undefined) {
    if (watch) clearInterval(watch);
    watch = null;
    // Closed, and aplay has gone: the thread ends.
    if (closing) process.exit(0);
  }
}

function watchOn(): void {
  watch ??= setInterval(report, 25);
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'play': {
      const pb = m.complete ? stream.play(m.pcm) : stream.playStream();
      if (!m.complete && m.pcm.length > 0) (pb as StreamingPlayback).push(m.pcm);
      clips.set(m.id, pb);
      // The process it plays through is told first (the port keeps order), so a clip's pid is known once
      // it has started. A new aplay is usually reading already when its 'spawn' event comes, so the clip
      // starts in that event, before the setImmediate report below: 'started' alone came first, and the
      // main thread's pb.pid was still undefined, or the previous (closed) aplay's.
      void pb.started.then(() => {
        reportPid();
        post({ t: 'started', id: m.id });
      });
      void pb.done.then((result) => {
        clips.delete(m.id);
        post({ t: 'done', id: m.id, result });
      });
      watchOn();
      // The pid is known at spawn; tell it soon after.
      setImmediate(report);
      break;
    }
    case 'push':
      (clips.get(m.id) as StreamingPlayback | undefined)?.push(m.pcm);
      break;
    case 'end':
      (clips.get(m.id) as StreamingPlayback | undefined)?.end();
      break;
    case 'stop':
      void clips.get(m.id)?.stop();
      break;
    case 'close':
      closing = true;
      stream.close();
      watchOn();
      break;
    case 'ping':
      post({ t: 'pong', n: m.n, now: now() });
      break;
  }
});
