/**
 * Work run one job at a time, in the order it was given, whatever each job's outcome: hark's one way
 * to keep work in line — a command-core plugin's line (the intent pass's model calls, Home
 * Assistant's conversation turns), the VAD's frames, speech-to-text's turns and an engine's
 * uninterruptible calls, a file target's appends. `busy` and `idle()` are what CommandCore.idle()
 * waits on.
 */
export class OneAtATime {
  private chain: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Run `work` after every job given before it; its own result (or error) is returned. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.chain.then(work);
    this.chain = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.pending--);
    return run;
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves when no job is waiting or running (jobs given meanwhile are waited for too). */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.chain;
  }
}
