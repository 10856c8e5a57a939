// OpenAI's chat completions API (POST /chat/completions), asked for one JSON object.
import { z } from 'zod';
import type { ProviderSettings } from '../../settings.js';
import { ProviderError, post } from './http.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }), finish_reason: z.string().nullish() })).min(1),
});

/** The model answered, but not what was asked (not JSON, or JSON of the wrong shape): asking again may help. */
export class InvalidAnswerError extends ProviderError {
  override name = 'InvalidAnswerError';
}

/** Models sometimes wrap JSON in a Markdown fence even in JSON mode; the object inside is the answer. */
const unfenced = (content: string) => content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');

/**
 * Sends the messages and answers the model's JSON, parsed but not yet validated (the caller's schema knows its
 * shape). No sampling parameters: some models refuse any temperature but their own.
 */
export async function chatJson(api: ProviderSettings, messages: ChatMessage[], signal?: AbortSignal): Promise<unknown> {
  const request = { model: api.model, messages, response_format: { type: 'json_object' } };
  let bytes: Uint8Array;
  try {
    bytes = await post(api, '/chat/completions', request, signal);
  } catch (error) {
    // An OpenAI-compatible server without JSON mode refuses the field; the prompt asks for JSON all the same.
    if (!(error instanceof ProviderError && error.status === 400 && /response_format/i.test(error.message))) throw error;
    bytes = await post(api, '/chat/completions', { model: api.model, messages }, signal);
  }
  let completion: z.infer<typeof Completion>;
  try {
    completion = Completion.parse(JSON.parse(new TextDecoder().decode(bytes)));
  } catch (error) {
    throw new ProviderError(`${api.baseUrl}/chat/completions answered something that is not a chat completion`, undefined, {
      cause: error,
    });
  }
  const choice = completion.choices[0] as (typeof completion.choices)[number];
  try {
    return JSON.parse(unfenced(choice.message.content ?? ''));
  } catch (error) {
    const cut = choice.finish_reason === 'length' ? " (the answer was cut off at the model's length limit)" : '';
    throw new InvalidAnswerError(`model ${api.model} did not answer JSON${cut}`, undefined, { cause: error });
  }
}
