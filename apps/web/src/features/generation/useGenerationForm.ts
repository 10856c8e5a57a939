import type { TaskKind } from '@reelsmith/contract';
import { useState } from 'react';
import { ApiError } from '../../shared/api/client';
import { type GenerationInput, submitGeneration } from './submit';

/**
 * The submit of a tool form. `check` answers the form's first problem, or null when it can be sent: nothing is
 * sent while there is one. A problem shows once a submit has been tried and is checked again on every change, so
 * it goes as soon as the field is fixed (an image picked after "Please add an image") and is never left standing.
 * Each submit that lands counts a run, so the history beside the tool reloads with the new task first, and names
 * that task, so the history can bring it into view.
 */
export function useGenerationForm(check: () => string | null) {
  const [tried, setTried] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [runs, setRuns] = useState(0);
  const [newTaskId, setNewTaskId] = useState<string | null>(null);
  const problem = tried ? check() : null;

  const submit = async <K extends TaskKind>(kind: K, body: () => GenerationInput<K>) => {
    setTried(true);
    if (check()) return;
    setSubmitting(true);
    try {
      setNewTaskId(await submitGeneration(kind, body()));
      setRuns((count) => count + 1);
      // A fresh form (the next prompt being typed) is not told off before its own submit.
      setTried(false);
    } catch (error) {
      // The API client has shown why the service refused (not enough credits, a bad picture…).
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSubmitting(false);
    }
  };

  return { problem, submitting, runs, newTaskId, submit };
}
