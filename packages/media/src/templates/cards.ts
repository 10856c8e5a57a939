/**
 * The designed cards of an ad, drawn by libass over the pictures (decision "Ad cards"): the hook's title, the
 * feature lines, the offer card, the end card, the sale ticker and the AI-generated label. They are one ASS
 * document, merged with the captions' and burnt in with them, so they cost no extra pass over the frames.
 * Every size is a share of the frame's short side, so one design serves 9:16, 1:1 and 16:9 at 540p and 1080p;
 * every card stays clear of the platforms' controls (the bottom fifth and the right eighth of a 9:16 frame), of
 * the top 8 % and of the captions' band. Sizes here are ems (the letters' size), turned into libass's font
 * size (the face's whole line height) when written.
 */
import { type BrandFontFileId, brandFont } from '../brand/fonts.js';
import { type BrandLook, DEFAULT_BRAND } from '../brand/look.js';
import { type AssStyle, assAlpha, assColour, assDocument, assText, cardStyleLine } from '../captions/assDocument.js';
import type { CaptionAvoid } from '../captions/layout.js';
import type { FramedSubject } from '../render/framing.js';
import type { LightMap } from '../render/lightMap.js';
import { kindOf } from '../render/scene/kinds.js';
import type { Timeline } from '../render/timeline.js';
import type { Language } from '../script/language.js';
import { discountPercent, formatPrice } from '../script/price.js';
import { ANYTHING, across, behindOf, type Ink, readable, scrimFor } from './backing.js';
import {
  add,
  BOX,
  type Ctx,
  discountBadge,
  drawCard,
  type Entrance,
  fill,
  inkMiddle,
  inkOn,
  type Layout,
  layoutOf,
  leading,
  onPicture,
  paletteOf,
  type Row,
  r1,
  SHAPE,
  type Surface,
  scratch,
  scrimOver,
  standsAt,
  TEXT,
  textLine,
  typeTags,
} from './cardDraw.js';
import { CARD_FACES, fitText, measure, titleOf, upper } from './cardText.js';
import type { Template, TemplateId } from './catalogue.js';
import { faceMetrics } from './fontMetrics.js';
import { roundedRect } from './shapes.js';
import { cardWord } from './words.js';

export { mergeAss } from '../captions/assDocument.js';
export { inkOn } from './cardDraw.js';
export { cardFontsDir } from './fontsDir.js';

/** What the cards say, all from the product page and the user's brand kit. */
export interface AdFacts {
  name: string;
  brand?: string | undefined;
  offer?: { price: string; currency: string; listPrice?: string | undefined } | undefined;
  /** Short feature lines, in the page's order (templates/features.ts). */
  features: string[];
  /** The script's first line: the question a problem→solution ad opens on. */
  opening?: string | undefined;
  callToAction: string;
}

export type { BrandLook } from '../brand/look.js';

export interface CardsOptions {
  timeline: Timeline;
  /**
   * Where the hook picture's subject is in the frame (shares; render/stills.ts's sceneSubject): the hook's title
   * moves off it (a model's face, the product) when a lower place is clearer.
   */
  hookSubject?: FramedSubject | undefined;
  /** Where the offer picture's subject is in the frame (as `hookSubject`): the offer card moves off it likewise. */
  offerSubject?: FramedSubject | undefined;
  /**
   * What each scene's picture shows where (render/lightMap.ts), by the timeline's scene: each card's backing is
   * chosen so its type reads on it (decision "Readable cards"). A scene without one is taken for any picture.
   */
  lightMaps?: (LightMap | undefined)[] | undefined;
  template: Template;
  facts: AdFacts;
  brand: BrandLook;
  width: number;
  height: number;
  language: Language;
  aiLabel: boolean;
}

/** The surface each template's cards stand on (cardDraw.ts). */
const SURFACE: Record<TemplateId, Surface> = {
  'clean-studio': 'card',
  'bold-ugc': 'sticker',
  'minimal-luxury': 'bare',
  sale: 'sticker',
  'feature-list': 'card',
  'problem-solution': 'glass',
};

/** The hook's card leaves after this long, or with its scene: it stops the thumb, then the product speaks. */
const HOOK_SECONDS = 1.5;
type Span = { start: number; end: number };

