// The public API's OpenAPI 3.1 document, written from the contract's own schemas (decision "Public API"), so the
// document cannot say something the server does not check. docs/openapi.json is this with a placeholder server;
// a test fails when the two disagree, and the server answers it with its own address at PUBLIC_API_DOCUMENT_PATH.
import { z } from 'zod';
import type { Call } from './call.js';
import { TaskKind } from './enums.js';
import { PUBLIC_API_BASE, PUBLIC_CALLS } from './publicApi.js';
import { taskCancelPath, taskQueryPath, taskSubmitPath } from './tasks.js';

type JsonSchema = Record<string, unknown>;

/** What each call does, in the words of someone integrating it; task calls are described by kind below. */
const SUMMARIES: Record<string, string> = {
  'GET /users/me': 'The user the key acts for',
  'GET /points/account': 'Credit balance: available, earned, spent and expiring',
  'POST /points/list': 'Credit history, a page at a time',
  'GET /points/skuPrice': 'What each kind of generation costs',
  'POST /project/createProject': 'Create a project (untitled until its product is known)',
  'POST /project/getProjects': 'List projects, a page at a time',
  'GET /project/getProjectById': 'One project',
  'POST /project/getProjectByIds': 'Several projects by id',
  'GET /project/getProjectTasks': "A project's link-to-video tasks, newest first (its analyses, previews and exports)",
  'POST /project/updateProjectFileInfo': 'Rename a project',
  'POST /project/nameAfterProduct': 'Name an untitled project after its product',
  'POST /project/saveDraftFile': "Save a project's draft (its product, pictures and choices)",
  'POST /project/getDraftFileUrl': "Read a project's saved draft",
  'POST /project/deleteProject': 'Delete projects',
  'GET /link-video/templates': 'Ad templates, with preview pictures',
  'GET /link-video/voices': 'Voices an ad can be read in',
  'GET /link-video/music': 'Music tracks',
  'GET /link-video/captions': 'Caption styles',
  'GET /video/models': 'Video models of the generation tools',
  'GET /image/models': 'Image models of text to image or image to image: "Fast" (v1), and "Detailed" (v2) where this server has one',
  'GET /video/avatar/engine': 'Who makes presenters talk on this server: a vendor, the sandbox or nobody',
  'GET /video/avatar/presenters': "The presenters on offer: the operator's catalogue and the caller's own",
  'POST /video/avatar/presenters': "Save one of the caller's pictures as their own presenter",
  'POST /video/avatar/presenters/remove': "Remove one of the caller's own presenters",
  'GET /mis/product-background/list': 'Backdrops for background replacement',
  'POST /generation/history': "A generation tool's history",
  'POST /assert/folders/files': 'List assets, a page at a time',
  'GET /assert/statistics': 'Asset counts and storage used',
  'POST /assert/urls': 'Download links of assets',
  'POST /assert/rename': 'Rename an asset',
  'POST /assert/delete': 'Delete assets',
  'POST /assert/uploadFileWithUrl': 'Import a picture or video from a link into the assets',
  'POST /assert/url-task': 'Start importing a file from a link',
  'GET /assert/url-task': 'How an import from a link is going',
  'POST /file/url/transfer': 'Import files from links into a project',
  'POST /batch/quote': 'Read and price a batch of product links without starting it',
  'POST /batch/create': 'Start a batch: a project, analysis, a preview and (if asked) an export per product link',
  'GET /batch/list': 'List batches, newest first',
  'GET /batch/get': "A batch's rows: status, project, error and video links",
  'POST /batch/retry': "Start a batch's failed rows again",
  'POST /batch/cancel': 'Cancel a batch; its unfinished tasks are refunded',
  'GET /batch/downloads': "Signed links to a batch's results CSV and the zip of its exports",
};

const TASK_SUMMARIES: Record<TaskKind, string> = {
  'link-analysis': "analyse a product page: its name, description, facts and pictures (the project's product)",
  'link-video': 'write scripts and render preview ads of a product',
  'script-update': 're-render one preview with an edited script or other choices',
  'export-video': 'export a preview as the finished ad',
  'remove-background': "remove a picture's background",
  'product-background': "replace a product picture's background",
  'expand-image': 'extend a picture to a new shape',
  'enlarge-image': 'sharpen and enlarge a picture',
  'text-to-video': 'generate a video from a description',
  'image-to-video': 'animate a picture',
  'text-to-image': 'generate pictures from a description (or from a picture)',
  'virtual-try-on': 'dress a model in a garment',
  'avatar-video': 'a presenter saying a script, lip-synced and captioned',
  'product-holding': 'a presenter holding the product, kept as one of your presenters',
};

