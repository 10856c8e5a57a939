/**
 * The camera moves a prompt asks of image → video, in English, Simplified Chinese and Brazilian Portuguese: a small
 * vocabulary (zoom in/out, pan, tilt, dolly, orbit, parallax, slow/fast), several moves in the order written ("zoom
 * in then pan left", "先推近再向左平移", "zoom para dentro e depois panorâmica para a esquerda"). Words it does not
 * know are ignored; a prompt with no motion word answers no moves, and the caller chooses by content. Decision
 * "Prompted camera moves". In the contract, as the rule both sides read: the media engine makes these moves, and
 * the web app says before paying whether a prompt names any.
 */

export type CameraMoveKind =
  | 'zoom-in'
  | 'zoom-out'
  | 'pan-left'
  | 'pan-right'
  | 'pan-up'
  | 'pan-down'
  | 'dolly-in'
  | 'dolly-out'
  | 'orbit-left'
  | 'orbit-right'
  | 'parallax';

export type CameraSpeed = 'slow' | 'normal' | 'fast';

export interface CameraMove {
  kind: CameraMoveKind;
  speed: CameraSpeed;
}

/** At most this many moves in one clip: more would each be too short to read. */
export const MAX_MOVES = 4;

type Direction = 'left' | 'right' | 'up' | 'down' | 'in' | 'out';
type Family = 'zoom' | 'pan' | 'tilt' | 'dolly' | 'orbit' | 'parallax';

/** A word naming a family of moves; its direction is its own (`direction`) or the nearest direction word. */
interface Cue {
  re: RegExp;
  family: Family;
  direction?: Direction;
}

const CUES: Cue[] = [
  // English.
  { re: /\b(?:push(?:es|ing)?[\s-]*in|close[\s-]*up|move[sd]? (?:in|closer))\b/g, family: 'zoom', direction: 'in' },
  { re: /\b(?:pull(?:s|ing)?[\s-]*(?:out|back)|widen(?:s|ing)?)\b/g, family: 'zoom', direction: 'out' },
  { re: /\bzoom(?:s|ing)?\b/g, family: 'zoom' },
  { re: /\bpan(?:s|ning|ned)?\b/g, family: 'pan' },
  // "Move (the camera) left", "slide right": a pan only with its direction, since "moves" alone is no camera word.
  {
    re: /\b(?:mov(?:e|es|ing)|slid(?:e|es|ing)|truck(?:s|ing)?)(?= (?:the camera |it )?(?:to the |towards the )?(?:left|right|up|down)\b)/g,
    family: 'pan',
  },
  { re: /\btilt(?:s|ing|ed)?\b/g, family: 'tilt' },
  { re: /\b(?:dolly|dollies|track(?:s|ing)?)\b/g, family: 'dolly' },
  { re: /\b(?:orbit(?:s|ing)?|arc(?:s|ing)?|circl(?:e|es|ing) around|rotat(?:e|es|ing) around)\b/g, family: 'orbit' },
  { re: /\b(?:parallax|2\.5d|3d|depth)\b/g, family: 'parallax' },
  // Chinese: the verb carries the direction (推近 push in, 拉远 pull out; 左摇 pan left, 上摇 tilt up).
  { re: /推近|推进|拉近|放大|推镜|特写/g, family: 'zoom', direction: 'in' },
  { re: /拉远|缩小|拉开|后拉/g, family: 'zoom', direction: 'out' },
  { re: /变焦|缩放/g, family: 'zoom' },
  // "左移"/"右移" (move left/right) are pans as "向左移" is; "向上"/"往下" on their own turn the camera up or down.
  { re: /平移|横移|摇镜|摇移|[左右]摇|(?:向|往|朝)?[左右]移/g, family: 'pan' },
  { re: /[上下]摇|倾斜|俯仰|(?:向|往|朝)[上下](?:移动|移|摇)?|[上下]移/g, family: 'tilt' },
  { re: /(?:轨道|推轨|移动)(?:推进|前进|向前)|前推/g, family: 'dolly', direction: 'in' },
  { re: /(?:轨道|推轨|移动)(?:后退|向后)|后退/g, family: 'dolly', direction: 'out' },
  { re: /环绕|绕拍|旋转|围绕/g, family: 'orbit' },
  { re: /视差|立体|景深|纵深/g, family: 'parallax' },
  // Portuguese.
  { re: /\baproxim(?:a|ar|e|ando|a[cç][aã]o)\b/g, family: 'zoom', direction: 'in' },
  { re: /\bafast(?:a|ar|e|ando|amento)\b/g, family: 'zoom', direction: 'out' },
  { re: /\bpanor[aâ]mica\b|\bpanoramizar\b/g, family: 'pan' },
  { re: /\bmov(?:e|er|a|endo)(?=(?: a c[aâ]mera)? para (?:a |o )?(?:esquerda|direita|cima|baixo)\b)/g, family: 'pan' },
  { re: /\binclina[cç][aã]o\b|\binclin(?:a|ar|e|ando)\b/g, family: 'tilt' },
  { re: /\b(?:travelling|carrinho)\b/g, family: 'dolly' },
  { re: /[oó]rbita\b|\borbitar\b|\bgir(?:a|ar|ando) em (?:torno|volta)\b|\bao redor\b/g, family: 'orbit' },
  { re: /\bparalaxe\b|\bprofundidade\b/g, family: 'parallax' },
];

