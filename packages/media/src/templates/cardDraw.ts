/**
 * The drawing kit of the ad cards (cards.ts): the frame's safe places, the colours of each surface, and cards
 * made of ASS events (a panel, an icon, lines of type, a badge) that arrive together. Sizes are ems (the
 * letters' size), turned into libass's font size (the face's whole line height) when written.
 */

import { type AssEvent, assAlpha, assColour, assText } from '../captions/assDocument.js';
import type { CaptionAvoid } from '../captions/layout.js';
import { safeZone } from '../captions/safeZone.js';
import { CAPTION_STYLES } from '../captions/styles.js';
import { contrast } from '../imaging/contrast.js';
import type { Language } from '../script/language.js';
import { type Behind, type Ink, readable, scrimFor } from './backing.js';
import { cjkLine, letterSpacing, measure, type Type } from './cardText.js';
import type { Template } from './catalogue.js';
import { checkMark, circle, roundedRect } from './shapes.js';

/**
 * How a template's cards stand off the picture: a solid card in the brand's type colour with the type in black
 * or white (clean, reads on any photo), dark glass under the type colour, a sticker in the accent colour (loud:
 * UGC and sale), or bare type with a soft glow (luxury).
 */
export type Surface = 'card' | 'glass' | 'sticker' | 'bare';
/** The Name field of each card's events (libass ignores it; tests find cards by it). */
export type CardKind = 'hook' | 'feature' | 'offer' | 'end' | 'sale' | 'ai-label';

/** Styles of the cards' document; named apart from the captions' so the two merge. */
export const TEXT = 'CardText';
export const BOX = 'CardBox';
export const SHAPE = 'CardShape';

/** Where the letters' middle sits below a line's middle, in ems (libass centres the whole line box). */
const INK_DROP = 0.065;

const INK_DARK = '#141414';
const INK_LIGHT = '#ffffff';
/** Near-black or white, whichever reads better on `hex`. */
export function inkOn(hex: string): string {
  return contrast(INK_DARK, hex) >= contrast(INK_LIGHT, hex) ? INK_DARK : INK_LIGHT;
}

/** The frame and the places cards may use, in pixels. */
export interface Layout {
  w: number;
  h: number;
  /** The short side: every size is a share of it. */
  u: number;
  /** Below the platforms' top bar. */
  top: number;
  /** Above the captions' band: the lowest a card over speech may reach. */
  overCaptions: number;
  /** Above the platforms' bottom controls: the lowest the end card (no captions under it) may reach. */
  bottom: number;
  left: number;
  /** Left of the platforms' side buttons. */
  right: number;
  /** The widest a side card may be: most of a tall frame, the left part of a wide one (the product is central). */
  cardWidth: number;
  /** The widest a centred line may be and stay between `left` and `right`. */
  centreWidth: number;
  wide: boolean;
}

export function layoutOf(w: number, h: number): Layout {
  const u = Math.min(w, h);
  // The captions' band (styles at the bottom of the safe zone): two lines, whichever style reaches highest. A
  // line is its libass size tall; the outline or box adds its width above and below.
  const zoneBottom = safeZone(w, h).bottom * h;
  const captionTop = Math.min(
    ...CAPTION_STYLES.filter((s) => s.look.alignment === 2).map(({ look }) => zoneBottom - (2 + 2 * look.edgeWidth) * look.size * u),
  );
  const wide = w > h * 1.2;
  const left = 0.07 * w;
  const right = 0.88 * w;
  return {
    w,
    h,
    u,
    top: 0.09 * h,
    overCaptions: captionTop - 0.02 * h,
    bottom: 0.79 * h,
    left,
    right,
    cardWidth: wide ? 0.44 * w : right - left,
    centreWidth: 2 * Math.min(w / 2 - left, right - w / 2),
    wide,
  };
}

/** The colours a card is drawn in on its surface. */
export interface Palette {
  panel?: { colour: string; opacity: number; shadow: boolean } | undefined;
  ink: string;
  /** Prices and small labels: the accent, unless it would not read on the panel. */
  accent: string;
  muted: { colour: string; opacity: number };
  /** Type over the picture needs a glow. */
  glow: boolean;
  badge: { fill: string; ink: string };
}

