import { execFile } from 'node:child_process';

/** A media program ran but failed: the input is not what it should be (or the program cannot handle it). */
export class MediaToolError extends Error {
  constructor(
    message: string,
    /** The end of what the program wrote to stderr, for logs. */
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

export interface RunOptions {
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Runs a program with arguments (no shell) and answers its stdout. A program that cannot be started rejects
 * with the system error (ENOENT…): that is the server's fault, not the input's; one that exits non-zero, is
 * killed by the timeout or is aborted rejects with a MediaToolError.
 */
export function runTool(program: string, args: string[], { timeoutMs = 60_000, signal }: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: timeoutMs, signal, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if (typeof error.code === 'string' && error.code !== 'ABORT_ERR') return reject(error);
      const tail = stderr.trim().split('\n').slice(-5).join('\n');
      const why = error.killed ? `was stopped after ${timeoutMs} ms` : signal?.aborted ? 'was aborted' : `failed (exit ${error.code})`;
      reject(new MediaToolError(`${program.split('/').pop()} ${why}${tail ? `: ${tail}` : ''}`, tail));
    });
  });
}
