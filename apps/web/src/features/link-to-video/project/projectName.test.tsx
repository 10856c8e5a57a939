// The project's name is held in one place, its summary query (decision "Server data in queries"): the header reads
// it there, a rename and the name the product gives are put there, and the draft keeps no copy of its own.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../test/renderApp';
import { openProjectPage, resetProjectPages } from './pageTesting';
import { currentProject } from './store';
import { newProject, type Project } from './types';

vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

const EDIT_PRODUCT = '/tools/link-to-video/edit-product';

/** A project whose link is being analysed, as its draft holds it. */
const analysing: Project = {
  ...newProject('p1', 'https://shop.example/shirt'),
  taskPath: 'link-analysis',
  taskId: 't1',
  taskStatus: 'IN_PROGRESS',
};

/**
 * The edit-product page on a service that names an untitled project after its product and renames it when asked,
 * as the real one does. The analysis runs until `finish` is called; `reads` counts the summary's reads.
 */
function openAnalysing() {
  let serverName = 'Untitled project';
  let finished = false;
  const counts = { reads: 0, namings: 0 };
  const page = openProjectPage(EDIT_PRODUCT, analysing, {
    '/task/v1/link-analysis/query': () =>
      ok(
        finished
          ? { taskId: 't1', status: 'SUCCESS', productName: 'Linen shirt', productDescription: 'Cool in summer.', productImages: [] }
          : { taskId: 't1', status: 'IN_PROGRESS' },
      ),
    '/project/getProjectById': () => {
      counts.reads++;
      return ok({
        projectId: 'p1',
        projectName: serverName,
        productLink: null,
        coverUrl: null,
        taskStatus: null,
        exportCount: 0,
        createTime: '',
        updateTime: '',
      });
    },
    '/project/nameAfterProduct': (body) => {
      counts.namings++;
      if (serverName === 'Untitled project') serverName = (body as { productName: string }).productName;
      return ok({ projectName: serverName });
    },
    '/project/updateProjectFileInfo': (body) => {
      serverName = (body as { fileName: string }).fileName;
      return ok(true);
    },
    '/project/saveDraftFile': { record: true },
    '/brand-kit/get': { status: 404, body: { code: 404, message: 'Not found.', data: null } },
    '/link-video/templates': ok([]),
  });
  return { ...page, counts, finish: () => (finished = true) };
}

const header = () => screen.getByRole('banner');

async function renameInHeader(from: string, to: string) {
  fireEvent.click(await within(header()).findByRole('button', { name: from }));
  const field = within(header()).getByRole('textbox', { name: 'Project name' });
  fireEvent.change(field, { target: { value: to } });
  fireEvent.blur(field);
  await waitFor(() => expect(within(header()).getByRole('button', { name: to })).toBeTruthy());
}

const productEditor = () => screen.findByRole('textbox', { name: 'Product name' }, { timeout: 10_000 });

describe('the project name, held once', () => {
  it('shows the name the product gave in the header without asking the service again, and keeps none in the draft', async () => {
    const { counts, finish, sent } = openAnalysing();
    expect(await within(header()).findByRole('button', { name: 'Untitled project' })).toBeTruthy();
    await screen.findByText('Analysing your product…');
    const reads = counts.reads;
    finish();
    await productEditor();
    await waitFor(() => expect(within(header()).getByRole('button', { name: 'Linen shirt' })).toBeTruthy());
    expect(counts.namings).toBe(1);
    // The header read the name where the controller put it: no second copy needed fetching again.
    expect(counts.reads).toBe(reads);
    expect(currentProject()).not.toHaveProperty('projectName');
    await waitFor(() => expect(sent['/project/saveDraftFile']?.length).toBeGreaterThan(0));
    for (const body of sent['/project/saveDraftFile'] ?? []) {
      expect(JSON.parse((body as { draftContent: string }).draftContent)).not.toHaveProperty('projectName');
    }
  });

  it('keeps a rename made in the header when the analysis then ends: the service keeps it, and so does everything that shows it', async () => {
    const { counts, finish } = openAnalysing();
    await screen.findByText('Analysing your product…');
    await renameInHeader('Untitled project', 'Summer sale');
    expect(await screen.findByText('Renamed.')).toBeTruthy();
    const reads = counts.reads;
    finish();
    await productEditor();
    await waitFor(() => expect(counts.namings).toBe(1));
    expect(within(header()).getByRole('button', { name: 'Summer sale' })).toBeTruthy();
    expect(within(header()).queryByRole('button', { name: 'Linen shirt' })).toBeNull();
    expect(counts.reads).toBe(reads);
  });
});
