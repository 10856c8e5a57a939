// Stand-ins for the two rendering kinds a batch runs, `link-video` and `export-video`: the same kinds, inputs and
// checks, the export priced and accepted by the real definition, but the "video" is a few bytes stored as the real
// one would be, so a batch of 20 runs in seconds instead of the minutes real renders take. Analysis is the real task.
import { randomUUID } from 'node:crypto';
import { TASKS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { tasks } from '../../src/db/schema.js';
import { AppError } from '../../src/errors.js';
import { fileKey } from '../../src/modules/files/storage/keys.js';
import { storePreviews } from '../../src/modules/link-video/video/source.js';
import { exportVideoTask, linkVideoTask, previewSpecOf } from '../../src/modules/link-video/video/tasks.js';
import type { TaskDefinition } from '../../src/modules/tasks/definition.js';

type PreviewInput = z.output<(typeof TASKS)['link-video']['input']>;
type PreviewResult = z.output<(typeof TASKS)['link-video']['result']>;
type ExportInput = z.output<(typeof TASKS)['export-video']['input']>;
type ExportResult = z.output<(typeof TASKS)['export-video']['result']>;

export function batchTaskKinds({ exportBytes = 64 * 1024 } = {}) {
  /** Products whose export fails (charged, then refunded by the engine). */
  const failExports = new Set<string>();
  /** The inputs each preview was asked with, by product name. */
  const previews = new Map<string, PreviewInput>();

  const preview: TaskDefinition<PreviewInput, PreviewResult> = {
    kind: 'link-video',
    input: TASKS['link-video'].input,
    accept: linkVideoTask.accept,
    async run(job) {
      previews.set(job.input.productName, job.input);
      await job.progress('rendering');
      const resKey = fileKey(job.userId, randomUUID(), 'mp4');
      await job.ctx.storage.put(resKey, Buffer.from(`preview of ${job.input.productName}`), { contentType: 'video/mp4' });
      const scriptId = randomUUID();
      const segments = [{ segId: 1, segText: job.input.productName }];
      // The preview's row, as the real task stores it with its success (decision "Previews as rows"): the export
      // reads it. The stand-in's few bytes are no file of the library.
      job.atCompletion((tx) =>
        storePreviews(tx, { taskId: job.taskId, userId: job.userId, projectId: job.input.projectId }, [
          { ...previewSpecOf(job.input, 0, segments), id: randomUUID(), scriptId, resKey, fileId: null, presenterSeconds: null },
        ]),
      );
      return {
        previewVideos: [
          {
            resKey,
            videoUrl: await job.ctx.storage.downloadUrl(resKey),
            scriptId,
            taskId: job.taskId,
            templateId: job.input.editorConfig?.templateId,
          },
        ],
        scriptContentList: [{ scriptId, segments }],
      };
    },
  };

  const exported: TaskDefinition<ExportInput, ExportResult> = {
    kind: 'export-video',
    input: TASKS['export-video'].input,
    price: exportVideoTask.price,
    accept: exportVideoTask.accept,
    async run(job) {
      const [source] = await job.ctx.db.select({ input: tasks.input }).from(tasks).where(eq(tasks.id, job.input.taskId));
      const name = (source?.input as PreviewInput | undefined)?.productName ?? '';
      if (failExports.has(name)) throw new AppError('generationFailed');
      const resKey = fileKey(job.userId, randomUUID(), 'mp4');
      await job.ctx.storage.put(resKey, Buffer.alloc(exportBytes, name), { contentType: 'video/mp4' });
      const fileName = `${name}.mp4`;
      const video = {
        resKey,
        videoUrl: await job.ctx.storage.downloadUrl(resKey),
        taskId: job.taskId,
        fileName,
        seconds: 15,
        aspectRatio: '9:16' as const,
        downloadUrl: await job.ctx.storage.downloadUrl(resKey, { filename: fileName }),
      };
      return { exportVideos: [video] };
    },
  };

  return { definitions: [preview, exported], failExports, previews };
}
