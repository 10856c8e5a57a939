import { type GenerationRecord, type TaskQueryData, taskQuery } from '@reelsmith/contract';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../shared/api/client';
import { PollError, pollTask } from '../../shared/polling/poll';
import { isRunning } from './history';

type Answer = TaskQueryData<GenerationRecord['tool']>;

/** A history record brought up to date by a task query answer. */
function merge(record: GenerationRecord, answer: Answer): GenerationRecord {
  const outputs = ('videos' in answer ? answer.videos : undefined) ?? ('images' in answer ? answer.images : undefined);
  return { ...record, status: answer.status, progress: answer.progress ?? record.progress, outputs: outputs ?? record.outputs };
}

/**
 * A record as it stands: a finished one as the history gave it; a running one polled through the one polling
 * helper (every 2 s) until it ends, its progress stage following each answer. Leaving the page stops polling, and
 * so does an end learnt another way: `settle` takes a task state the service answered (a cancel's) into the record.
 */
export function useLiveRecord(record: GenerationRecord): [GenerationRecord, (answer: Answer) => void] {
  const [live, setLive] = useState(record);
  const running = isRunning(record.status);
  const polling = running && isRunning(live.status);
  useEffect(() => {
    if (!polling) return;
    const stop = new AbortController();
    const kind = record.tool;
    pollTask<Answer>({
      query: async (signal) => {
        const answer = await api(taskQuery(kind), { query: { taskId: record.taskId }, signal, silent: true });
        setLive((current) => merge(current, answer));
        return answer;
      },
      signal: stop.signal,
    }).catch((error: unknown) => {
      // A failed generation is shown in its row; the reason the service gave is kept beside the spec's words.
      const message = error instanceof PollError ? error.message : String(error);
      setLive((current) => ({ ...current, status: 'FAILURE', error: current.error ?? message }));
    });
    return () => stop.abort();
  }, [polling, record.tool, record.taskId]);
  const settle = useCallback((answer: Answer) => setLive((current) => merge(current, answer)), []);
  return [running ? live : record, settle];
}
