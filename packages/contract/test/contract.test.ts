import { describe, expect, it } from 'vitest';
import {
  ERRORS,
  errorMessage,
  LOCALES,
  OperationType,
  projectCreate,
  projectRename,
  SkuCode,
  TASKS,
  TaskKind,
  taskQuery,
  usersActivate,
} from '../src/index.js';

describe('contract enums', () => {
  it("lists the spec's 19 operation types and 19 SKU codes, the local engine's image-to-video SKUs, the Avatar tool's and product in hand's", () => {
    // The spec's 19, the Avatar tool's own (decision "The Avatar tool") and product in hand's (decision "Product in hand").
    const ours = ['AVATAR_VIDEO', 'PRODUCT_HOLDING'];
    expect(OperationType.options.filter((type) => !ours.includes(type))).toHaveLength(19);
    expect(OperationType.options).toEqual(expect.arrayContaining(ours));
    // Decision "Image-to-video price": the spec's 19, and the local engine's own 4; the Avatar tool's second, a held still.
    const local = SkuCode.options.filter((code) => code.startsWith('img2VideoLocal_'));
    expect(local).toEqual(['img2VideoLocal_std_5s', 'img2VideoLocal_std_10s', 'img2VideoLocal_pro_5s', 'img2VideoLocal_pro_10s']);
    const perUse = ['avatarVideo', 'productHolding'];
    expect(SkuCode.options.filter((code) => !local.includes(code) && !perUse.includes(code))).toHaveLength(19);
    expect(SkuCode.options).toEqual(expect.arrayContaining(perUse));
  });

  it('has an input and a result schema for every task kind', () => {
    for (const kind of TaskKind.options) {
      expect(TASKS[kind].input).toBeDefined();
      expect(TASKS[kind].result).toBeDefined();
    }
  });
});

describe('error table', () => {
  it('has a message in every locale for every error, and uses the spec English verbatim', () => {
    for (const entry of Object.values(ERRORS)) for (const l of LOCALES) expect(entry[l].length).toBeGreaterThan(0);
    expect(errorMessage('invalidInviteCode', 'en')).toBe('Invalid invitation code');
    expect(errorMessage('emptyInviteCode', 'en')).toBe('Please enter invitation code');
    expect(errorMessage('invalidProductUrl', 'en')).toBe('Please provide a valid product url');
  });

  it('fills placeholders', () => {
    expect(errorMessage('notEnoughCredits', 'en', { needed: 30, available: 12 })).toBe('Not enough credits: 30 needed, 12 available.');
  });

  it('never uses 0 as an error code', () => {
    for (const entry of Object.values(ERRORS)) expect(entry.code).not.toBe(0);
  });
});

describe('request schemas', () => {
  it('trims project names and enforces 1 to 100 characters', () => {
    expect(projectCreate.body.parse({ projectName: '  Bottle  ' }).projectName).toBe('Bottle');
    // Without a name the project is untitled until its product is known.
    expect(projectCreate.body.parse({}).projectName).toBeUndefined();
    expect(projectCreate.body.safeParse({ projectName: '   ' }).success).toBe(false);
    expect(projectRename.body.safeParse({ projectId: 'p', fileName: 'x'.repeat(100) }).success).toBe(true);
    expect(projectRename.body.safeParse({ projectId: 'p', fileName: 'x'.repeat(101) }).success).toBe(false);
    expect(projectRename.body.safeParse({ projectId: 'p', fileName: '   ' }).success).toBe(false);
  });

  it('rejects unknown fields', () => {
    expect(projectCreate.body.safeParse({ projectName: 'a', admin: true }).success).toBe(false);
  });

  it('lets an empty invitation code through so the service can answer with the spec message', () => {
    expect(usersActivate.query.parse({}).inviteCode).toBe('');
  });

  it('accepts only http(s) product links', () => {
    const input = TASKS['link-analysis'].input;
    expect(input.safeParse({ projectId: 'p', productLink: 'https://shop.example/p/1' }).success).toBe(true);
    expect(input.safeParse({ projectId: 'p', productLink: 'not a url' }).success).toBe(false);
    expect(input.safeParse({ projectId: 'p', productLink: 'file:///etc/passwd' }).success).toBe(false);
  });

  it('task query answers carry the result fields of their kind', () => {
    const q = taskQuery('link-analysis').data;
    const parsed = q.parse({
      taskId: 't',
      status: 'SUCCESS',
      productName: 'n',
      productDescription: 'd',
      productImages: [],
      productVideos: [],
    });
    expect(parsed.productName).toBe('n');
    expect(q.safeParse({ taskId: 't', status: 'DONE' }).success).toBe(false);
  });
});
