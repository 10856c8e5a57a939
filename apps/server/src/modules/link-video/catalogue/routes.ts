// The quick editor's catalogues (spec "Screens and routes" screen 3): voices, music, caption styles and templates, each
// with something to hear or see. Samples are made on this machine the first time they are asked for and kept, so the catalogue
// costs nothing until someone opens the editor. They are the product's own material, the same for every user,
// so they are served without a session (an <audio> or <img> sends no client header).
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Locale, linkVideoCaptions, linkVideoMusic, linkVideoVoices, TEMPLATE_IDS, type TemplateId } from '@reelsmith/contract';
import {
  CAPTION_PREVIEW_VERSION,
  CAPTIONS,
  captionPreview,
  MUSIC,
  MUSIC_VERSION,
  musicBed,
  runTool,
  VOICES,
  voiceSample,
} from '@reelsmith/media';
import { z } from 'zod';
import { AppError } from '../../../errors.js';
import { localeOf } from '../../../http/locale.js';
import { defineModule } from '../../../http/module.js';
import { apiBase } from '../../../settings.js';
import { cacheDirOf, mediaToolsOf } from '../../files/workDir.js';
import { cachedFile, oneAtATime } from './cachedFile.js';
import { SampleLook, templateRoutes } from './templates.js';

const SAMPLES_PATH = '/link-video/samples';
/** Long enough to hear a track's character. */
const MUSIC_SAMPLE_SECONDS = 20;

type SampleKind = 'voice' | 'music' | 'caption' | 'template';

/**
 * What a caption preview is drawn for: its sample line's language, and the previews' version (a new look gets new
 * addresses, so browsers holding the old picture for a day ask again).
 */
const CaptionLook = z.strictObject({ language: Locale.default('en'), v: z.string().max(8).optional() });
type CaptionLook = z.infer<typeof CaptionLook>;
/** The query a sample is drawn for: a template's shape and language, a caption preview's language. */
const LOOKS = { template: SampleLook, caption: CaptionLook } as const;
type Look = { template: SampleLook; caption: CaptionLook };
const SAMPLE_TYPES: Record<SampleKind, { ext: string; mime: string }> = {
  voice: { ext: 'wav', mime: 'audio/wav' },
  music: { ext: 'm4a', mime: 'audio/mp4' },
  caption: { ext: 'png', mime: 'image/png' },
  template: { ext: 'jpg', mime: 'image/jpeg' },
};

export const catalogueModule = defineModule((api, { route, ctx, signer }) => {
  const tools = mediaToolsOf(ctx.settings);
  const speaker = ctx.voice;
  const dir = cacheDirOf(ctx.settings.dataDir, 'samples');
  const sampleUrl = (kind: SampleKind, id: string, query?: Record<string, string>) =>
    `${apiBase(ctx.settings)}${SAMPLES_PATH}/${kind}/${encodeURIComponent(id)}${query ? `?${new URLSearchParams(query)}` : ''}`;
  const drawTemplate = templateRoutes(api, {
    route,
    ctx,
    signer,
    sampleUrl: (templateId, look) => sampleUrl('template', templateId, look),
  });
  // The picker asks for every style's preview at once: drawn one after another, beside the renders.
  const drawCaption = oneAtATime();

  // A template's sample is drawn in a shape and a language (its sample name), a caption's in a language, given by
  // the query.
  const makers: Record<SampleKind, (id: string, out: string, look: Partial<Look>) => Promise<unknown>> = {
    voice: (id, out) => voiceSample(id, out, tools, speaker.synthesizer()),
    music: async (id, out) => {
      const wav = `${out}.wav`;
      await musicBed(id, MUSIC_SAMPLE_SECONDS, wav, cacheDirOf(ctx.settings.dataDir, 'music'), tools);
      await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-i', wav, '-c:a', 'aac', '-b:a', '96k', '-f', 'mp4', out]);
      await rm(wav, { force: true });
    },
    caption: (id, out, { caption }) => drawCaption(() => captionPreview(id, out, { tools, language: caption?.language })),
    template: async (id, out, { template }) => {
      if (!template) throw new AppError('notFound');
      await drawTemplate(id as TemplateId, template, out);
    },
  };
  const known: Record<SampleKind, (id: string) => boolean> = {
    voice: (id) => VOICES.some((v) => v.voiceId === id),
    music: (id) => MUSIC.some((m) => m.musicId === id),
    caption: (id) => CAPTIONS.some((c) => c.captionId === id),
    template: (id) => TEMPLATE_IDS.some((templateId) => templateId === id),
  };

  /** The sample file, made now if it is the first time. */
  function sampleFile(kind: SampleKind, id: string, look: Partial<Look>): Promise<string> {
    // A voice sample is named by its engine too: switching TTS on or off must not serve the other engine's voice; a
    // caption preview and a track's audition by their version, so a new look or sound is made afresh.
    const name =
      kind === 'voice'
        ? `voice-${speaker.engine}-${id}`
        : kind === 'music'
          ? `music-${id}-v${MUSIC_VERSION}`
          : look.template
            ? `${kind}-${id}-${look.template.aspectRatio.replace(':', 'x')}-${look.template.language}`
            : look.caption
              ? `${kind}-${id}-${look.caption.language}-v${CAPTION_PREVIEW_VERSION}`
              : `${kind}-${id}`;
    return cachedFile(join(dir, `${name}.${SAMPLE_TYPES[kind].ext}`), (partial) => makers[kind](id, partial, look));
  }

  route(linkVideoVoices, ({ query }) =>
    VOICES.filter((v) => !query.language || v.language === query.language).map((v) => ({
      ...v,
      sampleUrl: sampleUrl('voice', v.voiceId),
      offline: speaker.offline,
    })),
  );
  route(linkVideoMusic, () => MUSIC.map((m) => ({ ...m, sampleUrl: sampleUrl('music', m.musicId) })));
  route(linkVideoCaptions, ({ query, req }) => {
    const language = query.language ?? localeOf(req.headers['accept-language']);
    return CAPTIONS.map((c) => ({
      ...c,
      previewUrl: sampleUrl('caption', c.captionId, { language, v: String(CAPTION_PREVIEW_VERSION) }),
    }));
  });

  api.get<{ Params: { kind: string; id: string } }>(
    `${SAMPLES_PATH}/:kind/:id`,
    { config: { skipClientChecks: true } },
    async (req, reply) => {
      const kind = req.params.kind as SampleKind;
      if (!(kind in SAMPLE_TYPES) || !known[kind](req.params.id)) throw new AppError('notFound');
      // Only a template's and a caption's sample have a query, and then exactly their look.
      const look = kind === 'template' || kind === 'caption' ? LOOKS[kind].safeParse(req.query ?? {}) : undefined;
      if (look && !look.success) throw new AppError('notFound');
      const file = await sampleFile(kind, req.params.id, look ? { [kind]: look.data } : {});
      return reply.type(SAMPLE_TYPES[kind].mime).header('cache-control', 'public, max-age=86400').send(createReadStream(file));
    },
  );
});
