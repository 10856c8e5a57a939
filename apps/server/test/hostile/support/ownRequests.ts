// Requests a service would take from the user they belong to: what the call's schema needs (a sample) plus what
// its checks need beyond the schema (the user's own project, files and tasks, a ratio, the garments a try-on
// uses). An attack changes one field of such a request, so whatever refuses it refuses that field.
import type { ApiCall } from './calls.js';
import type { Holdings } from './holdings.js';
import { sampleOf } from './schema.js';

export type Own = Pick<Holdings, 'projectId' | 'imageFileId' | 'imageResKey' | 'uploadKey' | 'videoTaskId' | 'scriptId' | 'presenterId'>;

export function ownRequest(api: ApiCall, own: Own): Record<string, unknown> {
  const schema = api.call.body ?? api.call.query;
  const sample = (schema ? sampleOf(schema, { optionals: false }) : {}) as Record<string, unknown>;
  const picture = { resKey: own.imageResKey };
  const needs: Record<string, Record<string, unknown>> = {
    assetUploadWithUrl: { resKey: own.uploadKey },
    linkVideoFileUpload: { projectId: own.projectId },
    'submit link-analysis': { projectId: own.projectId },
    'submit link-video': { projectId: own.projectId, fileIds: [own.imageFileId] },
    'submit script-update': { projectId: own.projectId, taskId: own.videoTaskId, scriptId: own.scriptId },
    'submit export-video': { projectId: own.projectId, taskId: own.videoTaskId, scriptId: own.scriptId },
    'submit remove-background': picture,
    'submit product-background': { ...picture, backgroundResKey: own.imageResKey },
    'submit expand-image': { ...picture, ratio: '1:1' },
    'submit enlarge-image': picture,
    'submit image-to-video': { image: picture },
    brandKitSave: { logoResKey: own.imageResKey },
    'submit virtual-try-on': { garmentType: 'twoPieces', model: picture, top: picture, bottom: picture },
    'submit avatar-video': { presenter: picture, consent: true },
    'submit product-holding': { presenterId: own.presenterId, fileId: own.imageFileId },
  };
  return { ...sample, ...needs[api.name] };
}
