// 12. Bounded work (decision "Bounded work"): a valid input must not buy unbounded work. Each
// picture tool is sent a picture past the pixel bound, and the tools that size their result a result past it;
// each is refused before the charge, changing nothing. The largest input each local tool accepts, run in a child
// process with its time and peak memory printed, is bounded-work.test.ts's: it is the same media work on any database.
import { ERRORS, type TaskKind } from '@reelsmith/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../support/files.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';

const CATEGORY = 'bounded work';
const TOO_LARGE = { codes: [ERRORS.pictureTooLarge.code], key: 'pictureTooLarge', locale: 'en' } as const;
const ENHANCE_TOO_LARGE = { codes: [ERRORS.enhanceTooLarge.code], key: 'enhanceTooLarge', locale: 'en' } as const;
const RESULT_TOO_LARGE = { codes: [ERRORS.resultTooLarge.code], key: 'resultTooLarge', locale: 'en' } as const;

const submitOf = (kind: TaskKind) => API_CALLS.find((api) => api.name === `submit ${kind}`) as ApiCall;
const flat = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#d8d2c4' } })
    .jpeg({ quality: 80 })
    .toBuffer();

export function boundedWorkAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    const keys = {} as { normal: string; oversized: string; wide: string };
    beforeAll(async () => {
      const stored = async (bytes: Buffer) => {
        const answer = await upload(arena.t, arena.attacker, bytes, 'jpg', 'bounded.jpg');
        expect(answer.body.code, answer.body.message).toBe(0);
        return (answer.body.data as { resKey: string }).resKey;
      };
      // 7000 × 6000 is 42 megapixels, past the bound; 1921 px is past enlargement's longest side.
      const huge = await flat(7000, 6000);
      arena.site.routes.set('/bounded-huge.jpg', { type: 'image/jpeg', body: huge });
      keys.normal = await stored(await flat(2000, 2000));
      keys.oversized = await stored(huge);
      keys.wide = await stored(await flat(1921, 1000));
    });
    it('refuses an oversized picture to every picture tool, and an oversized result, before charging', async () => {
      const oversized = { resKey: keys.oversized };
      const attacks: [TaskKind, NamedAttack[]][] = [
        [
          'expand-image',
          [
            {
              what: 'a 99:1 ratio',
              request: { body: { resKey: keys.normal, ratio: '99:1' } },
              refusal: { codes: [40000], mentions: '1:4' },
            },
            {
              what: 'an 8192 × 8192 free frame',
              request: { body: { resKey: keys.normal, canvas: { width: 8192, height: 8192, left: 0, top: 0 } } },
              refusal: RESULT_TOO_LARGE,
            },
            { what: 'a 42 MP picture', request: { body: { ...oversized, ratio: '16:9' } }, refusal: TOO_LARGE },
          ],
        ],
        [
          'remove-background',
          [
            { what: 'a 42 MP picture', request: { body: oversized }, refusal: TOO_LARGE },
            { what: 'a 42 MP linked picture', request: { body: { imageUrl: `${arena.site.base}/bounded-huge.jpg` } }, refusal: TOO_LARGE },
          ],
        ],
        [
          'product-background',
          [
            {
              what: 'a 42 MP background',
              request: { body: { resKey: keys.normal, backgroundResKey: keys.oversized } },
              refusal: TOO_LARGE,
            },
          ],
        ],
        ['enlarge-image', [{ what: 'a 1921 px picture', request: { body: { resKey: keys.wide, scale: 4 } }, refusal: ENHANCE_TOO_LARGE }]],
        ['image-to-video', [{ what: 'a 42 MP picture', request: { body: { image: oversized, duration: 5 } }, refusal: TOO_LARGE }]],
        [
          'text-to-image',
          [{ what: 'a 42 MP picture', request: { body: { prompt: 'x', ratio: '1:1', image: oversized } }, refusal: TOO_LARGE }],
        ],
        [
          'virtual-try-on',
          [
            {
              what: 'a 42 MP model',
              request: { body: { garmentType: 'top', model: oversized, top: { templateId: 'tee-green' } } },
              refusal: TOO_LARGE,
            },
          ],
        ],
      ];
      for (const [kind, list] of attacks) await refuseAll(arena.campaign, CATEGORY, arena.attacker, submitOf(kind), list);
    });
  });
}
