// Which provider does each generation capability, and how the remote vendors are reached (docs/decisions,
// "One setting per capability", "Sandbox provider", "Provider time limits"). The choices are read here, with the
// other settings, so that a setting that cannot work stops the server at start-up naming the variable.
import { GenerationCapability } from '@reelsmith/contract';
import { z } from 'zod';
import type { Capability } from '../providers/provider.js';
import { baseUrl, optional, refuse, type SettingsContext, setting } from './fields.js';

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

/** Where no local model can do the job: the sandbox stands in outside production. */
const SANDBOX_CAPABILITIES: readonly RemoteCapability[] = [
  'textToImage',
  'imageToImage',
  'textToVideo',
  'imageToVideo',
  'virtualTryOn',
  'talkingAvatar',
  'productHolding',
];
/** What the sandbox serves when nothing is set outside production: what no local model can do (image to video is local). */
const SANDBOX_DEFAULTS: readonly RemoteCapability[] = [
  'textToImage',
  'imageToImage',
  'textToVideo',
  'virtualTryOn',
  'talkingAvatar',
  'productHolding',
];

/** Every capability the contract names but the local engine's own. */
const ALL: readonly RemoteCapability[] = GenerationCapability.options.filter(
  (capability): capability is RemoteCapability => capability !== 'replaceBackground',
);

/** What each vendor's adapter can do. */
const VENDOR_CAPABILITIES: Record<Vendor, readonly RemoteCapability[]> = {
  fal: ALL,
  replicate: ALL,
  openai: ['textToImage', 'imageToImage'],
};

/** PROVIDER_TEXT_TO_IMAGE for textToImage. */
const variableOf = (capability: RemoteCapability) => `PROVIDER_${capability.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

const SYNTAX: Record<Vendor, string> = {
  fal: '`fal:<model>`',
  replicate: '`replicate:<owner>/<name>[:<version>]`',
  openai: '`openai:<model>`',
};

/** A capability's PROVIDER_ variable, documented from the rules above so that the docs follow them. */
function choice(capability: RemoteCapability, what: string) {
  const vendors = (Object.keys(SYNTAX) as Vendor[]).filter((v) => VENDOR_CAPABILITIES[v].includes(capability)).map((v) => SYNTAX[v]);
  if (SANDBOX_CAPABILITIES.includes(capability)) vendors.push('`sandbox` (watermarked stand-ins, never in production)');
  const choices = `${vendors.join(', ')} or \`none\``;
  return SANDBOX_DEFAULTS.includes(capability)
    ? setting(
        optional,
        `who ${what}: ${choices} (the tool answers that it is unavailable, before charging)`,
        '`sandbox` outside production, else `none`',
      )
    : setting(optional, `who ${what} instead of the local engine: ${choices}`, '`none`: the local engine');
}

const seconds = (fallback: number) => z.coerce.number().int().min(1).max(86_400).default(fallback);

export const GenerationEnv = z.object({
  FAL_KEY: setting(optional, "fal.ai's API key (`Authorization: Key …`)", 'unset'),
  FAL_BASE_URL: setting(baseUrl('https://queue.fal.run'), "fal.ai's queue API"),
  REPLICATE_API_TOKEN: setting(optional, "Replicate's API token (`Authorization: Bearer …`)", 'unset'),
  REPLICATE_BASE_URL: setting(baseUrl('https://api.replicate.com'), "Replicate's predictions API"),
  OPENAI_IMAGES_API_KEY: setting(optional, 'the key of an OpenAI-compatible images API', 'unset'),
  OPENAI_IMAGES_BASE_URL: setting(baseUrl('https://api.openai.com/v1'), 'an OpenAI-compatible images API (generations and edits)'),
  PROVIDER_TEXT_TO_IMAGE: choice('textToImage', 'makes images from a prompt'),
  PROVIDER_TEXT_TO_IMAGE_PRO: setting(optional, 'the "Detailed" text-to-image model, same vendor; unset, only "Fast" is offered', 'none'),
  PROVIDER_IMAGE_TO_IMAGE: choice('imageToImage', 'edits images from a prompt'),
  PROVIDER_IMAGE_TO_IMAGE_PRO: setting(optional, 'the "Detailed" image-to-image model, same vendor; unset, only "Fast" is offered', 'none'),
  PROVIDER_TEXT_TO_VIDEO: choice('textToVideo', 'makes videos from a prompt'),
  PROVIDER_TEXT_TO_VIDEO_PRO: setting(optional, "the pro tier's text-to-video model, same vendor", 'the base model'),
  PROVIDER_IMAGE_TO_VIDEO: choice('imageToVideo', 'animates an image'),
  PROVIDER_IMAGE_TO_VIDEO_PRO: setting(optional, "the pro tier's image-to-video model, same vendor", 'the base model'),
  PROVIDER_VIRTUAL_TRY_ON: choice('virtualTryOn', 'dresses a model in a garment'),
  PROVIDER_REMOVE_BACKGROUND: choice('removeBackground', 'removes backgrounds (replacing one is always local)'),
  PROVIDER_EXTEND_IMAGE: choice('extendImage', 'extends images'),
  PROVIDER_UPSCALE: choice('upscale', 'upscales images'),
  PROVIDER_TALKING_AVATAR: choice('talkingAvatar', 'makes a presenter’s picture speak a voice track, lip-synced'),
  PROVIDER_PRODUCT_HOLDING: choice('productHolding', 'puts the product in a presenter’s hands, their face and pose kept'),
  PROVIDER_TIMEOUT_SECONDS: setting(seconds(900), 'how long one remote generation may take, queue included'),
  PROVIDER_REQUEST_TIMEOUT_SECONDS: setting(seconds(60), 'one HTTP request to a vendor (submit, status, result)'),
  PROVIDER_DOWNLOAD_TIMEOUT_SECONDS: setting(seconds(120), 'downloading one output the vendor made'),
  PROVIDER_POLL_MS: setting(
    z.coerce.number().int().min(10).max(60_000).default(2000),
    "how often a queued generation's status is asked, in ms",
  ),
});
type GenerationEnv = z.output<typeof GenerationEnv>;