const DIRECTIONS: Array<[RegExp, Direction]> = [
  [/\bleft(?:ward)?\b|\besquerd[ao]\b|左/g, 'left'],
  [/\bright(?:ward)?\b|\bdireit[ao]\b|右/g, 'right'],
  [/\bup(?:ward)?\b|\bpara cima\b|上/g, 'up'],
  [/\bdown(?:ward)?\b|\bpara baixo\b|下/g, 'down'],
  [/\bin(?:ward)?\b|\bforward\b|\bcloser\b|\bpara dentro\b|\bpara frente\b|\bde aproxima[cç][aã]o\b|前|近/g, 'in'],
  [/\bout(?:ward)?\b|\bback(?:ward)?\b|\baway\b|\bpara fora\b|\bpara tr[aá]s\b|\bde afastamento\b|后|远/g, 'out'],
];

const SLOW =
  /\bslow(?:ly|er)?\b|\bgentl[ey]\b|\bsubtle\b|\bgradual(?:ly)?\b|\blent[oa]\b|\blentamente\b|\bdevagar\b|\bsuave(?:mente)?\b|慢|缓|轻柔|平缓/g;
const FAST = /\bfast(?:er)?\b|\bquick(?:ly)?\b|\brapid(?:ly)?\b|\bswift(?:ly)?\b|\br[aá]pid[oa]\b|\brapidamente\b|\bdepressa\b|快|迅速|急/g;

/** Where one move ends and the next begins: "then", "and", "depois", "然后", punctuation. */
const CLAUSE =
  /[,;!?，。；！？、\n]|\.(?!\d)|\b(?:and then|then|after that|afterwards|followed by|and|e ent[aã]o|ent[aã]o|e depois|depois|em seguida|seguid[oa] de|e)\b|然后|接着|随后|之后|再|并且|并|和|先/g;

/** Each family's default direction, when the clause names none. */
const DEFAULT: Record<Family, Direction> = { zoom: 'in', pan: 'right', tilt: 'up', dolly: 'in', orbit: 'right', parallax: 'right' };

function kindOf(family: Family, direction: Direction): CameraMoveKind {
  switch (family) {
    case 'zoom':
      return direction === 'out' ? 'zoom-out' : 'zoom-in';
    case 'dolly':
      return direction === 'out' ? 'dolly-out' : 'dolly-in';
    case 'orbit':
      return direction === 'left' ? 'orbit-left' : 'orbit-right';
    case 'parallax':
      return 'parallax';
    case 'tilt':
      // A tilt turns the camera up or down: on a still, the window travels up or down it.
      return direction === 'down' ? 'pan-down' : 'pan-up';
    case 'pan':
      return direction === 'left' || direction === 'up' || direction === 'down' ? `pan-${direction}` : 'pan-right';
  }
}

/** The directions that make sense for a family (a pan has no "in"; a zoom no "left"). */
const FITS: Record<Family, Direction[]> = {
  zoom: ['in', 'out'],
  dolly: ['in', 'out'],
  pan: ['left', 'right', 'up', 'down'],
  tilt: ['up', 'down'],
  orbit: ['left', 'right'],
  parallax: [],
};

function matches(re: RegExp, text: string): Array<{ at: number; end: number }> {
  return [...text.matchAll(re)].map((m) => ({ at: m.index, end: m.index + m[0].length }));
}

function speedOf(text: string): CameraSpeed | undefined {
  const slow = matches(SLOW, text)[0]?.at ?? Number.POSITIVE_INFINITY;
  const fast = matches(FAST, text)[0]?.at ?? Number.POSITIVE_INFINITY;
  if (slow === fast) return undefined;
  return slow < fast ? 'slow' : 'fast';
}

/** The moves of one clause, in the order written: each cue with its direction (its own or the nearest fitting word). */
function clauseMoves(clause: string): Array<{ at: number; kind: CameraMoveKind }> {
  const found = CUES.flatMap((cue) => matches(cue.re, clause).map((m) => ({ ...m, cue })));
  // A word inside a longer cue already taken ("zoom" in "zoom in" is one cue; "推近" holds "近") counts once.
  found.sort((a, b) => a.at - b.at || b.end - a.end);
  const cues: typeof found = [];
  for (const f of found) if (!cues.some((c) => f.at < c.end && f.end > c.at)) cues.push(f);
  const directions = DIRECTIONS.flatMap(([re, direction]) =>
    matches(re, clause)
      .filter((m) => !cues.some((c) => c.cue.direction && m.at >= c.at && m.end <= c.end))
      .map((m) => ({ ...m, direction })),
  );
  return cues.map(({ at, end, cue }) => {
    const fitting = directions.filter((d) => FITS[cue.family].includes(d.direction));
    const distance = (d: { at: number; end: number }) => (d.at >= end ? d.at - end : at - d.end);
    const nearest = fitting.sort((a, b) => distance(a) - distance(b))[0];
    return { at, kind: kindOf(cue.family, cue.direction ?? nearest?.direction ?? DEFAULT[cue.family]) };
  });
}

/**
 * The moves a prompt asks for, in order, each with its speed: its clause's own "slow"/"fast", else the speed of
 * the clause before ("slowly zoom in then pan left" is slow throughout), else normal. Empty when the prompt names
 * no move.
 */
export function cameraMovesOf(prompt: string | undefined): CameraMove[] {
  if (!prompt) return [];
  const text = prompt.toLowerCase().normalize('NFC');
  let speed: CameraSpeed = 'normal';
  const bounds = [0, ...matches(CLAUSE, text).flatMap((m) => [m.at, m.end]), text.length];
  const moves: CameraMove[] = [];
  for (let i = 0; i + 1 < bounds.length; i += 2) {
    const clause = text.slice(bounds[i], bounds[i + 1]);
    speed = speedOf(clause) ?? speed;
    for (const { kind } of clauseMoves(clause)) {
      // The same move twice in a row ("zoom in, zoom in closer") is one move.
      if (moves.at(-1)?.kind !== kind) moves.push({ kind, speed });
    }
  }
  return moves.slice(0, MAX_MOVES);
}