export function paletteOf(surface: Surface, primary: string, secondary: string): Palette {
  const accentOn = (panel: string, fallback: string) => (contrast(secondary, panel) >= 2 ? secondary : fallback);
  const accentBadge = { fill: secondary, ink: inkOn(secondary) };
  if (surface === 'card') {
    const ink = inkOn(primary);
    return {
      panel: { colour: primary, opacity: 0.95, shadow: true },
      ink,
      accent: accentOn(primary, ink),
      muted: { colour: ink, opacity: 0.62 },
      glow: false,
      badge: accentBadge,
    };
  }
  if (surface === 'sticker') {
    const ink = inkOn(secondary);
    return {
      panel: { colour: secondary, opacity: 1, shadow: true },
      ink,
      accent: ink,
      muted: { colour: ink, opacity: 0.66 },
      glow: false,
      badge: { fill: INK_DARK, ink: INK_LIGHT },
    };
  }
  const muted = { colour: primary, opacity: 0.74 };
  if (surface === 'glass')
    return {
      panel: { colour: '#000000', opacity: 0.55, shadow: false },
      ink: primary,
      accent: secondary,
      muted,
      glow: false,
      badge: accentBadge,
    };
  return { ink: primary, accent: secondary, muted, glow: true, badge: accentBadge };
}

/** Everything a card is drawn with. */
export interface Ctx {
  layout: Layout;
  template: Template;
  surface: Surface;
  palette: Palette;
  type: Type;
  /** Ems per unit of libass font size in the card face. */
  emPerSize: number;
  primary: string;
  accent: string;
  language: Language;
  events: AssEvent[];
  /** Where each card stands while it shows (shares of the frame): the captions keep off them. */
  areas: CaptionAvoid[];
  /** What stands behind a box of pixels from `start` to `end` seconds (decision "Readable cards"). */
  behind: (box: { x: number; y: number; w: number; h: number }, start: number, end: number) => Behind;
}

/** A context to measure a card in: what is drawn there is neither kept nor kept off. */
export const scratch = (ctx: Ctx): Ctx => ({ ...ctx, events: [], areas: [] });

/** Records that a card of `box` pixels stands from `start` to `end` seconds. */
export function standsAt(ctx: Ctx, start: number, end: number, box: { x: number; y: number; w: number; h: number }): void {
  const { w, h } = ctx.layout;
  ctx.areas.push({ start, end, box: { x: box.x / w, y: box.y / h, w: box.w / w, h: box.h / h }, firm: true });
}

/** How an element arrives; times in ms from its own start. */
export interface Entrance {
  fadeIn?: number;
  fadeOut?: number;
  /** Rises into place by this many pixels. */
  rise?: number;
  /** Slides in from the left by this many pixels. */
  slide?: number;
  /** Scales from this percentage to 100 (with `overshoot`, past 100 first). */
  scaleFrom?: number;
  overshoot?: number;
  duration?: number;
}

export interface Element {
  kind: CardKind;
  layer: number;
  start: number;
  end: number;
  /** Where the element is anchored (\pos) and by which point (numpad alignment). */
  x: number;
  y: number;
  an: number;
  tags: string;
  /** Text (already escaped) or, with `drawing`, a vector drawing. */
  body: string;
  drawing?: boolean;
  style?: string;
  entrance?: Entrance | undefined;
  /** Rotation about a shared origin, so a tilted card's parts stay together. */
  rotate?: { angle: number; x: number; y: number } | undefined;
  /** More tags after the entrance (a pulse). */
  after?: string;
}

export const r1 = (v: number) => Math.round(v * 10) / 10;

