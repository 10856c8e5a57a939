import { EventEmitter } from 'node:events';

/** A batch made or retried in this process wakes its driver at once instead of at its next poll. */
export const batchWork = new EventEmitter();
export const wakeDriver = () => batchWork.emit('work');
