/** What the cards' tests lay cards out for: a brand, a product's facts, and the timeline the planner gives. */
import type { AspectRatio, Timeline } from '../src/render/timeline.js';
import type { AdFacts, BrandLook } from '../src/templates/cards.js';
import { TEMPLATES, type TemplateId } from '../src/templates/catalogue.js';

/** A light type colour and an orange accent: the colours that read worst on light and busy photos. */
export const CARD_BRAND: BrandLook = { primary: '#f7f5f0', secondary: '#ff7a45' };

/** A hoodie on sale, in English. */
export const HOODIE: AdFacts = {
  name: 'Hero Hoodie',
  brand: 'Luma',
  offer: { price: '54.00', currency: 'USD', listPrice: '72.00' },
  features: ['Slanted outsize front pockets', 'Water-resistant coating'],
  opening: 'Tired of hoodies that lose their shape?',
  callToAction: 'Shop now',
};

/** Hook, offer, two features, end card: the roles the planner gives, with a 0.4 s hand-over. */
export function cardsTimeline(templateId: TemplateId, aspectRatio: AspectRatio = '9:16'): Timeline {
  const scene = (role: Timeline['scenes'][number]['role'], start: number, seconds: number) => ({
    media: { kind: 'image' as const, file: 'unused.jpg' },
    role,
    start,
    seconds,
    motion: 'none' as const,
  });
  return {
    aspectRatio,
    seconds: 12.5,
    look: TEMPLATES[templateId],
    transition: 0.4,
    transitionKind: 'dissolve',
    scenes: [
      scene('hook', 0, 2.4),
      scene('offer', 2.4, 2.4),
      scene('feature', 4.8, 2.4),
      scene('feature', 7.2, 2.4),
      scene('end', 9.6, 2.9),
    ],
  };
}