export function add(ctx: Ctx, e: Element): void {
  if (e.end - e.start < 0.05) return;
  const ms = Math.round((e.end - e.start) * 1000);
  const en = e.entrance ?? {};
  const duration = Math.min(en.duration ?? 400, ms);
  const tags: string[] = [`\\an${e.an}`];
  const dx = en.slide ?? 0;
  const dy = en.rise ?? 0;
  if (dx || dy) tags.push(`\\move(${r1(e.x - dx)},${r1(e.y + dy)},${r1(e.x)},${r1(e.y)},0,${duration})`);
  else tags.push(`\\pos(${r1(e.x)},${r1(e.y)})`);
  if (e.rotate) tags.push(`\\org(${r1(e.rotate.x)},${r1(e.rotate.y)})\\frz${e.rotate.angle}`);
  if (en.fadeIn || en.fadeOut)
    tags.push(`\\fad(${Math.round(Math.min(en.fadeIn ?? 0, ms / 2))},${Math.round(Math.min(en.fadeOut ?? 0, ms / 2))})`);
  tags.push(e.tags);
  if (en.scaleFrom !== undefined) {
    tags.push(`\\fscx${en.scaleFrom}\\fscy${en.scaleFrom}`);
    if (en.overshoot) {
      const peak = Math.round(duration * 0.65);
      tags.push(`\\t(0,${peak},0.6,\\fscx${en.overshoot}\\fscy${en.overshoot})\\t(${peak},${duration},\\fscx100\\fscy100)`);
    } else tags.push(`\\t(0,${duration},0.5,\\fscx100\\fscy100)`);
  }
  if (e.after) tags.push(e.after);
  const body = e.drawing ? `{\\p1}${e.body}{\\p0}` : e.body;
  ctx.events.push({
    layer: e.layer,
    start: e.start,
    end: e.end,
    style: e.style ?? (e.drawing ? SHAPE : TEXT),
    name: e.kind,
    text: `{${tags.join('')}}${body}`,
  });
}

export const fill = (hex: string, opacity = 1) => `\\1c${assColour(hex)}\\1a${assAlpha(opacity)}\\bord0\\shad0`;
/** Type at `em` in the card face with the template's letter spacing plus `track` ems. */
export const typeTags = (ctx: Ctx, em: number, track = 0) => `\\fs${r1(em / ctx.emPerSize)}\\fsp${r1(letterSpacing(em, ctx.type, track))}`;
/** A soft dark glow (a blurred, half-clear outline) that holds light type on a light picture. */
export const glowTags = (em: number, strength = 0.45) =>
  `\\bord${r1(em * 0.12)}\\3c&H000000&\\3a${assAlpha(strength)}\\blur${r1(em * 0.16)}\\shad0`;

/** Where a line's middle is set so its letters, not its line box, centre on `y`. */
export const inkMiddle = (y: number, em: number) => y - INK_DROP * em;
/** A line's height in a stacked block: Chinese needs more air than Latin. */
export const leading = (line: string, em: number, tight = false) => em * (cjkLine(line) ? 1.34 : tight ? 1.12 : 1.22);

/** A line of type, its letters centred on `y`. */
export interface TextLine extends Omit<Element, 'tags' | 'body' | 'drawing'> {
  text: string;
  em: number;
  colour: string;
  opacity?: number | undefined;
  /** Extra letter spacing in ems (the small spaced-out labels). */
  track?: number | undefined;
  strike?: boolean | undefined;
  /** A soft dark glow of this strength, for type straight on the picture. */
  glow?: number | undefined;
}

export function textLine(ctx: Ctx, line: TextLine): void {
  const { text, em, colour, opacity = 1, track, strike, glow, ...element } = line;
  const edge = glow === undefined ? '\\bord0\\shad0' : glowTags(em, glow);
  add(ctx, {
    ...element,
    y: inkMiddle(line.y, em),
    tags: `${typeTags(ctx, em, track)}\\1c${assColour(colour)}\\1a${assAlpha(opacity)}${strike ? '\\s1' : ''}${edge}`,
    body: assText(text),
  });
}

/** One line of a card. */
export type Row = Pick<TextLine, 'text' | 'em' | 'colour' | 'opacity' | 'strike' | 'track'> & {
  /** Space before the row, in ems of the row. */
  before?: number;
};

export interface CardSpec {
  kind: CardKind;
  start: number;
  end: number;
  rows: Row[];
  /** The card's left edge (or, with `centre`, its middle) and top. */
  x: number;
  top: number;
  centre?: boolean;
  /** A round icon with a check mark left of the rows, this wide. */
  icon?: number;
  entrance: Entrance;
  angle?: number;
}

export const rowWidth = (ctx: Ctx, row: Row) => measure(row.text, row.em, ctx.type, row.track);

