/**
 * Which provider does each generation capability (design §6), from the environment:
 *
 * | variable                          | default                      | meaning                                              |
 * | --------------------------------- | ---------------------------- | ---------------------------------------------------- |
 * | FAL_KEY                           | (unset)                      | fal.ai API key (sent as `Authorization: Key …`)      |
 * | FAL_BASE_URL                      | https://queue.fal.run        | fal.ai's queue API                                   |
 * | REPLICATE_API_TOKEN               | (unset)                      | Replicate API token (`Authorization: Bearer …`)      |
 * | REPLICATE_BASE_URL                | https://api.replicate.com    | Replicate's API                                      |
 * | OPENAI_IMAGES_API_KEY             | (unset)                      | OpenAI (or compatible) images API key                |
 * | OPENAI_IMAGES_BASE_URL            | https://api.openai.com/v1    | the images API (`/images/generations`, `/images/edits`) |
 * | PROVIDER_<CAPABILITY>             | sandbox for text to image/   | `fal:<model>`, `replicate:<owner>/<name>[:<version>]`, |
 * |                                   | video, image to image and    | `openai:<model>`, `sandbox` (not in production) or   |
 * |                                   | try-on outside production,   | `none` (no vendor: the local engine where it serves  |
 * |                                   | else none                    | the capability, else the tool is unavailable)        |
 * | PROVIDER_TEXT_TO_VIDEO_PRO,       | the PROVIDER_…_VIDEO model   | the model of the pro tier (same vendor)              |
 * | PROVIDER_IMAGE_TO_VIDEO_PRO       |                              |                                                      |
 * | PROVIDER_TIMEOUT_SECONDS          | 900                          | how long one remote generation may take, queue included |
 * | PROVIDER_REQUEST_TIMEOUT_SECONDS  | 60                           | one HTTP request to a vendor (submit, status, result) |
 * | PROVIDER_DOWNLOAD_TIMEOUT_SECONDS | 120                          | downloading one output the vendor made               |
 * | PROVIDER_POLL_MS                  | 2000                         | how often a queued generation's status is asked      |
 *
 * <CAPABILITY> is TEXT_TO_IMAGE, IMAGE_TO_IMAGE, TEXT_TO_VIDEO, IMAGE_TO_VIDEO, VIRTUAL_TRY_ON, REMOVE_BACKGROUND,
 * EXTEND_IMAGE or UPSCALE.
 */
import { z } from 'zod';
import type { Capability } from './provider.js';

export type Vendor = 'fal' | 'replicate' | 'openai';

/** What serves a capability: a vendor's model, the sandbox stand-ins, or nothing. */
export type ProviderChoice = { vendor: Vendor; model: string; proModel?: string | undefined } | { vendor: 'sandbox' } | { vendor: 'none' };

export interface VendorAccess {
  baseUrl: string;
  key: string;
}

export interface GenerationSettings {
  fal: VendorAccess | undefined;
  replicate: VendorAccess | undefined;
  openaiImages: VendorAccess | undefined;
  /** Every capability this file knows; the local engine's ones are `none` unless a vendor is chosen. */
  choices: Record<RemoteCapability, ProviderChoice>;
  timeoutMs: number;
  requestTimeoutMs: number;
  downloadTimeoutMs: number;
  pollMs: number;
}

/** The capabilities a remote vendor can serve (replacing a background is the local engine's alone). */
export type RemoteCapability = Exclude<Capability, 'replaceBackground'>;

const ENV_NAMES: Record<RemoteCapability, string> = {
  textToImage: 'PROVIDER_TEXT_TO_IMAGE',
  imageToImage: 'PROVIDER_IMAGE_TO_IMAGE',
  textToVideo: 'PROVIDER_TEXT_TO_VIDEO',
  imageToVideo: 'PROVIDER_IMAGE_TO_VIDEO',
  virtualTryOn: 'PROVIDER_VIRTUAL_TRY_ON',
  removeBackground: 'PROVIDER_REMOVE_BACKGROUND',
  extendImage: 'PROVIDER_EXTEND_IMAGE',
  upscale: 'PROVIDER_UPSCALE',
};

/** Where no local model can do the job: the sandbox stands in outside production (design §6). */
const SANDBOX_CAPABILITIES: readonly RemoteCapability[] = ['textToImage', 'imageToImage', 'textToVideo', 'imageToVideo', 'virtualTryOn'];
/** What the sandbox serves when nothing is set outside production: what no local model can do (image to video is local). */
const SANDBOX_DEFAULTS: readonly RemoteCapability[] = ['textToImage', 'imageToImage', 'textToVideo', 'virtualTryOn'];

/** What each vendor's adapter can do. */
const VENDOR_CAPABILITIES: Record<Vendor, readonly RemoteCapability[]> = {
  fal: Object.keys(ENV_NAMES) as RemoteCapability[],
  replicate: ['textToImage', 'imageToImage', 'textToVideo', 'imageToVideo', 'virtualTryOn', 'removeBackground', 'upscale'],
  openai: ['textToImage', 'imageToImage'],
};

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const httpUrl = (fallback: string) =>
  optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default(fallback)).transform((v) => v.replace(/\/+$/, ''));
