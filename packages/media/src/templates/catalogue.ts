/**
 * The visual styles of an ad (decision "Ad templates"). A template decides the scene structure (how long a shot
 * may run, where the offer card goes, what opens the ad), the type, the transitions and the colour treatment;
 * the brand kit then colours and names it. Data only: the timeline plans with it, stills are graded and set by
 * it, the cards are drawn from it. The ids are the contract's `TEMPLATE_IDS`.
 */
import { NEUTRAL_GRADE } from '../imaging/grade.js';
import type { Look } from '../render/look.js';

export const TEMPLATE_IDS = ['clean-studio', 'bold-ugc', 'minimal-luxury', 'sale', 'feature-list', 'problem-solution'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** A template: a look with one of the catalogue's ids. */
export type Template = Look<TemplateId>;

export const TEMPLATES: Record<TemplateId, Template> = {
  'clean-studio': {
    id: 'clean-studio',
    set: 'light-studio',
    grade: { ...NEUTRAL_GRADE, brightness: 1.03, contrast: 1.02 },
    transition: { kind: 'slide', seconds: 0.4 },
    maxShot: 4,
    type: { font: 'noto-sans', uppercase: false, spacing: 2, titleSize: 0.075 },
    hook: 'title',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
    presenter: 'bookends',
  },
  'bold-ugc': {
    id: 'bold-ugc',
    set: 'photo',
    grade: { saturation: 1.18, brightness: 1.02, contrast: 1.1, tint: [1.03, 1, 0.97] },
    transition: { kind: 'cut', seconds: 0 },
    maxShot: 1.8,
    type: { font: 'noto-sans-black', uppercase: true, spacing: 0, titleSize: 0.11 },
    hook: 'punch',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
    presenter: 'corner',
  },
  'minimal-luxury': {
    id: 'minimal-luxury',
    set: 'dark-studio',
    grade: { saturation: 0.82, brightness: 0.9, contrast: 1.12, tint: [1.03, 1, 0.95] },
    transition: { kind: 'dissolve', seconds: 0.8 },
    maxShot: 6,
    type: { font: 'noto-serif', uppercase: true, spacing: 18, titleSize: 0.06 },
    hook: 'title',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
    presenter: 'bookends',
  },
  sale: {
    id: 'sale',
    set: 'photo',
    grade: { saturation: 1.12, brightness: 1.03, contrast: 1.06, tint: [1, 1, 1] },
    transition: { kind: 'whip', seconds: 0.24 },
    maxShot: 3,
    type: { font: 'noto-sans-black', uppercase: true, spacing: 2, titleSize: 0.1 },
    hook: 'price',
    featureLines: false,
    offer: 'early',
    saleBadge: true,
    presenter: 'corner',
  },
  'feature-list': {
    id: 'feature-list',
    set: 'light-studio',
    grade: { ...NEUTRAL_GRADE, contrast: 1.03 },
    transition: { kind: 'slide', seconds: 0.36 },
    maxShot: 4,
    type: { font: 'noto-sans', uppercase: false, spacing: 0, titleSize: 0.07 },
    hook: 'title',
    featureLines: true,
    offer: 'late',
    saleBadge: false,
    presenter: 'split',
  },
  'problem-solution': {
    id: 'problem-solution',
    set: 'photo',
    grade: { saturation: 1.05, brightness: 1, contrast: 1.04, tint: [1, 1, 1] },
    transition: { kind: 'whip', seconds: 0.24 },
    maxShot: 3.5,
    type: { font: 'noto-sans-black', uppercase: false, spacing: 0, titleSize: 0.085 },
    hook: 'question',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
    presenter: 'split',
  },
};