/** Draws a card (its panel, icon and rows) and answers its box. */
export function drawCard(ctx: Ctx, spec: CardSpec): { x: number; y: number; w: number; h: number } {
  if (!spec.rows.length) return { x: spec.x, y: spec.top, w: 0, h: 0 };
  const { palette } = ctx;
  const main = Math.max(...spec.rows.map((r) => r.em));
  const panel = palette.panel;
  const padY = panel ? 0.5 * main : 0;
  const padX = panel ? 0.7 * main : 0;
  const iconGap = spec.icon ? 0.55 * main : 0;
  const heights = spec.rows.map((r) => leading(r.text, r.em, spec.rows.length > 1) + (r.before ?? 0) * r.em);
  const textHeight = heights.reduce((a, b) => a + b, 0);
  const inner = Math.max(textHeight, spec.icon ?? 0);
  const textWidth = Math.max(...spec.rows.map((r) => rowWidth(ctx, r)));
  const w = textWidth + 2 * padX + (spec.icon ?? 0) + iconGap;
  const h = inner + 2 * padY;
  const x = spec.centre ? spec.x - w / 2 : spec.x;
  const { kind, start, end, entrance } = spec;
  const rotate = spec.angle ? { angle: spec.angle, x: x + w / 2, y: spec.top + h / 2 } : undefined;
  const radius = Math.min(h / 2, 0.42 * main);
  // The panel as opaque as the picture behind asks; bare type gets a soft scrim where it asks for one.
  const box = { x, y: spec.top, w, h };
  const read = panel
    ? readable(spec.rows, ctx.behind(box, start, end), { colour: panel.colour, least: panel.opacity, most: 1 }, inkOn(panel.colour))
    : { opacity: 0, inks: onPicture(ctx, { kind, start, end, entrance, rotate }, box, main, spec.rows) };
  if (panel) {
    if (panel.shadow) {
      add(ctx, {
        kind,
        layer: 1,
        start,
        end,
        x,
        y: spec.top + 0.14 * main,
        an: 7,
        drawing: true,
        tags: `${fill('#000000', 0.28)}\\blur${r1(0.3 * main)}`,
        body: roundedRect(w, h, radius),
        entrance,
        rotate,
      });
    }
    add(ctx, {
      kind,
      layer: 2,
      start,
      end,
      x,
      y: spec.top,
      an: 7,
      drawing: true,
      tags: fill(panel.colour, read.opacity),
      body: roundedRect(w, h, radius),
      entrance,
      rotate,
    });
  }
  if (spec.icon) {
    const d = spec.icon;
    const onSticker = ctx.surface === 'sticker';
    // A disc and the check mark over it.
    const parts = [
      { body: circle(d), colour: onSticker ? palette.ink : ctx.accent },
      { body: checkMark(d), colour: onSticker ? ctx.accent : inkOn(ctx.accent) },
    ];
    for (const [i, { body, colour }] of parts.entries()) {
      add(ctx, {
        kind,
        layer: 3 + i,
        start,
        end,
        x: x + padX,
        y: spec.top + h / 2 - d / 2,
        an: 7,
        drawing: true,
        tags: fill(colour),
        body,
        entrance,
        rotate,
      });
    }
  }
  const textX = x + padX + (spec.icon ?? 0) + iconGap;
  let y = spec.top + padY + (inner - textHeight) / 2;
  spec.rows.forEach((row, i) => {
    const height = heights[i] as number;
    const middle = y + (row.before ?? 0) * row.em + (height - (row.before ?? 0) * row.em) / 2;
    y += height;
    const { before: _, ...type } = row;
    textLine(ctx, {
      ...type,
      ...read.inks[i],
      kind,
      layer: 4,
      start,
      end,
      x: spec.centre && !spec.icon ? x + w / 2 : textX,
      y: middle,
      an: spec.centre && !spec.icon ? 5 : 4,
      glow: palette.glow ? 0.45 : undefined,
      entrance,
      rotate,
    });
  });
  standsAt(ctx, start, end, { x, y: spec.top, w, h });
  return { x, y: spec.top, w, h };
}

