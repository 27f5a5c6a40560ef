/**
 * The parts of node-record-lpcm16 (CommonJS, untyped) that hark uses. The constructor spawns the
 * recorder at once; `process` is that child, `stream()` its stdout. The library emits a *string*
 * (not an Error) as 'error' on the stream whenever the child closes with a non-zero code — including
 * code null after a signal — so a listener is mandatory or Node throws it as an unhandled error.
 */
declare module 'node-record-lpcm16' {
  import type { ChildProcessWithoutNullStreams } from 'node:child_process';
  import type { Readable } from 'node:stream';

  export interface RecordOptions {
    sampleRate?: number;
    channels?: number;
    recorder?: 'arecord' | 'sox' | 'rec';
    audioType?: string;
    device?: string | null;
    [option: string]: unknown;
  }

  export interface Recording {
    readonly process: ChildProcessWithoutNullStreams;
    stream(): Readable;
    stop(): void;
  }

  const lib: { record(options?: RecordOptions): Recording };
  export default lib;
}
