import { type CallBody, type TaskKind, taskSubmit } from '@reelsmith/contract';
import { api } from '../../shared/api/client';
import { refreshCredits } from '../credits';

export type GenerationInput<K extends TaskKind> = CallBody<ReturnType<typeof taskSubmit<K>>>;

/**
 * Submits one generation (the service charges it in the same step) and refreshes the balance, so the header
 * shows what is left. Answers the task id; a refusal has been shown as a toast by the API client.
 */
export async function submitGeneration<K extends TaskKind>(kind: K, body: GenerationInput<K>): Promise<string> {
  const { taskId } = await api(taskSubmit(kind), { body });
  void refreshCredits();
  return taskId;
}
