import { type GenerationRecord, type TaskQueryData, taskQuery } from '@reelsmith/contract';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../shared/api/client';
import { PollError, pollTask } from '../../shared/polling/poll';
import { endsAtOf } from '../../shared/progress/estimate';
import { isRunning } from './history';

type Answer = TaskQueryData<GenerationRecord['tool']>;

/** A record as it stands, with when its task should end as its last answer tells (decision "Progress estimates"). */
export type LiveRecord = GenerationRecord & { endsAt?: number | null };

/** A history record brought up to date by a task query answer, just received. */
function merge(record: LiveRecord, answer: Answer): LiveRecord {
  const outputs = ('videos' in answer ? answer.videos : undefined) ?? ('images' in answer ? answer.images : undefined);
  return {
    ...record,
    status: answer.status,
    progress: answer.progress ?? record.progress,
    outputs: outputs ?? record.outputs,
    // A stand-in's result says so as soon as it is made (decision "Stand-ins are free").
    ...('standIn' in answer && answer.standIn && { standIn: true as const }),
    endsAt: endsAtOf(answer, Date.now()),
  };
}

/**
 * A record as it stands: a finished one as the history gave it; a running one polled through the one polling
 * helper (every 2 s) until it ends, its progress stage and time estimate following each answer. Leaving the page stops polling, and
 * so does an end learnt another way: `settle` takes a task state the service answered (a cancel's) into the record.
 */
export function useLiveRecord(record: GenerationRecord): [LiveRecord, (answer: Answer) => void] {
  const [live, setLive] = useState<LiveRecord>(record);
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
