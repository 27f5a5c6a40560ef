/**
 * Home Assistant's conversation API, as documented (developers.home-assistant.io, "Conversation
 * API"): POST /api/conversation/process with {text, language?, agent_id?, conversation_id?}; the
 * reply is
 *   { response: { response_type: action_done | query_answer | error, language, data,
 *                 speech: { plain: { speech, extra_data } } },
 *     conversation_id, continue_conversation }
 * An intent that did not match still answers HTTP 200, with response_type "error" and a spoken
 * apology. Pure: reading a reply does no I/O.
 */
export interface ConversationRequest {
  text: string;
  language?: string;
  agent_id?: string;
  conversation_id?: string;
}

export type ResponseType = 'action_done' | 'query_answer' | 'error';

export interface ConversationReply {
  /** What to say; empty when the agent said nothing. */
  speech: string;
  responseType: ResponseType;
  /** response.data.code on an error reply (no_intent_match, no_valid_targets, ...). */
  errorCode: string | null;
  conversationId: string | null;
  /** The agent asked something back: listen for the answer without the wake word. */
  continueConversation: boolean;
}

const TYPES: readonly string[] = ['action_done', 'query_answer', 'error'];

/** Read a reply body; throws an Error saying what was wrong with it. */
export function readReply(body: string): ConversationReply {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new Error(`not JSON: ${JSON.stringify(body.slice(0, 80))}`);
  }
  if (!isObject(raw)) throw new Error('not a JSON object');
  const response = raw.response;
  if (!isObject(response)) throw new Error('no "response" object');
  const type = response.response_type;
  if (typeof type !== 'string' || !TYPES.includes(type)) throw new Error(`response.response_type is ${JSON.stringify(type)}, not one of ${TYPES.join(', ')}`);
  let speech = '';
  if (response.speech !== undefined && response.speech !== null) {
    const plain = isObject(response.speech) ? response.speech.plain : undefined;
    const said = isObject(plain) ? plain.speech : undefined;
    if (said !== undefined && typeof said !== 'string') throw new Error('response.speech.plain.speech is not text');
    speech = (said ?? '').trim();
  }
  const id = raw.conversation_id;
  if (id !== undefined && id !== null && typeof id !== 'string') throw new Error('conversation_id is not text');
  const code = isObject(response.data) && typeof response.data.code === 'string' ? response.data.code : null;
  return {
    speech,
    responseType: type as ResponseType,
    errorCode: type === 'error' ? code : null,
    conversationId: id ? id : null,
    continueConversation: raw.continue_conversation === true,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