/** The most a scrim darkens (or lightens) the picture: enough for white type on white, and still a veil. */
const SCRIM_MOST = 0.85;
/** How far a scrim's edge stands past its type, and how soft it is, in ems of the type. */
const SCRIM_PAD = 0.8;
const SCRIM_BLUR = 0.4;
/** The ems a scrim is measured in: its type's, but no larger than this share of the frame's short side. */
const SCRIM_EM = 0.045;
const scrimEm = (L: Layout, em: number) => Math.min(em, SCRIM_EM * L.u);
/** How far past type of `em` a scrim's shade shows (it fades out some two blurs past its edge). */
const scrimReach = (L: Layout, em: number): number => (SCRIM_PAD + 2 * SCRIM_BLUR) * scrimEm(L, em);

/**
 * How far the scrim `probe` holds (drawn there under type in `box`, its largest letters `em`) would reach right of
 * the side buttons: what a centred block of type gives up on each side to keep its scrim whole. 0 without a scrim.
 */
export function scrimOver(probe: Ctx, box: { x: number; w: number }, em: number): number {
  if (!probe.events.some((e) => e.layer === 0)) return 0;
  return Math.max(0, box.x + box.w + scrimReach(probe.layout, em) - probe.layout.right);
}

/**
 * The inks of type standing straight on the picture in `box` (its largest letters `em`) as they read there, and
 * under them, where the picture asks for one, a soft scrim: a rounded panel reaching past the type and blurred, so
 * it reads as shade rather than a box, as opaque as needed and no more (none on a dark picture under light type).
 */
export function onPicture(
  ctx: Ctx,
  at: Pick<Element, 'kind' | 'start' | 'end' | 'entrance' | 'rotate'>,
  box: { x: number; y: number; w: number; h: number },
  em: number,
  inks: Ink[],
): Ink[] {
  // No type, no scrim.
  if (!(box.w > 0 && box.h > 0) || !inks.length) return inks;
  // Its colour is the main ink's opposite: the first ink is the card's main type.
  const colour = scrimFor((inks[0] as Ink).colour);
  const read = readable(inks, ctx.behind(box, at.start, at.end), { colour, least: 0, most: SCRIM_MOST }, inkOn(colour));
  if (read.opacity > 0) {
    const { layout: L } = ctx;
    const [pad, blur, reach] = [SCRIM_PAD * scrimEm(L, em), SCRIM_BLUR * scrimEm(L, em), scrimReach(L, em)];
    // Where its shade would cross the cards' zone (under the top bar, left of the side buttons, over the captions)
    // it is cut there, as the type it backs keeps in that zone.
    const cut =
      box.y - reach < L.top || box.x + box.w + reach > L.right || box.y + box.h + reach > L.overCaptions
        ? `\\clip(0,${r1(L.top)},${r1(L.right)},${r1(L.overCaptions)})`
        : '';
    // Under every band and panel (the sale ticker's among them): it shades the picture only.
    add(ctx, {
      ...at,
      layer: 0,
      x: box.x - pad,
      y: box.y - pad,
      an: 7,
      drawing: true,
      tags: `${fill(colour, read.opacity)}\\blur${r1(blur)}${cut}`,
      body: roundedRect(box.w + 2 * pad, box.h + 2 * pad, pad),
    });
  }
  return read.inks;
}

/** A round badge with the discount ("-20%"), tilted, popping in after its card. */
export function discountBadge(
  ctx: Ctx,
  kind: CardKind,
  at: { x: number; y: number },
  d: number,
  percent: number,
  time: { start: number; end: number },
): void {
  const { fill: colour, ink } = ctx.palette.badge;
  const entrance: Entrance = { scaleFrom: 40, overshoot: 112, duration: 320, fadeIn: 80, fadeOut: 160 };
  const rotate = { angle: 12, x: at.x, y: at.y };
  standsAt(ctx, time.start, time.end, { x: at.x - d / 2, y: at.y - d / 2, w: d, h: d });
  add(ctx, { kind, layer: 5, ...time, x: at.x, y: at.y, an: 5, drawing: true, tags: fill(colour), body: circle(d), entrance, rotate });
  const em = d * 0.27;
  add(ctx, {
    kind,
    layer: 6,
    ...time,
    x: at.x,
    y: inkMiddle(at.y, em),
    an: 5,
    tags: `\\fs${r1(em / ctx.emPerSize)}\\fsp0${fill(ink)}`,
    body: `-${percent}%`,
    entrance,
    rotate,
  });
}
