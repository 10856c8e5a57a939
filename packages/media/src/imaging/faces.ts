/**
 * Whether a picture can be a presenter (decision "Presenter portraits"): one clear face, looking at the camera.
 * Found by face-api's SSD MobileNet detector and its small 68-point landmark model, whose weights ship inside the
 * npm package `@vladmandic/face-api`, run on TensorFlow.js's WebAssembly backend (its .wasm files are inside
 * `@tensorflow/tfjs-backend-wasm`): nothing is downloaded, nothing native is built. The models are loaded once
 * per process, on first use.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as FaceApi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import sharp from 'sharp';

/** Why a picture cannot be a presenter. */
export type PortraitProblem = 'noFace' | 'severalFaces' | 'faceTooSmall' | 'notFacingCamera';

/** A face found: how sure the detector is, and its box in shares of the picture's width and height. */
export interface FoundFace {
  score: number;
  box: { x: number; y: number; w: number; h: number };
  /** Where the nose sits between the eyes, 0 (at the left eye) to 1 (at the right); a face turned away is off 0.5. */
  turn: number;
}

export interface PortraitCheck {
  faces: FoundFace[];
  problem: PortraitProblem | null;
}

/** The side the picture is looked at: the detector's own input is 512 px; faces of a portrait are far larger. */
const SIDE = 640;
/** A face the detector is less sure of than this is not counted. */
const MIN_SCORE = 0.5;
/** A face this much smaller than the main one (by area) is someone in the background, not a second presenter. */
const BACKGROUND_FACE = 0.25;
/** The face's height, as a share of the picture's: smaller, a lip-sync model has too few pixels to move. */
const MIN_FACE_HEIGHT = 0.12;
/** How far the nose may sit off the middle between the eyes (see FoundFace.turn) and the face still face the camera. */
const MAX_TURN = 0.2;

type Api = typeof FaceApi;
let loaded: Promise<Api> | undefined;

/** face-api's Node build for WebAssembly, with its models read from the package's own folder. */
function faceApi(): Promise<Api> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const api = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as Api;
    // The build's own declarations leave the backend calls out of its `tf`: they are TensorFlow.js's.
    const tf = api.tf as unknown as { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };
    await tf.setBackend('wasm');
    await tf.ready();
    const models = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await api.nets.ssdMobilenetv1.loadFromDisk(models);
    await api.nets.faceLandmark68TinyNet.loadFromDisk(models);
    return api;
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

const centre = (points: { x: number; y: number }[]) => ({
  x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
  y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
});

/** The faces in the picture `file`, surest first. */
export async function findFaces(file: string): Promise<FoundFace[]> {
  const api = await faceApi();
  const { data, info } = await sharp(file, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = api.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3]);
  try {
    const found = await api
      .detectAllFaces(input as unknown as FaceApi.TNetInput, new api.SsdMobilenetv1Options({ minConfidence: MIN_SCORE }))
      .withFaceLandmarks(true);
    return found
      .map(({ detection, landmarks }) => {
        const left = centre(landmarks.getLeftEye());
        const right = centre(landmarks.getRightEye());
        const nose = landmarks.getNose()[3] ?? centre(landmarks.getNose());
        const span = right.x - left.x;
        const { box } = detection;
        return {
          score: detection.score,
          box: { x: box.x / info.width, y: box.y / info.height, w: box.width / info.width, h: box.height / info.height },
          turn: span > 0 ? (nose.x - left.x) / span : 0,
        };
      })
      .sort((a, b) => b.score - a.score);
  } finally {
    input.dispose();
  }
}

/** Whether the picture `file` shows one clear face looking at the camera, and if not, why. */
export async function checkPortrait(file: string): Promise<PortraitCheck> {
  const faces = await findFaces(file);
  const main = [...faces].sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h)[0];
  if (!main) return { faces, problem: 'noFace' };
  const area = (face: FoundFace) => face.box.w * face.box.h;
  if (faces.some((face) => face !== main && area(face) >= area(main) * BACKGROUND_FACE)) return { faces, problem: 'severalFaces' };
  if (main.box.h < MIN_FACE_HEIGHT) return { faces, problem: 'faceTooSmall' };
  if (Math.abs(main.turn - 0.5) > MAX_TURN) return { faces, problem: 'notFacingCamera' };
  return { faces, problem: null };
}

/** The face box grows by this share of its height below (the chin, a moving jaw) and a little on the other sides. */
const FACE_MARGIN = { below: 0.25, around: 0.08 };

/**
 * What of a frame the captions keep off around a face whose box (shares of the frame) is `face`: the face with
 * room for the chin and a moving jaw, within the frame.
 */
export function aroundFace(face: { x: number; y: number; w: number; h: number }): { x: number; y: number; w: number; h: number } {
  const x = Math.max(0, face.x - face.w * FACE_MARGIN.around);
  const y = Math.max(0, face.y - face.h * FACE_MARGIN.around);
  const w = face.w * (1 + 2 * FACE_MARGIN.around);
  const h = face.h * (1 + FACE_MARGIN.around + FACE_MARGIN.below);
  return { x, y, w: Math.min(w, 1 - x), h: Math.min(h, 1 - y) };
}
