// AI scripts from an OpenAI-compatible chat model: the page's facts go in as structured data, the answer must
// match a schema (language, scripts of segments, within a word budget) and claim no figure the facts lack; an answer
// that does not is sent back to the model with what was wrong, a few times, before the task fails.
import {
  detectLanguage,
  FILL,
  HAN_PER_SECOND,
  type Language,
  type ScriptBrief,
  type ScriptVariant,
  SEGMENT_PAUSE,
  scriptSeconds,
  shortName,
  spokenPrice,
  WORDS_PER_SECOND,
} from '@reelsmith/media';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ProviderSettings } from '../../settings.js';
import type { ScriptWriter } from '../provider.js';
import { type ChatMessage, chatJson, InvalidAnswerError } from './chat.js';
import { ProviderError } from './http.js';

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: 'Simplified Chinese', pt: 'Brazilian Portuguese' };

/** About as many lines as the local writer's scripts; the budget below is what really sizes them. */
const LINES = { 15: 4, 30: 6, 45: 8 } as const;
/** A shop page's description can be pages long; the facts an ad needs are in its first part. */
const MAX_DESCRIPTION_CHARS = 4000;
/** Asking once more with what was wrong usually mends a model's answer; more rarely does. */
const MAX_ATTEMPTS = 3;

/** What a voice can say in the ad's length at our natural rate, after the pause each line leaves. */
function budget({ language, videoLength }: ScriptBrief): { limit: number; unit: string } {
  const seconds = videoLength * FILL - LINES[videoLength] * SEGMENT_PAUSE;
  return language === 'zh'
    ? { limit: Math.floor(seconds * HAN_PER_SECOND), unit: 'Chinese characters' }
    : { limit: Math.floor(seconds * WORDS_PER_SECOND), unit: 'words' };
}

/** The page's facts as the model gets them: only what the page said, named so the rules below can refer to them. */
function factsOf(brief: ScriptBrief) {
  const { offer, rating, language } = brief;
  return {
    name: brief.productName.trim(),
    spokenName: shortName(brief.productName, language),
    brand: brief.productBrand?.trim() || undefined,
    price: offer ? spokenPrice(offer.price, offer.currency, language) : undefined,
    priceBeforeSale: offer?.listPrice ? spokenPrice(offer.listPrice, offer.currency, language) : undefined,
    rating: rating && rating.count > 0 ? { starsOutOf5: rating.value, reviews: rating.count } : undefined,
    description: brief.productDescription.trim().slice(0, MAX_DESCRIPTION_CHARS) || undefined,
    features: brief.features?.length ? brief.features : undefined,
    materials: brief.materials?.length ? brief.materials : undefined,
  };
}

/** The angles the model may take: social proof only when the page has reviews, the offer only with a price. */
function anglesOf(brief: ScriptBrief): string[] {
  return [
    'problem → solution',
    'feature tour',
    ...(brief.offer ? ['offer-led'] : []),
    ...(brief.rating?.count ? ['social proof (the rating and review count given)'] : []),
    'brand or product spotlight',
  ];
}

function prompt(brief: ScriptBrief): ChatMessage[] {
  const { limit, unit } = budget(brief);
  const language = LANGUAGE_NAMES[brief.language];
  return [
    {
      role: 'system',
      content: [
        'You write voice-over scripts for short vertical video ads that sell one product. You answer with JSON only.',
        'Every claim about the product must come from the facts you are given: never invent a price, discount, rating, review, award, statistic, stock level or customer quote, and never say that people love, choose or recommend it unless the facts give a rating and review count.',
      ].join('\n'),
    },
    {
      role: 'user',
      content: [
        `Product facts (JSON): ${JSON.stringify(factsOf(brief))}`,
        '',
        `Write ${brief.count === 1 ? 'one ad script' : `${brief.count} different ad scripts`} in ${language}, each read aloud in ${brief.videoLength} seconds: at most ${limit} ${unit} in all, in about ${LINES[brief.videoLength]} segments.`,
        `Take a different angle for each script, from: ${anglesOf(brief).join('; ')}.`,
        'Each script is a list of segments in this order: a hook that stops the scroll; facts from the product facts; the price when one is given; a call to action. Each segment is one complete sentence a voice says in one breath, not a fragment.',
        `Call the product by its spokenName. Write natural ${language}${brief.language === 'pt' ? ' (Brazilian usage; when you cannot tell the product noun’s gender, use constructions that need none)' : ''}${brief.language === 'zh' ? ' with full-width punctuation and no spaces between Chinese words' : ''}.`,
        'Only the words to be spoken: no emojis, hashtags, labels, stage directions or numbering.',
        `Answer with this JSON: {"language": "${brief.language}", "scripts": [{"angle": "…", "segments": ["…", "…"]}]}`,
      ].join('\n'),
    },
  ];
}