/** The time a scene's card may hold the screen: from the scene's start until its hand-over begins. */
function sceneSpan(timeline: Timeline, index: number): Span {
  const scene = timeline.scenes[index];
  if (!scene) throw new RangeError(`no scene ${index}`);
  const last = index === timeline.scenes.length - 1;
  return { start: scene.start, end: scene.start + scene.seconds - (last ? 0 : timeline.transition) };
}

// ---------------------------------------------------------------------------------------------------------------
// The hook

/** Where side cards start: below the AI label, in the top part of the frame. */
const cardTop = (L: Layout) => L.top + (L.wide ? 0.06 : 0.045) * L.h;

/**
 * How much of a block (`x`, `y`, `w`, `h` in pixels) covers the subject, in shares of the frame. A person's head
 * (subject.ts's headAtTop: skin at the top of a subject the photo does not cut there) is the subject's top fifth,
 * and counts four times: a title over a face is what a viewer minds most.
 */
function coverage(L: Layout, subject: FramedSubject, block: { x: number; y: number; w: number; h: number }): number {
  const overlap = (top: number, bottom: number) => {
    const across = Math.min(block.x + block.w, subject.right * L.w) - Math.max(block.x, subject.left * L.w);
    const down = Math.min(block.y + block.h, bottom * L.h) - Math.max(block.y, top * L.h);
    return across > 0 && down > 0 ? (across * down) / (L.w * L.h) : 0;
  };
  const head = subject.head && subject.top > 0.02 ? overlap(subject.top, subject.top + 0.2 * (subject.bottom - subject.top)) : 0;
  return overlap(subject.top, subject.bottom) + 3 * head;
}

/**
 * Where a hook's block of `h` pixels starts down the frame: at `preferred` unless the subject is there and the
 * lowest place above the captions covers clearly less of it, a face above all (decision "Ad cards").
 */
function hookTop(ctx: Ctx, subject: FramedSubject | undefined, block: { x: number; w: number; h: number }, preferred: number): number {
  const L = ctx.layout;
  const lowest = L.overCaptions - block.h;
  if (!subject || lowest <= preferred) return preferred;
  const high = coverage(L, subject, { ...block, y: preferred });
  const low = coverage(L, subject, { ...block, y: lowest });
  return high > 0.01 && low < 0.75 * high ? lowest : preferred;
}

/** The name (or the opening question) as a title card, the brand small over it. */
function titleHook(ctx: Ctx, facts: AdFacts, span: Span, text: string, question: boolean, subject?: FramedSubject): void {
  const { layout: L, template, palette } = ctx;
  const em = template.type.titleSize * L.u;
  const bare = ctx.surface === 'bare';
  const shown = template.type.uppercase && !question ? upper(text, ctx.language) : text;
  const pad = palette.panel ? 1.4 * em : 0;
  const brand = !question && facts.brand ? upper(facts.brand, ctx.language) : undefined;
  const entrance: Entrance = { fadeIn: 260, fadeOut: 220, rise: 0.02 * L.h, duration: 460 };
  /** The card with its title fitted in `maxWidth`, measured on a scratch list (its place depends on its size). */
  const measured = (maxWidth: number) => {
    const fitted = fitText(shown, { em, maxWidth, maxLines: question ? 3 : 2, type: ctx.type, minScale: question ? 0.6 : 0.7 });
    const rows: Row[] = [];
    if (brand) rows.push({ text: brand, em: Math.max(0.024 * L.u, 0.3 * fitted.em), colour: palette.accent, track: 0.24 });
    rows.push(...fitted.lines.map((line, i) => ({ text: line, em: fitted.em, colour: palette.ink, before: i === 0 && brand ? 0.15 : 0 })));
    // Luxury centres its title over the picture; the others stand at the side, clear of a centred product.
    const card = { kind: 'hook' as const, ...span, start: span.start + 0.05, rows, x: bare ? L.w / 2 : L.left, centre: bare, entrance };
    const probe = scratch(ctx);
    return { card, probe, em: fitted.em, size: drawCard(probe, { ...card, top: cardTop(L) }) };
  };
  let hook = measured((bare ? L.centreWidth : L.cardWidth) - pad);
  // A centred title under a scrim leaves it room on both sides (decision "Readable cards").
  const over = bare ? scrimOver(hook.probe, hook.size, hook.em) : 0;
  if (over) hook = measured(hook.size.w - 2 * over);
  drawCard(ctx, { ...hook.card, top: hookTop(ctx, subject, hook.size, cardTop(L)) });
}

