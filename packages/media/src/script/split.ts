import type { Language } from './language.js';
import { speechSeconds } from './rate.js';

/** One spoken line of a script (spec "Entities": segId is its position, from 1). */
export interface ScriptSegment {
  segId: number;
  segText: string;
}

/** A whole script, as an LLM provider or the local writer fills it (spec "Entities" scriptContentList). */
export interface ScriptVariant {
  scriptId: string;
  segments: ScriptSegment[];
}

export function numberSegments(lines: string[]): ScriptSegment[] {
  return lines.map((segText, index) => ({ segId: index + 1, segText }));
}

/** The user's own script (spec "States and transitions" script update): one segment per line, lines trimmed, blank lines dropped. */
export function splitScript(text: string): ScriptSegment[] {
  return numberSegments(
    text
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  );
}

/**
 * Sentences of running text: a Latin full stop ends one only before a space (so "3.5" stays whole), a Chinese
 * one ends it at once; line breaks and bullets end one too.
 */
export function sentences(text: string): string[] {
  return text
    .split(/\r\n|\r|\n|[•▪●]|(?<=[。！？；])|(?<=[.!?;])\s+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/** Splits a sentence at its commas into parts of at most `maxSeconds` of speech each, so no caption or scene drags. */
export function clauses(sentence: string, language: Language, maxSeconds: number): string[] {
  const parts = sentence.split(/(?<=[,，、:：]\s*)(?=\S)/u);
  const joined: string[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (last !== undefined && speechSeconds(last + part, language) <= maxSeconds) joined[joined.length - 1] = last + part;
    else joined.push(part);
  }
  return joined.map((part) => part.trim());
}