const MODEL = /^[A-Za-z0-9][\w.\-/:]*$/;

function parseChoice(name: string, value: string | undefined, capability: RemoteCapability, production: boolean): ProviderChoice {
  if (value === undefined) return SANDBOX_DEFAULTS.includes(capability) && !production ? { vendor: 'sandbox' } : { vendor: 'none' };
  if (value === 'none') return { vendor: 'none' };
  if (value === 'sandbox') {
    if (!SANDBOX_CAPABILITIES.includes(capability)) refuse(`${name}: the sandbox has no stand-in for this capability`);
    if (production) refuse(`${name}: the sandbox stand-ins are for development and tests, not production`);
    return { vendor: 'sandbox' };
  }
  const colon = value.indexOf(':');
  const vendor = value.slice(0, colon) as Vendor;
  const model = value.slice(colon + 1);
  if (colon < 0 || !(vendor in VENDOR_CAPABILITIES) || !MODEL.test(model)) {
    refuse(`${name}: must be fal:<model>, replicate:<owner>/<name>, openai:<model>, sandbox or none`);
  }
  if (!VENDOR_CAPABILITIES[vendor].includes(capability)) refuse(`${name}: ${vendor} cannot serve this capability here`);
  return { vendor, model };
}

const KEYS: Record<Vendor, keyof GenerationEnv> = { fal: 'FAL_KEY', replicate: 'REPLICATE_API_TOKEN', openai: 'OPENAI_IMAGES_API_KEY' };

export function generationSettings(e: GenerationEnv, { production }: SettingsContext): { generation: GenerationSettings } {
  const env = e as unknown as Record<string, string | undefined>;
  const choices = {} as Record<RemoteCapability, ProviderChoice>;
  for (const capability of ALL) {
    const name = variableOf(capability);
    const choice = parseChoice(name, env[name], capability, production);
    if (choice.vendor !== 'sandbox' && choice.vendor !== 'none' && !env[KEYS[choice.vendor]]) {
      refuse(`${KEYS[choice.vendor]}: required by ${name}`);
    }
    choices[capability] = choice;
  }
  for (const capability of ['textToVideo', 'imageToVideo', 'textToImage', 'imageToImage'] as const) {
    const name = `${variableOf(capability)}_PRO`;
    const pro = env[name];
    if (pro === undefined) continue;
    const choice = choices[capability];
    if (choice.vendor === 'sandbox' || choice.vendor === 'none') refuse(`${name}: needs ${variableOf(capability)}`);
    if (!MODEL.test(pro)) refuse(`${name}: must be a model of ${choice.vendor}`);
    choice.proModel = pro;
  }
  const access = (key: string | undefined, baseUrl: string) => (key ? { key, baseUrl } : undefined);
  return {
    /** Which provider does each generation capability, and how remote ones are reached. */
    generation: {
      fal: access(e.FAL_KEY, e.FAL_BASE_URL),
      replicate: access(e.REPLICATE_API_TOKEN, e.REPLICATE_BASE_URL),
      openaiImages: access(e.OPENAI_IMAGES_API_KEY, e.OPENAI_IMAGES_BASE_URL),
      choices,
      timeoutMs: e.PROVIDER_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: e.PROVIDER_REQUEST_TIMEOUT_SECONDS * 1000,
      downloadTimeoutMs: e.PROVIDER_DOWNLOAD_TIMEOUT_SECONDS * 1000,
      pollMs: e.PROVIDER_POLL_MS,
    },
  };
}
