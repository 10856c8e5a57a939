import type { TaskKind } from '@reelsmith/contract';
import { useState } from 'react';
import { ApiError } from '../../shared/api/client';
import { type GenerationInput, submitGeneration } from './submit';

/**
 * The submit of a tool form: check the form (the first problem is shown and nothing is sent), submit, and
 * count the runs so the history beside the tool reloads with the new task first.
 */
export function useGenerationForm() {
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [runs, setRuns] = useState(0);

  const submit = async <K extends TaskKind>(kind: K, check: () => string | null, body: () => GenerationInput<K>) => {
    const found = check();
    setProblem(found);
    if (found) return;
    setSubmitting(true);
    try {
      await submitGeneration(kind, body());
      setRuns((count) => count + 1);
    } catch (error) {
      // The API client has shown why the service refused (not enough credits, a bad picture…).
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSubmitting(false);
    }
  };

  return { problem, setProblem, submitting, runs, submit };
}