/** The name in huge type on accent boxes, each line popping in a beat after the one before (Bold UGC). */
function punchHook(ctx: Ctx, facts: AdFacts, span: Span, subject?: FramedSubject): void {
  const { layout: L, template, palette } = ctx;
  const em = template.type.titleSize * L.u;
  const name = upper(titleOf(facts.name), ctx.language);
  const pad = 0.2 * em;
  // Huge beats complete: words go before the type shrinks below 85 %.
  const fitted = fitText(name, { em, maxWidth: L.centreWidth - 2 * pad, maxLines: 2, type: ctx.type, minScale: 0.85, cutFirst: true });
  const step = fitted.em * 1.5;
  const cx = L.w / 2;
  // The block: its lines' steps, and the boxes' padding above the first and below the last.
  const blockH = fitted.lines.length * step;
  const preferred = L.top + (L.wide ? 0.28 : 0.17) * L.h - blockH / 2;
  const cy = hookTop(ctx, subject, { x: L.w / 2 - L.centreWidth / 2, w: L.centreWidth, h: blockH }, preferred) + blockH / 2;
  const first = cy - ((fitted.lines.length - 1) * step) / 2;
  standsAt(ctx, span.start, span.end, { x: cx - L.centreWidth / 2, y: cy - blockH / 2, w: L.centreWidth, h: blockH });
  fitted.lines.forEach((line, i) => {
    add(ctx, {
      kind: 'hook',
      layer: 4,
      start: span.start + 0.04 + i * 0.12,
      end: span.end,
      x: cx,
      y: inkMiddle(first + i * step, fitted.em),
      an: 5,
      style: BOX,
      tags: `${typeTags(ctx, fitted.em)}\\1c${assColour(palette.ink)}\\1a&H00&\\bord${r1(pad)}\\3c${assColour(ctx.accent)}\\3a&H00&\\shad0`,
      rotate: { angle: -3, x: cx, y: cy },
      body: assText(line),
      entrance: { scaleFrom: 135, duration: 200, fadeIn: 90, fadeOut: 160 },
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The offer: the card, and the same bigger as the Sale template's hook

/**
 * The price card: a label, the price big, the struck list price, and in the Sale template a discount badge. As the
 * hook it keeps off the hook picture's subject as the title hooks do (looked at: the Sale hook's price sat on a
 * model's face).
 */
function offerCard(ctx: Ctx, facts: AdFacts, span: Span, kind: 'offer' | 'hook', subject?: FramedSubject): boolean {
  const offer = facts.offer;
  if (!offer) return false;
  const { layout: L, template, palette } = ctx;
  const price = formatPrice(offer.price, offer.currency, ctx.language);
  const percent = discountPercent(offer.price, offer.listPrice);
  const list = offer.listPrice && percent > 0 ? formatPrice(offer.listPrice, offer.currency, ctx.language) : undefined;
  const big = kind === 'hook';
  const wanted = (big ? 0.13 : 0.09) * L.u;
  const em = Math.min(wanted, (L.cardWidth * 0.8) / Math.max(1, measure(price, 1, ctx.type)));
  const labelText =
    template.saleBadge && list ? cardWord('sale', ctx.language) : facts.brand ? upper(facts.brand, ctx.language) : undefined;
  const rows: Row[] = [];
  if (labelText) {
    const label = fitText(labelText, {
      em: 0.3 * em,
      maxWidth: L.cardWidth * 0.6,
      maxLines: 1,
      type: ctx.type,
      minScale: 0.8,
      ellipsis: true,
    });
    rows.push({
      text: label.lines[0] as string,
      em: label.em,
      colour: palette.accent,
      track: 0.2,
    });
  }
  if (list)
    rows.push({
      text: list,
      em: 0.42 * em,
      colour: palette.muted.colour,
      opacity: palette.muted.opacity,
      strike: true,
      before: labelText ? 0.25 : 0,
    });
  rows.push({ text: price, em, colour: ctx.surface === 'bare' ? palette.ink : palette.accent });
  const entrance: Entrance = big
    ? { scaleFrom: 115, duration: 240, fadeIn: 120, fadeOut: 180 }
    : { fadeIn: 220, fadeOut: 200, rise: 0.02 * L.h, duration: 420 };
  const start = span.start + (big ? 0.04 : 0.1);
  const angle = ctx.surface === 'sticker' ? -2 : 0;
  const card = { kind, start, end: span.end, rows, x: L.left, entrance, angle };
  const preferred = cardTop(L) + (big ? 0.01 * L.h : 0);
  const d = list && template.saleBadge ? (big ? 0.2 : 0.16) * L.u : 0;
  // Measured on a scratch list first: its place depends on its size. The badge over its top-right corner is part
  // of what keeps off the subject.
  const size = drawCard(scratch(ctx), { ...card, top: preferred });
  const rise = 0.35 * d;
  const top = hookTop(ctx, subject, { x: size.x, w: size.w + d / 2, h: size.h + rise }, preferred - rise) + rise;
  const box = drawCard(ctx, { ...card, top });
  if (d) {
    // At the card's top-right corner, kept under the top bar and left of the side buttons.
    const at = { x: Math.min(L.right - d / 2, box.x + box.w + d * 0.05), y: Math.max(L.top + d * 0.55, box.y + d * 0.15) };
    discountBadge(ctx, kind, at, d, percent, { start: start + 0.3, end: span.end });
  }
  return true;
}

/** A card of one feature: a check mark in an accent circle and the line beside it, sliding in from the left. */
function featureCard(ctx: Ctx, line: string, span: Span): void {
  const { layout: L, palette } = ctx;
  const em = 0.05 * L.u;
  const icon = 1.5 * em;
  const fitted = fitText(line, {
    em,
    maxWidth: L.cardWidth - 2 * 0.7 * em - icon - 0.55 * em,
    maxLines: 2,
    type: ctx.type,
    minScale: 0.85,
    ellipsis: true,
  });
  const rows = fitted.lines.map((text) => ({ text, em: fitted.em, colour: palette.ink }));
  drawCard(ctx, {
    kind: 'feature',
    start: span.start + 0.1,
    end: span.end,
    rows,
    x: L.left,
    top: cardTop(L),
    icon,
    entrance: { fadeIn: 200, fadeOut: 200, slide: 0.05 * L.w, duration: 380 },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The sale ticker, the end card and the label

/** The sale ticker's band: just above the captions' band, the end card included (the call to action is captioned there). */
function tickerBand(L: Layout): { top: number; height: number } {
  const height = 0.06 * L.u;
  return { top: L.overCaptions - height, height };
}

/** A band in the accent colour, "SALE -20% •" running through it, from `from` to the video's end `to`, above the captions. */
function saleTicker(ctx: Ctx, percent: number, from: number, to: number): void {
  const { layout: L } = ctx;
  const band = tickerBand(L);
  const em = band.height * 0.5;
  const unit = `${cardWord('sale', ctx.language)}  -${percent}%   •   `;
  const unitWidth = measure(unit, em, ctx.type, 0.08);
  const travel = 0.07 * L.w * (to - from);
  const copies = Math.ceil((L.w + travel) / unitWidth) + 1;
  const y = inkMiddle(band.top + band.height / 2, em);
  add(ctx, {
    kind: 'sale',
    layer: 1,
    start: from,
    end: to,
    x: 0,
    y: band.top,
    an: 7,
    drawing: true,
    tags: fill(ctx.accent),
    body: `m 0 0 l ${L.w} 0 ${L.w} ${r1(band.height)} 0 ${r1(band.height)}`,
    entrance: { fadeIn: 200 },
  });
  // One event for the whole run: libass keeps the glyphs and only moves them.
  ctx.events.push({
    layer: 2,
    start: from,
    end: to,
    style: TEXT,
    name: 'sale',
    text: `{\\an4\\move(0,${r1(y)},${r1(-travel)},${r1(y)})\\fad(200,0)${typeTags(ctx, em, 0.08)}${fill(inkOn(ctx.accent))}}${assText(unit.repeat(copies))}`,
  });
}

/**
 * The end card: the brand small, the name, the price and the call to action as a button, stacked over the
 * platform's controls (centred; at the left of a wide frame, beside the product), below the logo's place.
 */
function endCard(ctx: Ctx, facts: AdFacts, span: Span, floor: number, hasLogo: boolean): void {
  const { layout: L, template, palette } = ctx;
  const upperIf = (text: string) => (template.type.uppercase ? upper(text, ctx.language) : text);
  // The logo names the brand already: its name is written only without one.
  const brandName = hasLogo ? undefined : facts.brand;
  const widest = L.wide ? L.cardWidth : L.centreWidth;
  const offer = facts.offer;
  const bare = ctx.surface === 'bare';
  // The price in the accent colour, the struck list price before it.
  const price = offer && formatPrice(offer.price, offer.currency, ctx.language);
  const list =
    offer?.listPrice && discountPercent(offer.price, offer.listPrice) > 0
      ? formatPrice(offer.listPrice, offer.currency, ctx.language)
      : undefined;
  /** The type fitted in `maxWidth`, and the box it stands in on the picture. */
  const fitted = (maxWidth: number) => {
    const build = (scale: number) => {
      const nameEm = Math.min(0.075, Math.max(0.05, template.type.titleSize * 0.8)) * L.u * scale;
      const name = fitText(upperIf(titleOf(facts.name)), { em: nameEm, maxWidth, maxLines: 2, type: ctx.type, minScale: 0.8 });
      const cta = fitText(upperIf(facts.callToAction), {
        em: 0.046 * L.u * scale,
        maxWidth: maxWidth * 0.8,
        maxLines: 1,
        type: ctx.type,
        minScale: 0.7,
        ellipsis: true,
      });
      const [priceEm, brandEm, gap] = [0.064, 0.024, 0.032].map((share) => share * L.u * scale) as [number, number, number];
      // No call to action (the template thumbnails), no button.
      const pillH = cta.lines.length ? cta.em * 2.5 + gap : 0;
      const nameHeight = name.lines.reduce((sum, l) => sum + leading(l, name.em, true), 0);
      const height = (brandName ? brandEm * 1.9 : 0) + nameHeight + (offer ? gap * 0.4 + priceEm * 1.3 : 0) + pillH;
      return { name, cta, priceEm, brandEm, gap, pillH, height };
    };
    // The block shrinks (to 70 %) when the frame is short: under the logo's place, over the floor.
    const ceiling = L.top + (hasLogo ? 0.22 * L.h : 0.02 * L.h);
    let block = build(1);
    if (block.height > floor - ceiling) block = build(Math.max(0.7, (floor - ceiling) / block.height));
    const { name, cta, priceEm, pillH } = block;
    const listEm = priceEm * 0.58;
    const priceW = price ? measure(price, priceEm, ctx.type) : 0;
    const listW = list ? measure(list, listEm, ctx.type) + priceEm * 0.4 : 0;
    const ctaText = cta.lines[0];
    const pillW = ctaText ? Math.max(0.4 * L.u, measure(ctaText, cta.em, ctx.type, 0.04) + cta.em * 3) : 0;
    const brandW = brandName ? measure(upper(brandName, ctx.language), block.brandEm, ctx.type, 0.24) : 0;
    const textW = Math.min(maxWidth, Math.max(priceW + listW, brandW, ...name.lines.map((line) => measure(line, name.em, ctx.type))));
    const textTop = floor - block.height;
    // The button brings its own ground (decision "Readable cards").
    const box = { x: L.wide ? L.left : L.w / 2 - textW / 2, y: textTop, w: textW, h: floor - pillH - textTop };
    return { ...block, maxWidth, listEm, priceW, listW, ctaText, pillW, box };
  };
  const rise: Entrance = { fadeIn: 260, rise: 0.02 * L.h, duration: 420 };
  // The type stands on the end card's darkened picture: where that is still too light, a soft scrim under it,
  // for which the type leaves room inside the cards' zone.
  const scrim = { kind: 'end' as const, start: span.start + 0.1, end: span.end, entrance: rise };
  const inks: Ink[] = [
    { colour: ctx.primary },
    { colour: ctx.primary, opacity: 0.85 },
    { colour: ctx.accent },
    { colour: ctx.primary, opacity: 0.75 },
  ];
  let fit = fitted(widest);
  const probe = scratch(ctx);
  onPicture(probe, scrim, fit.box, fit.name.em, inks);
  const over = scrimOver(probe, fit.box, fit.name.em);
  if (over) fit = fitted(fit.box.w - (L.wide ? 1 : 2) * over);
  const { name, cta, priceEm, brandEm, gap, pillH, maxWidth, listEm, priceW, listW, ctaText, pillW } = fit;
  const [nameInk, brandInk, priceInk, listInk] = onPicture(ctx, scrim, fit.box, name.em, inks) as [Ink, Ink, Ink, Ink];
  const anchorX = L.wide ? L.left : L.w / 2;
  const an = L.wide ? 4 : 5;
  const type = { kind: 'end' as const, layer: 4, end: span.end, entrance: rise, glow: 0.5 };
  // The call to action: a pill in the accent colour (an outline on luxury), popping in last, then beating once.
  if (ctaText) {
    const height = pillH - gap;
    const pill = {
      kind: 'end' as const,
      start: span.start + 0.45,
      end: span.end,
      x: L.wide ? L.left + pillW / 2 : L.w / 2,
      y: floor - height / 2,
      an: 5,
    };
    const pop: Entrance = { scaleFrom: 60, overshoot: 108, duration: 340, fadeIn: 100 };
    const pulse = '\\t(1300,1550,\\fscx106\\fscy106)\\t(1550,1800,\\fscx100\\fscy100)';
    // A bare button is an outline, filled only as far as the picture inside it asks for its type to read.
    const ground = scrimFor(palette.ink);
    const inside = readable(
      [{ colour: palette.ink }],
      ctx.behind({ x: pill.x - pillW / 2, y: floor - height, w: pillW, h: height }, pill.start, pill.end),
      { colour: ground, least: 0, most: 1 },
      inkOn(ground),
    );
    const outline = `\\1c${assColour(ground)}\\1a${assAlpha(inside.opacity)}\\bord${r1(Math.max(1.5, 0.0028 * L.u))}\\3c${assColour(ctx.accent)}\\3a&H00&\\shad0`;
    add(ctx, {
      ...pill,
      layer: 3,
      drawing: true,
      tags: bare ? outline : fill(ctx.accent),
      body: roundedRect(pillW, height, height / 2),
      entrance: pop,
      after: pulse,
    });
    textLine(ctx, {
      ...pill,
      layer: 4,
      text: ctaText,
      em: cta.em,
      track: 0.04,
      ...(bare ? (inside.inks[0] as Ink) : { colour: inkOn(ctx.accent) }),
      entrance: pop,
      after: pulse,
    });
  }
  let y = floor - pillH;
  if (price) {
    const left = L.wide ? L.left : L.w / 2 - (priceW + listW) / 2;
    const middle = y - priceEm * 0.65;
    const start = span.start + 0.25;
    if (list)
      textLine(ctx, {
        ...type,
        start,
        x: left,
        y: middle + priceEm * 0.08,
        an: 4,
        text: list,
        em: listEm,
        ...listInk,
        strike: true,
      });
    textLine(ctx, { ...type, start, x: left + listW, y: middle, an: 4, text: price, em: priceEm, ...priceInk });
    y -= priceEm * 1.3 + gap * 0.4;
  }
  // The name over it, bottom line first; the brand over the name, small and spaced out.
  for (const line of [...name.lines].reverse()) {
    const step = leading(line, name.em, true);
    textLine(ctx, { ...type, start: span.start + 0.1, x: anchorX, y: y - step / 2, an, text: line, em: name.em, ...nameInk });
    y -= step;
  }
  if (brandName) {
    const brand = fitText(upper(brandName, ctx.language), {
      em: brandEm,
      maxWidth,
      maxLines: 1,
      type: ctx.type,
      track: 0.24,
      minScale: 0.8,
      ellipsis: true,
    });
    textLine(ctx, {
      ...type,
      start: span.start + 0.1,
      x: anchorX,
      y: y - brandEm * 1.1,
      an,
      text: brand.lines[0] as string,
      em: brand.em,
      track: 0.24,
      ...brandInk,
    });
  }
  const top = y - (brandName ? brandEm * 1.9 : 0);
  standsAt(ctx, span.start, span.end, { x: L.wide ? L.left : L.w / 2 - widest / 2, y: top, w: widest, h: floor - top });
}

/** What the smallest type aims at (decision "Readable cards"). */
const SMALL_TYPE_AIM = 7;

/** "AI-generated", small in the top-left corner for the whole video: visible, never in the way. */
function aiLabel(ctx: Ctx, seconds: number): void {
  const { layout: L } = ctx;
  const em = Math.max(8, 0.02 * L.u);
  const text = cardWord('aiGenerated', ctx.language);
  const box = { x: L.left, y: L.top, w: measure(text, em, ctx.type, 0.03) + 0.8 * em, h: 1.8 * em };
  // Its box darker where a light picture asks for it (decision "Readable cards"), with room to spare: letters
  // this small lose contrast to their soft edges.
  const backing = { colour: '#000000', least: 0.42, most: 1 };
  const { opacity } = readable([{ colour: '#ffffff' }], ctx.behind(box, 0, seconds), backing, '#ffffff', SMALL_TYPE_AIM);
  add(ctx, {
    kind: 'ai-label',
    layer: 7,
    start: 0,
    end: seconds,
    x: L.left + 0.3 * em,
    // The box reaches 0.38 em above the line: it starts just under the top bar.
    y: L.top + 0.4 * em,
    an: 7,
    style: BOX,
    tags: `${typeTags(ctx, em, 0.03)}\\1c&HFFFFFF&\\1a&H00&\\bord${r1(em * 0.38)}\\3c&H000000&\\3a${assAlpha(opacity)}\\shad0`,
    body: assText(text),
  });
}

/** The typeface the cards of `template` are set in for `brand`: the brand's, else the template's. */
export const cardFace = (template: Template, brand: BrandLook): BrandFontFileId => brand.font ?? template.type.font;

/**
 * Until when the hook's card shows the script's opening line itself (the question hook): the captions leave those
 * words to it rather than say them twice on screen. Undefined for the other hooks.
 */
export function openingCardEnd(timeline: Timeline, template: Template): number | undefined {
  const hookIndex = timeline.scenes.findIndex((s) => s.role === 'hook');
  if (template.hook !== 'question' || hookIndex < 0) return undefined;
  const scene = sceneSpan(timeline, hookIndex);
  return Math.min(scene.end, scene.start + HOOK_SECONDS);
}

/**
 * Where the end card stands, in shares of a `width`×`height` frame: the whole width from under the top bar to over
 * the captions' band. Captions of any style keep off it, so they sit in the band below while the end card shows.
 */
export function endCardArea(width: number, height: number): { x: number; y: number; w: number; h: number } {
  const L = layoutOf(width, height);
  return { x: 0, y: L.top / height, w: 1, h: (L.overCaptions - L.top) / height };
}

/** Where the cards of one video are drawn, in `template`'s look and `brand`'s colours and face. */
function cardsContext(
  { template, brand, width, height, language, lightMaps }: Omit<CardsOptions, 'timeline' | 'facts' | 'aiLabel'>,
  timeline?: Timeline,
): Ctx {
  if (!(width > 0 && height > 0)) throw new RangeError(`frame size must be positive, not ${width}×${height}`);
  assColour(brand.primary);
  assColour(brand.secondary);
  const face = cardFace(template, brand);
  const surface = SURFACE[template.id];
  return {
    layout: layoutOf(width, height),
    template,
    surface,
    palette: paletteOf(surface, brand.primary, brand.secondary),
    type: { face, spacing: template.type.spacing },
    emPerSize: faceMetrics(brandFont(face).path).emPerSize,
    primary: brand.primary,
    accent: brand.secondary,
    language,
    events: [],
    areas: [],
    behind: (box, start, end) => {
      // Every scene on screen while the card shows, its fade-in under the scene before included.
      const shown = (timeline?.scenes ?? []).flatMap((scene, i) =>
        scene.start - (timeline?.transition ?? 0) < end && scene.start + scene.seconds > start ? [i] : [],
      );
      const share = { x: box.x / width, y: box.y / height, w: box.w / width, h: box.h / height };
      return across(shown.length ? shown.map((i) => (lightMaps?.[i] ? behindOf(lightMaps[i] as LightMap, share) : ANYTHING)) : [ANYTHING]);
    },
  };
}

/** The styles every card document declares, in the face `face`. */
function cardDocument(ctx: Ctx, width: number, height: number): string {
  const font = CARD_FACES[ctx.type.face].family;
  const styles: AssStyle[] = [
    { name: TEXT, font, size: 0.05 * ctx.layout.u, bold: true, borderStyle: 1 },
    { name: BOX, font, size: 0.05 * ctx.layout.u, bold: true, borderStyle: 3 },
    { name: SHAPE, font, size: 20, bold: false, borderStyle: 1 },
  ];
  return assDocument(width, height, styles.map(cardStyleLine), ctx.events);
}

/**
 * Only the "AI-generated" label, for `seconds`, as an ASS document over a `width`×`height` frame: a video with no
 * cards (a talking presenter) is labelled as an ad is (decision "AI-generated label").
 */
export function buildLabelAss(options: { template: Template; width: number; height: number; language: Language; seconds: number }): string {
  const ctx = cardsContext({ ...options, brand: DEFAULT_BRAND });
  aiLabel(ctx, options.seconds);
  return cardDocument(ctx, options.width, options.height);
}

/** The cards of one video as a complete ASS document over a `width`×`height` frame. */
export const buildCardsAss = (options: CardsOptions): string => buildCards(options).ass;

/**
 * The cards of one video as a complete ASS document over a `width`×`height` frame, and where each stands while it
 * shows, for the captions to keep off (a title over a presenter's close-up leaves the captions no room above it).
 */
export function buildCards(options: CardsOptions): { ass: string; areas: CaptionAvoid[] } {
  const { timeline, template, facts, brand, width, height } = options;
  const ctx = cardsContext(options, timeline);
  const scenes = timeline.scenes;
  const hookIndex = scenes.findIndex((s) => s.role === 'hook');
  if (hookIndex >= 0) {
    const scene = sceneSpan(timeline, hookIndex);
    const span = { start: scene.start, end: Math.min(scene.end, scene.start + HOOK_SECONDS) };
    const opening = facts.opening?.trim();
    const subject = options.hookSubject;
    if (template.hook === 'punch') punchHook(ctx, facts, span, subject);
    else if (template.hook === 'question' && opening) titleHook(ctx, facts, span, opening, true, subject);
    else if (template.hook !== 'price' || !offerCard(ctx, facts, span, 'hook', subject))
      titleHook(ctx, facts, span, titleOf(facts.name), false, subject);
  }
  if (template.featureLines) {
    let next = 0;
    scenes.forEach((scene, i) => {
      const span = sceneSpan(timeline, i);
      const line = facts.features[next];
      // A feature needs time to be read: a short shot passes without one rather than flash it. It names what the
      // product scene shows; the presenter says their own lines.
      if (scene.role !== 'feature' || !kindOf(scene.media).showsProduct || line === undefined || span.end - span.start < 1) return;
      featureCard(ctx, line, span);
      next++;
    });
  }
  const offerIndex = scenes.findIndex((s) => s.role === 'offer');
  if (offerIndex >= 0) offerCard(ctx, facts, sceneSpan(timeline, offerIndex), 'offer', options.offerSubject);
  const endIndex = scenes.findIndex((s) => s.role === 'end');
  const percent = facts.offer ? discountPercent(facts.offer.price, facts.offer.listPrice) : 0;
  const onSale = template.saleBadge && percent > 0;
  if (onSale) {
    const from = scenes[offerIndex >= 0 ? offerIndex : endIndex]?.start;
    if (from !== undefined) saleTicker(ctx, percent, from, timeline.seconds);
  }
  if (endIndex >= 0) {
    const L = ctx.layout;
    // On a sale the ticker runs under the end card, which stands above it.
    // Over the captions' band: the call to action is still being said, and captioned, while the end card shows.
    const floor = (onSale ? tickerBand(L).top : L.overCaptions) - 0.03 * L.u;
    endCard(ctx, facts, sceneSpan(timeline, endIndex), floor, Boolean(brand.logo));
  }
  if (options.aiLabel) aiLabel(ctx, timeline.seconds);
  return { ass: cardDocument(ctx, width, height), areas: ctx.areas };
}