/** Models name the script's parts now and then ("Hook: …", "1. …") although asked not to; the voice must not read them. */
const clean = (line: string) =>
  line
    .replace(/^\s*(?:[-*•]|\d+[.)]|(?:hook|benefits?|proof|facts?|price|call to action|cta)\s*\d*\s*:)\s*/iu, '')
    .replace(/^["“”']+|["“”']+$/gu, '')
    .trim();

/** One script: the schema's segments, or `lines` and bare lists as older prompts and some models write them. */
const Script = z.union([
  z.object({ segments: z.array(z.string()) }).transform(({ segments }) => segments),
  z.object({ lines: z.array(z.string()) }).transform(({ lines }) => lines),
  z.array(z.string()),
]);
const Answer = z.object({ language: z.string().optional(), scripts: z.array(Script) });

/** Drops facts from the end until the script fits the ad: the hook and the last two lines (price, call to action) stay. */
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

/** Figures as written in text ("24", "1,749.00", "4.6"). */
const figures = (text: string) => text.match(/\d[\d.,]*\d|\d/gu) ?? [];
/** A figure's digits without grouping or cents, so "$1,749" finds "1749.00" and "4,6" finds "4.6". */
const digitsOf = (figure: string) => figure.replace(/[.,]\d{2}$/u, '').replace(/[.,]/gu, '');

/** A figure the script says that no fact states: an invented price, percentage or count. */
function inventedFigure(lines: string[], brief: ScriptBrief): string | undefined {
  const facts = JSON.stringify(factsOf(brief));
  const known = new Set(figures(facts).flatMap((figure) => [digitsOf(figure), figure.replace(/[.,]/gu, '')]));
  return figures(lines.join(' ')).find((figure) => !known.has(digitsOf(figure)) && !known.has(figure.replace(/[.,]/gu, '')));
}

/** The model's scripts that can be used: in the brief's language, distinct, sized to the video, claiming no figure the facts lack. */
export function usableScripts(answer: unknown, brief: ScriptBrief): ScriptVariant[] {
  const parsed = Answer.safeParse(answer);
  if (!parsed.success)
    throw new InvalidAnswerError(`the model's scripts are not {"scripts": [{"segments": [...]}]}: ${parsed.error.message}`);
  const seen = new Set<string>();
  const scripts: ScriptVariant[] = [];
  const refused: string[] = [];
  for (const lines of parsed.data.scripts) {
    const fitted = fit(lines.map(clean).filter(Boolean), brief);
    const key = fitted.join('\n').toLowerCase();
    const invented = inventedFigure(fitted, brief);
    if (invented) refused.push(`a script says ${invented}, which the product facts do not state`);
    if (fitted.length === 0 || seen.has(key) || detectLanguage(key) !== brief.language || invented) continue;
    seen.add(key);
    scripts.push({ scriptId: `llm-${scripts.length + 1}`, segments: fitted.map((segText, index) => ({ segId: index + 1, segText })) });
  }
  if (scripts.length === 0)
    throw new InvalidAnswerError(
      `the model wrote no usable script in ${LANGUAGE_NAMES[brief.language]}${refused.length ? `: ${refused.join('; ')}` : ''}`,
    );
  return scripts.slice(0, brief.count);
}

/**
 * The LLM writer. An answer that breaks the schema or the facts goes back to the model with what was wrong, up to
 * MAX_ATTEMPTS times. When the model still fails the task fails (decision "No provider fallback"): the operator
 * chose the LLM, and quietly writing template scripts instead would hide an outage behind worse ads.
 */
export function openAiScriptWriter(api: ProviderSettings): ScriptWriter {
  return {
    async write(brief, signal) {
      const messages = prompt(brief);
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await chatJson(api, messages, signal);
          return usableScripts(answer, brief);
        } catch (error) {
          if (error instanceof InvalidAnswerError && attempt < MAX_ATTEMPTS) {
            messages.push({ role: 'user', content: `That answer cannot be used: ${error.message}. Answer again with the JSON asked for.` });
            continue;
          }
          if (error instanceof ProviderError) throw new AppError('scriptWriterFailed', {}, { cause: error });
          throw error;
        }
      }
    },
  };
}
