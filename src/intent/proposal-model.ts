/**
 * What the intent pass needs from a language model, whatever serves it: send the conversation
 * with a JSON schema, get the raw reply back. The Ollama client (ollama-client.ts) is the real
 * one; the pass never sees HTTP.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelReply {
  /** The assistant message as the model wrote it (validated by proposal.ts, never trusted). */
  content: string;
  /** The model that answered, as the server named it. */
  model: string;
  /** Wall time of the whole request, retries included. */
  latencyMs: number;
  attempts: number;
}

/** Why the model could not be asked: each is an outage as far as the person is concerned. */
export type UnavailableKind = 'unreachable' | 'timeout' | 'model-missing' | 'server-error' | 'bad-response' | 'rejected';

export class ModelUnavailable extends Error {
  constructor(
    readonly kind: UnavailableKind,
    message: string,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'ModelUnavailable';
  }
}

/** The caller gave up (its own signal aborted): not the model's fault, not an outage. */
export class ModelCallAborted extends Error {
  constructor() {
    super('the intent request was abandoned by its caller');
    this.name = 'ModelCallAborted';
  }
}

export interface ProposalModel {
  readonly model: string;
  readonly host: string;
  /** Resolves with the reply; rejects with ModelUnavailable or ModelCallAborted only. */
  propose(messages: readonly ChatMessage[], format: Record<string, unknown>, signal?: AbortSignal): Promise<ModelReply>;
  /** Load the model into memory ahead of the first request. Rejects with ModelUnavailable. */
  warmUp(): Promise<void>;
}
