// The API reference reads the server's OpenAPI document and lists its calls readably (decision "API reference page").
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../../test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A document as the contract writes it: a GET with a query, a POST with a nested body and an answer. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Reelsmith public API', version: 'v1' },
  paths: {
    '/image/models': {
      get: {
        summary: 'Image models of text to image or image to image',
        parameters: [{ name: 'mode', in: 'query', required: true, schema: { type: 'string', enum: ['text', 'image'] } }],
        responses: {
          200: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'string', enum: ['v1', 'v2'] } } } },
              },
            },
          },
        },
      },
    },
    '/task/v1/link-video/submit': {
      post: {
        summary: 'Submit a link-video task',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  productName: { type: 'string', maxLength: 500 },
                  editorConfig: { type: 'object', properties: { videoLength: { type: 'integer', enum: [15, 30, 45] } } },
                },
                required: ['productName'],
              },
            },
          },
        },
        responses: {
          200: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { type: 'object', properties: { taskId: { type: 'string' } }, required: ['taskId'] } },
                },
              },
            },
          },
        },
      },
    },
  },
};

function openReference() {
  stubApi({
    '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/v1/public/openapi.json': { body: DOCUMENT },
  });
  renderApp('/account/developers/api', userWith('ACTIVE'));
}

describe('API reference', () => {
  it('lists every call of the document with its query, body and answer fields, nested, not raw JSON', async () => {
    openReference();
    expect(await screen.findByRole('heading', { level: 1, name: 'API reference' })).toBeTruthy();
    const models = await screen.findByRole('region', { name: 'GET /image/models' });
    expect(within(models).getByText('Image models of text to image or image to image')).toBeTruthy();
    expect(within(models).getByText('Query parameters')).toBeTruthy();
    expect(within(models).getByText('"text" | "image"')).toBeTruthy();
    const submit = screen.getByRole('region', { name: 'POST /task/v1/link-video/submit' });
    expect(within(submit).getByText('Request body')).toBeTruthy();
    expect(within(submit).getByText('≤ 500 chars')).toBeTruthy();
    // A nested object's own fields, under it.
    expect(within(submit).getByText('videoLength')).toBeTruthy();
    expect(within(submit).getByText('15 | 30 | 45')).toBeTruthy();
    expect(within(submit).getByText('taskId')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'OpenAPI document (JSON, for tools)' }).getAttribute('href')).toBe(
      '/reelsmith/api/v1/public/openapi.json',
    );
  });

  it('finds calls by path or summary', async () => {
    openReference();
    await screen.findByRole('region', { name: 'GET /image/models' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search calls' }), { target: { value: 'link-video' } });
    expect(screen.queryByRole('region', { name: 'GET /image/models' })).toBeNull();
    expect(screen.getByRole('region', { name: 'POST /task/v1/link-video/submit' })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search calls' }), { target: { value: 'nothing like it' } });
    expect(screen.getByText('No call matches.')).toBeTruthy();
  });
});
