/**
 * Chinese text as words (decision "Chinese words"): jieba's dictionary and its hidden Markov model for words the
 * dictionary lacks, so 牛仔裤, 连衣裙 and 一字肩 stay whole where ICU's dictionary split them (牛仔|裤, 连|衣裙).
 * Captions break lines only between these words, the voice's timings are spread over them, and a long name is
 * cut at one of them.
 */
import { cut } from 'jieba-wasm';

/** The words of a run of Chinese text, in order; together they are the run. */
export const chineseWords = (run: string): string[] => cut(run, true);
