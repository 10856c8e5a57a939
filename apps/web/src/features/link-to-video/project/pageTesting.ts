// For tests of the link-to-video pages: a project opened from its local draft on a stubbed service that records
// what each call was sent.
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../../test/renderApp';
import { draftKey, serializeDraft } from './draft';
import { closeProject } from './open';
import type { Project } from './types';

/** What every test of the pages undoes (files share modules: isolate is off). */
export function resetProjectPages(): void {
  cleanup();
  closeProject();
  localStorage.clear();
  vi.unstubAllGlobals();
}

type Stub = Parameters<typeof stubApi>[0][string];

/**
 * Mounts the app at `path` for `project`, restored from its local draft, with the calls every page makes answered
 * and `answers` beside them; the service names the project `projectName`. A call whose answer is `{ record: data }`
 * answers `data` and keeps what it was sent (the body, or the query of a GET) in `sent`, by path.
 */
export function openProjectPage(
  path: string,
  project: Project,
  answers: Record<string, Stub | { record: unknown }>,
  projectName = 'Untitled project',
) {
  localStorage.setItem(draftKey(project.projectId), serializeDraft(project));
  const sent: Record<string, unknown[]> = {};
  const stubs = Object.fromEntries(
    Object.entries(answers).map(([call, answer]): [string, Stub] => {
      if (typeof answer !== 'object' || !('record' in answer)) return [call, answer];
      return [
        call,
        (body, query) => {
          sent[call] = [...(sent[call] ?? []), body ?? Object.fromEntries(query)];
          return ok(answer.record);
        },
      ];
    }),
  );
  stubApi({
    '/points/account': ok({ totalPoints: 100, availablePoints: 100, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/project/getProjectById': ok({
      projectId: project.projectId,
      projectName,
      productLink: null,
      coverUrl: null,
      taskStatus: null,
      createTime: '',
      updateTime: '',
    }),
    '/project/getDraftFileUrl': ok(null),
    '/project/saveDraftFile': ok(true),
    '/file/url/transfer': ok({}),
    '/assert/urls': ok({}),
    ...stubs,
  });
  return { sent, ...renderApp(`${path}?projectId=${project.projectId}`, userWith('ACTIVE')) };
}

/** A picture from the computer as the register call answers it once stored in the library. */
export const storedUpload = (fileId: string, fileName: string) => ({
  fileId,
  fileName,
  fileUrl: `https://cdn/${fileName}`,
  downloadUrl: null,
  thumbnailUrl: null,
  resKey: `u/1/upload/${fileName}`,
  format: fileName.split('.').pop() ?? null,
  type: 'image',
  source: 'upload',
  status: 'completed',
  projectId: null,
  sourceUrl: null,
  errorMsg: null,
  size: 4,
  width: 800,
  height: 800,
  duration: null,
  createTime: '2026-11-24 12:00:00',
});

/** A saved presenter as the service lists one: the catalogue's Ana. */
export const ANA = {
  presenterId: 'cat-1',
  name: 'Ana',
  gender: 'female',
  languages: ['en'],
  voiceId: null,
  imageUrl: 'https://cdn/ana.jpg',
  source: 'catalogue',
};
