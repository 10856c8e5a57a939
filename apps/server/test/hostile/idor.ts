// 5. Other users' ids: the attacker sends the victim's ids (projects, files, uploads, captured pages, tasks) in
// every field that names something a user owns, in requests that are otherwise right for the attacker (their own
// project, files and tasks in the other fields). The answer is "not found" (or, from calls that filter a list of
// ids, empty) and the very answer an id of nothing gets; the victim's data is unchanged, and no answer holds any.
import { randomUUID } from 'node:crypto';
import { ERRORS } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import type { Holdings } from './support/holdings.js';
import { ownRequest } from './support/ownRequests.js';
import { type Field, fieldAt, fieldsOf, pathText, withField } from './support/schema.js';

const CATEGORY = 'other users’ ids';

/** Fields that name something a user owns. */
const OWNED = new Set([
  'projectId',
  'projectIds',
  'fileId',
  'fileIds',
  'taskId',
  'resKey',
  'backgroundResKey',
  'logoResKey',
  'endpointId',
  'deliveryId',
  'batchId',
  'presenterId',
]);
/** Fields that name what the caller owns only in some calls: the keys of /file/url/transfer, the picture of the cloth check. */
const OWNED_IN: Record<string, string> = { fileUrlTransfer: 'data', imageClothDesc: 'url' };
/** Id-like fields that name the catalogue (a brand kit's typeface too), or a part of the task the request names (its script and segments). */
const NOT_OWNED = new Set([
  'voiceId',
  'captionId',
  'musicId',
  'modelId',
  'templateId',
  'backgroundId',
  'skuCode',
  'scriptId',
  'segId',
  'fontId',
]);
/** "Not found", as each service says it: a missing thing, a preview that is gone, a captured page that is not there. */
const NOT_FOUND = [ERRORS.notFound.code, ERRORS.previewNotFound.code, ERRORS.pageCaptureMissing.code];

const nameOf = (field: Field) => String(field.path.at(-1));
const isOwned = (api: ApiCall, field: Field) => OWNED.has(nameOf(field)) || OWNED_IN[api.name] === nameOf(field);

/** What of a user's holdings a field of a call can name, most telling first. */
function idsOf(h: Holdings, api: ApiCall, name: string): unknown[] {
  const submit = api.name.startsWith('submit ');
  switch (name) {
    case 'projectId':
      return [h.projectId];
    case 'projectIds':
      return [[h.projectId]];
    case 'fileId':
      return [h.imageFileId, h.urlImportFileId];
    case 'fileIds':
      return [[h.imageFileId], [h.urlImportFileId]];
    case 'taskId':
      if (submit) return [h.videoTaskId];
      return api.kind === 'link-video' ? [h.tasks['link-video'], h.videoTaskId] : [h.tasks[api.kind as keyof Holdings['tasks']]];
    case 'resKey':
      if (api.name === 'assetUploadWithUrl') return [h.uploadKey, h.imageResKey];
      if (api.name === 'submit link-analysis') return [h.pageKey];
      return [h.imageResKey];
    case 'data':
      return [[h.imageResKey], [h.pageKey, h.uploadKey]];
    case 'endpointId':
      return [h.endpointId];
    case 'deliveryId':
      return [h.deliveryId];
    case 'batchId':
      return [h.batchId];
    case 'presenterId':
      return [h.presenterId];
    default:
      return [h.imageResKey];
  }
}

/** The owner's request, with their own ids in every owned field it has. */
function ownedRequest(api: ApiCall, mine: Holdings, fields: Field[]): Record<string, unknown> {
  let request = ownRequest(api, mine);
  for (const field of fields) {
    if (fieldAt(request, field.path) !== undefined)
      request = withField(request, field.path, idsOf(mine, api, nameOf(field))[0]) as Record<string, unknown>;
  }
  return request;
}

/** Everything of the victim's an answer could leak: their secrets and every id of theirs the request did not name. */
function victimsData(theirs: Holdings): string[] {
  return [
    ...theirs.secrets,
    theirs.userId,
    theirs.projectId,
    theirs.imageFileId,
    theirs.urlImportFileId,
    theirs.uploadKey,
    theirs.pageKey,
    theirs.videoTaskId,
    theirs.scriptId,
    theirs.endpointId,
    theirs.deliveryId,
    theirs.batchId,
    ...Object.values(theirs.tasks),
  ];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The same id (or list of ids) with every UUID in it but the owner's replaced: the id of nothing, shaped like theirs. */
const ghostOf = (value: unknown, ownerId: string): unknown =>
  Array.isArray(value)
    ? value.map((item) => ghostOf(item, ownerId))
    : String(value).replace(UUID, (uuid) => (uuid === ownerId ? uuid : randomUUID()));

const isEmpty = (data: unknown) =>
  (Array.isArray(data) && data.length === 0) || (typeof data === 'object' && data !== null && Object.keys(data).length === 0);

export function idorAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    it('every id-like field is either owned or from the catalogue', () => {
      const idLike = API_CALLS.flatMap((api) =>
        [...fieldsOf(api.call.query), ...fieldsOf(api.call.body)]
          .filter((f) => /(Id|Ids|Key|Keys)$/.test(nameOf(f)) && !isOwned(api, f) && !NOT_OWNED.has(nameOf(f)))
          .map((f) => `${api.name} ${pathText(f.path)}`),
      );
      expect(idLike).toEqual([]);
    });

    for (const api of API_CALLS) {
      const where = api.call.body ? 'body' : 'query';
      const targets = fieldsOf(api.call[where]).filter((field) => isOwned(api, field));
      if (targets.length === 0) continue;

      it(`${labelOf(api)} does not reach another user's data`, async () => {
        const { campaign, attacker, mine, theirs } = arena;
        const figures = campaign.figures.of(CATEGORY);
        const base = ownedRequest(api, mine, targets);
        await campaign.expectNoChange(CATEGORY, labelOf(api), async () => {
          for (const field of targets) {
            for (const id of idsOf(theirs, api, nameOf(field))) {
              const request = withField(base, field.path, id);
              const what = `${labelOf(api)}, ${pathText(field.path)} = ${JSON.stringify(id)}`;
              const send = (value: unknown) =>
                campaign.send(CATEGORY, attacker, api, where === 'body' ? { body: value } : { query: value as Record<string, unknown> });
              const answer = await send(request);
              // The answer says no more than the one to an id of nothing: whether the id exists stays unknown.
              const ghost = await send(withField(base, field.path, ghostOf(id, theirs.userId)));
              expect(answer.body, `${what}: answered unlike an id of nothing`).toEqual(ghost.body);
              figures.answered++;
              const sent = JSON.stringify(request);
              const leaked = victimsData(theirs).filter((text) => !sent.includes(text) && JSON.stringify(answer.body).includes(text));
              if (leaked.length > 0) figures.leaks++;
              expect(leaked, `${what}: the answer holds the victim's data`).toEqual([]);
              if (answer.body.code === 0) {
                expect(isEmpty(answer.body.data), `${what}: answered ${JSON.stringify(answer.body.data)}`).toBe(true);
                figures.answered++;
                campaign.figures.note(CATEGORY, 'answered empty');
              } else {
                campaign.expectRefused(CATEGORY, answer, what, { codes: NOT_FOUND });
                campaign.figures.note(CATEGORY, 'not found');
              }
            }
          }
        });
      });
    }
  });
}
