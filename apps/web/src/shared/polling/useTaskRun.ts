import { type TaskKind, type TaskQueryData, taskQuery } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { callQuery } from '../api/queries';
import { hasEnded } from './followTask';

/** How often a followed task's state is asked while it runs. */
const EVERY_MS = 2_000;

/**
 * One task of `kind` a component starts and waits for (a presenter made from a description, a product put in a
 * presenter's hands): `follow(taskId)` asks its state until it ends, then hands the answer to `onEnd` once.
 */
export function useTaskRun<K extends TaskKind>(kind: K, onEnd: (answer: TaskQueryData<K>) => void) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const ended = useRef(onEnd);
  ended.current = onEnd;
  const task = useQuery({
    ...callQuery(taskQuery(kind), { query: { taskId: taskId ?? '' } }),
    enabled: taskId !== null,
    refetchInterval: (query) => (hasEnded(query.state.data?.status) ? false : EVERY_MS),
  });
  const answer = task.data as TaskQueryData<K> | undefined;
  useEffect(() => {
    if (!taskId || !answer || !hasEnded(answer.status)) return;
    setTaskId(null);
    ended.current(answer);
  }, [taskId, answer]);
  return { running: taskId !== null, follow: setTaskId };
}