const seconds = (fallback: number) => z.coerce.number().int().min(1).max(86_400).default(fallback);

export const GenerationEnv = z.object({
  FAL_KEY: optional,
  FAL_BASE_URL: httpUrl('https://queue.fal.run'),
  REPLICATE_API_TOKEN: optional,
  REPLICATE_BASE_URL: httpUrl('https://api.replicate.com'),
  OPENAI_IMAGES_API_KEY: optional,
  OPENAI_IMAGES_BASE_URL: httpUrl('https://api.openai.com/v1'),
  PROVIDER_TEXT_TO_IMAGE: optional,
  PROVIDER_IMAGE_TO_IMAGE: optional,
  PROVIDER_TEXT_TO_VIDEO: optional,
  PROVIDER_IMAGE_TO_VIDEO: optional,
  PROVIDER_VIRTUAL_TRY_ON: optional,
  PROVIDER_REMOVE_BACKGROUND: optional,
  PROVIDER_EXTEND_IMAGE: optional,
  PROVIDER_UPSCALE: optional,
  PROVIDER_TEXT_TO_VIDEO_PRO: optional,
  PROVIDER_IMAGE_TO_VIDEO_PRO: optional,
  PROVIDER_TIMEOUT_SECONDS: seconds(900),
  PROVIDER_REQUEST_TIMEOUT_SECONDS: seconds(60),
  PROVIDER_DOWNLOAD_TIMEOUT_SECONDS: seconds(120),
  PROVIDER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
});
type GenerationEnv = z.infer<typeof GenerationEnv>;

/** A setting that cannot work; the message names the variable. */
export class ChoiceError extends Error {}

const MODEL = /^[A-Za-z0-9][\w.\-/:]*$/;

function parseChoice(name: string, value: string | undefined, capability: RemoteCapability, production: boolean): ProviderChoice {
  if (value === undefined) return SANDBOX_DEFAULTS.includes(capability) && !production ? { vendor: 'sandbox' } : { vendor: 'none' };
  if (value === 'none') return { vendor: 'none' };
  if (value === 'sandbox') {
    if (!SANDBOX_CAPABILITIES.includes(capability)) throw new ChoiceError(`${name}: the sandbox has no stand-in for this capability`);
    if (production) throw new ChoiceError(`${name}: the sandbox stand-ins are for development and tests, not production`);
    return { vendor: 'sandbox' };
  }
  const colon = value.indexOf(':');
  const vendor = value.slice(0, colon) as Vendor;
  const model = value.slice(colon + 1);
  if (colon < 0 || !(vendor in VENDOR_CAPABILITIES) || !MODEL.test(model)) {
    throw new ChoiceError(`${name}: must be fal:<model>, replicate:<owner>/<name>, openai:<model>, sandbox or none`);
  }
  if (!VENDOR_CAPABILITIES[vendor].includes(capability)) throw new ChoiceError(`${name}: ${vendor} cannot serve this capability here`);
  return { vendor, model };
}

const KEYS: Record<Vendor, keyof GenerationEnv> = { fal: 'FAL_KEY', replicate: 'REPLICATE_API_TOKEN', openai: 'OPENAI_IMAGES_API_KEY' };

export function generationSettings(e: GenerationEnv, production: boolean): GenerationSettings {
  const env = e as unknown as Record<string, string | undefined>;
  const choices = {} as Record<RemoteCapability, ProviderChoice>;
  for (const [capability, name] of Object.entries(ENV_NAMES) as [RemoteCapability, string][]) {
    const choice = parseChoice(name, env[name], capability, production);
    if (choice.vendor !== 'sandbox' && choice.vendor !== 'none' && !env[KEYS[choice.vendor]]) {
      throw new ChoiceError(`${KEYS[choice.vendor]}: required by ${name}`);
    }
    choices[capability] = choice;
  }
  for (const capability of ['textToVideo', 'imageToVideo'] as const) {
    const name = `${ENV_NAMES[capability]}_PRO`;
    const pro = env[name];
    if (pro === undefined) continue;
    const choice = choices[capability];
    if (choice.vendor === 'sandbox' || choice.vendor === 'none') throw new ChoiceError(`${name}: needs ${ENV_NAMES[capability]}`);
    if (!MODEL.test(pro)) throw new ChoiceError(`${name}: must be a model of ${choice.vendor}`);
    choice.proModel = pro;
  }
  const access = (key: string | undefined, baseUrl: string) => (key ? { key, baseUrl } : undefined);
  return {
    fal: access(e.FAL_KEY, e.FAL_BASE_URL),
    replicate: access(e.REPLICATE_API_TOKEN, e.REPLICATE_BASE_URL),
    openaiImages: access(e.OPENAI_IMAGES_API_KEY, e.OPENAI_IMAGES_BASE_URL),
    choices,
    timeoutMs: e.PROVIDER_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs: e.PROVIDER_REQUEST_TIMEOUT_SECONDS * 1000,
    downloadTimeoutMs: e.PROVIDER_DOWNLOAD_TIMEOUT_SECONDS * 1000,
    pollMs: e.PROVIDER_POLL_MS,
  };
}
