// AI scripts from an OpenAI-compatible chat model (issue 5 pipeline 2): the same brief as the local writer, the
// model's answer checked as strictly as our own output (shape, language, distinctness, length) before it is used.
import {
  detectLanguage,
  FILL,
  HAN_PER_SECOND,
  type Language,
  type ScriptBrief,
  type ScriptVariant,
  SEGMENT_PAUSE,
  scriptSeconds,
  WORDS_PER_SECOND,
} from '@reelsmith/media';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ProviderSettings } from '../../settings.js';
import type { ScriptWriter } from '../provider.js';
import { type ChatMessage, chatJson } from './chat.js';
import { ProviderError } from './http.js';

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: 'Simplified Chinese', pt: 'Brazilian Portuguese' };

/** About as many lines as the local writer's scripts; the budget below is what really sizes them. */
const LINES = { 15: 4, 30: 6, 45: 8 } as const;
/** A shop page's description can be pages long; the facts an ad needs are in its first part. */
const MAX_DESCRIPTION_CHARS = 4000;

/** What a voice can say in the ad's length at our natural rate, after the pause each line leaves. */
function budget({ language, videoLength }: ScriptBrief): string {
  const seconds = videoLength * FILL - LINES[videoLength] * SEGMENT_PAUSE;
  return language === 'zh'
    ? `at most ${Math.floor(seconds * HAN_PER_SECOND)} Chinese characters in all`
    : `at most ${Math.floor(seconds * WORDS_PER_SECOND)} words in all`;
}

function prompt(brief: ScriptBrief): ChatMessage[] {
  const description = brief.productDescription.trim().slice(0, MAX_DESCRIPTION_CHARS) || '(none)';
  return [
    {
      role: 'system',
      content: 'You write voice-over scripts for short vertical video ads that sell one product. You answer with JSON only.',
    },
    {
      role: 'user',
      content: [
        `Product name: ${brief.productName.trim()}`,
        `Product description:\n${description}`,
        '',
        `Write ${brief.count === 1 ? 'one ad script' : `${brief.count} different ad scripts`} in ${LANGUAGE_NAMES[brief.language]}, each read aloud in ${brief.videoLength} seconds: ${budget(brief)}, in about ${LINES[brief.videoLength]} lines.`,
        'Each script is a list of short spoken lines in this order: a hook that stops the scroll; benefits taken from the product facts above; one line of proof or reassurance; a call to action.',
        'Each line is one sentence a voice says in one breath.',
        'Make the scripts distinct: each opens with a different hook and takes a different angle.',
        'Claim nothing the product data does not say: no prices, discounts, ratings, reviews or stock levels unless given above.',
        'Only the words to be spoken: no emojis, hashtags, labels, stage directions or numbering.',
        'Answer with this JSON: {"scripts": [{"lines": ["…", "…"]}]}',
      ].join('\n'),
    },
  ];
}

/** Models name the script's parts now and then ("Hook: …", "1. …") although asked not to; the voice must not read them. */
const clean = (line: string) =>
  line
    .replace(/^\s*(?:[-*•]|\d+[.)]|(?:hook|benefits?|proof|call to action|cta)\s*\d*\s*:)\s*/iu, '')
    .replace(/^["“”']+|["“”']+$/gu, '')
    .trim();

const Answer = z.object({
  scripts: z.array(z.union([z.object({ lines: z.array(z.string()) }), z.array(z.string()).transform((lines) => ({ lines }))])),
});

/** Drops benefits from the end until the script fits the ad: the hook, proof and call to action always stay. */
function fit(lines: string[], { language, videoLength }: ScriptBrief): string[] {
  const fitted = [...lines];
  const seconds = () =>
    scriptSeconds(
      fitted.map((segText) => ({ segText })),
      language,
    );
  while (fitted.length > 3 && seconds() > videoLength * FILL) fitted.splice(fitted.length - 3, 1);
  return fitted;
}

/** The model's scripts that can be used: in the brief's language, distinct, sized to the video. */
export function usableScripts(answer: unknown, brief: ScriptBrief): ScriptVariant[] {
  const parsed = Answer.safeParse(answer);
  if (!parsed.success) throw new ProviderError(`the model's scripts are not {"scripts": [{"lines": [...]}]}: ${parsed.error.message}`);
  const seen = new Set<string>();
  const scripts: ScriptVariant[] = [];
  for (const { lines } of parsed.data.scripts) {
    const fitted = fit(lines.map(clean).filter(Boolean), brief);
    const key = fitted.join('\n').toLowerCase();
    if (fitted.length === 0 || seen.has(key) || detectLanguage(key) !== brief.language) continue;
    seen.add(key);
    scripts.push({ scriptId: `llm-${scripts.length + 1}`, segments: fitted.map((segText, index) => ({ segId: index + 1, segText })) });
  }
  if (scripts.length === 0) throw new ProviderError(`the model wrote no usable script in ${LANGUAGE_NAMES[brief.language]}`);
  return scripts.slice(0, brief.count);
}

/**
 * The LLM writer. When the model fails the task fails (decision "No provider fallback"): the operator chose the LLM, and
 * quietly writing template scripts instead would hide an outage behind worse ads.
 */
export function openAiScriptWriter(api: ProviderSettings): ScriptWriter {
  return {
    async write(brief, signal) {
      try {
        return usableScripts(await chatJson(api, prompt(brief), signal), brief);
      } catch (error) {
        if (error instanceof ProviderError) throw new AppError('scriptWriterFailed', {}, { cause: error });
        throw error;
      }
    },
  };
}