function summaryOf(call: Call): string {
  for (const kind of TaskKind.options) {
    const what = TASK_SUMMARIES[kind];
    if (call.path === taskSubmitPath(kind)) return `Start a task: ${what}`;
    if (call.path === taskQueryPath(kind)) return `A ${kind} task's state and, once it succeeded, its result`;
    if (call.path === taskCancelPath(kind)) return `Cancel a ${kind} task; its credits come back`;
  }
  const summary = SUMMARIES[`${call.method} ${call.path}`];
  if (!summary) throw new Error(`The public call ${call.method} ${call.path} has no summary`);
  return summary;
}

/** Request and answer examples of the calls a catalogue's flow goes through (README "Public API"). */
const EXAMPLES: Record<string, { request?: unknown; data: unknown }> = {
  'POST /project/createProject': { request: {}, data: { projectId: 'b1f0c7e2-…', draftUrl: null } },
  [`POST ${taskSubmitPath('link-analysis')}`]: {
    request: { projectId: 'b1f0c7e2-…', productLink: 'https://shop.example/products/linen-shirt' },
    data: { taskId: '7d3e…', status: 'SUBMITTED' },
  },
  [`GET ${taskQueryPath('link-analysis')}`]: {
    data: {
      taskId: '7d3e…',
      status: 'SUCCESS',
      productName: 'Linen shirt',
      productDescription: 'A relaxed shirt in washed European linen.',
      productImages: [{ fileId: 'f1…', fileUrl: '/reelsmith/api/file/object?key=…' }],
      productVideos: [],
    },
  },
  [`POST ${taskSubmitPath('link-video')}`]: {
    request: {
      projectId: 'b1f0c7e2-…',
      productLink: 'https://shop.example/products/linen-shirt',
      productName: 'Linen shirt',
      productDescription: 'A relaxed shirt in washed European linen.',
      fileIds: ['f1…'],
      editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 2, language: 'en' },
    },
    data: { taskId: '9a1c…', status: 'SUBMITTED' },
  },
  [`POST ${taskSubmitPath('export-video')}`]: {
    request: { projectId: 'b1f0c7e2-…', taskId: '9a1c…', resultNum: 1, scriptId: 's1…', videoLengthType: '2' },
    data: { taskId: 'e4b2…', status: 'SUBMITTED' },
  },
  'GET /points/account': {
    data: { totalPoints: 500, availablePoints: 350, usedPoints: 150, expiredPoints: 0, expiring: [] },
  },
};

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the `$schema` each would repeat. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const envelopeOf = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { code: { type: 'integer', const: 0 }, message: { type: 'string' }, data },
  required: ['code', 'message', 'data'],
});

/** A call's query fields as OpenAPI parameters: GET calls take their input in the query string. */
function parametersOf(call: Call): unknown[] | undefined {
  if (!call.query) return undefined;
  const schema = jsonSchemaOf(call.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

const operationIdOf = (call: Call) =>
  `${call.method.toLowerCase()}${call.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`;

function operationOf(call: Call): JsonSchema {
  const example = EXAMPLES[`${call.method} ${call.path}`];
  const parameters = parametersOf(call);
  const answer: JsonSchema = { schema: envelopeOf(jsonSchemaOf(call.data, 'output')) };
  if (example) answer.example = { code: 0, message: 'success', data: example.data };
  return {
    operationId: operationIdOf(call),
    summary: summaryOf(call),
    ...(parameters && { parameters }),
    ...(call.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: jsonSchemaOf(call.body, 'input'),
            ...(example?.request !== undefined && { example: example.request }),
          },
        },
      },
    }),
    responses: {
      '200': { description: 'Done: `data` is the answer.', content: { 'application/json': answer } },
      default: { $ref: '#/components/responses/Error' },
    },
  };
}

/** The document for a server whose public API is at `serverUrl` (…/{prefix}/api/v1/public). */
export function publicApiDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const call of PUBLIC_CALLS) {
    const operations = paths[call.path] ?? {};
    operations[call.method.toLowerCase()] = operationOf(call);
    paths[call.path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reelsmith public API',
      version: PUBLIC_API_BASE.split('/')[1],
      description:
        'Every call of the web app a catalogue needs, authorised by an API key made on the Developers page: ' +
        '`Authorization: Bearer rsk_…`. Every answer is `{code, message, data}`; `code` 0 is success, any other code ' +
        'is an error whose `message` is in the language of `Accept-Language` (en, zh, pt). Tasks run in the ' +
        'background: submit answers a `taskId`; query it until `status` is SUCCESS or FAILURE. Credits are charged ' +
        'when a task is submitted and come back when it fails or is cancelled. A submit with an `Idempotency-Key` ' +
        'header runs once whatever the retries. Links to files in answers are relative to the server and signed.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the Developers page (`rsk_…`).' },
      },
      responses: {
        Error: {
          description:
            'An error: 401 a missing, unknown, revoked or expired key (or a user who is not active), 402 not enough ' +
            'credits, 429 too many calls for this key (see `Retry-After`), 400 an invalid request.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'null' } },
                required: ['code', 'message'],
              },
              example: { code: 401, message: 'The API key is missing, unknown, revoked or expired.', data: null },
            },
          },
        },
      },
    },
  };
}
