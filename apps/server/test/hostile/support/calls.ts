// Every API call of the contract, found from the package's exports: the calls it exports as objects, and the
// three calls (submit, query, cancel) of each task kind, which it builds from the kind. A call added to the
// contract is attacked by every category without a change here.
import * as contract from '@reelsmith/contract';
import { type Call, type TaskKind, TaskKind as TaskKinds, taskCancel, taskQuery, taskSubmit } from '@reelsmith/contract';

export interface ApiCall {
  /** The export's name, or `submit|query|cancel <kind>` for a task call. */
  name: string;
  call: Call;
  /** The task kind of a task call. */
  kind?: TaskKind;
}

const isCall = (value: unknown): value is Call =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Call).method === 'string' &&
  typeof (value as Call).path === 'string' &&
  typeof (value as Call).access === 'string' &&
  'data' in value;

const exported: ApiCall[] = Object.entries(contract as Record<string, unknown>).flatMap(([name, value]) =>
  isCall(value) ? [{ name, call: value }] : [],
);

const taskCalls: ApiCall[] = TaskKinds.options.flatMap((kind) => [
  { name: `submit ${kind}`, call: taskSubmit(kind), kind },
  { name: `query ${kind}`, call: taskQuery(kind), kind },
  { name: `cancel ${kind}`, call: taskCancel(kind), kind },
]);

export const API_CALLS: readonly ApiCall[] = [...exported, ...taskCalls];

/** `POST /project/createProject`: how figures and failures name a call. */
export const labelOf = ({ call }: ApiCall) => `${call.method} ${call.path}`;

/** Whether a call changes state, so it needs our Origin (design "API rules"). */
export const isStateChanging = ({ call }: ApiCall) => call.method !== 'GET';
