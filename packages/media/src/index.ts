export {
  type AdPlan,
  type AdPresenter,
  type AdStage,
  AI_METADATA,
  type ComposedAd,
  type ComposeOptions,
  composeAd,
  learnPicture,
  presenterSpans,
} from './ad/composeAd.js';
export {
  type ComposedTalking,
  composeTalking,
  type TalkingOptions,
  type TalkingPlan,
  type TalkingStage,
  talkingLines,
} from './ad/composeTalking.js';
// The local media engine: pure functions from files to files and facts about them. No database, no HTTP.
export { BRAND_FONT_FILES, type BrandFont, type BrandFontFileId, brandFont } from './brand/fonts.js';
export { DEFAULT_BRAND } from './brand/look.js';
export { type AssOptions, type AvoidBox, buildAss, type CaptionAvoid, type CaptionSegment } from './captions/ass.js';
export { CAPTION_FONT, captionFontsDir } from './captions/font.js';
export { breakLines, textWidth } from './captions/lines.js';
export { CAPTION_PREVIEW_VERSION, type CaptionPreviewOptions, captionPreview } from './captions/preview.js';
export {
  CAPTION_STYLES,
  CAPTIONS,
  type CaptionLook,
  type CaptionStyleDefinition,
  type CaptionStyleInfo,
  type CaptionTiming,
  captionStyle,
} from './captions/styles.js';
export { checkFfmpeg, type FfmpegCheck, REQUIRED_ENCODERS, REQUIRED_FILTERS } from './ffmpegCapabilities.js';
export { type ImageInfo, imageInfo, MAX_IMAGE_PIXELS, thumbnail, WORK_LIMITS } from './image.js';
export {
  BACKGROUND_SIZE,
  BACKGROUNDS,
  type BackgroundCategory,
  type BackgroundPreset,
  backgroundFile,
  backgroundPreset,
  brandBackgroundIds,
  type Stage,
  stageOfFile,
} from './imaging/backgrounds.js';
export { type ReplaceOptions, replaceBackground } from './imaging/composite.js';
export { type CutOutModel, type CutOutOptions, cutOut, heldModels, MODEL_IDLE_MS, NoSubjectError, warmCutOut } from './imaging/cutout.js';
export { type Canvas, CanvasError, canvasForRatio, checkCanvas, extendImage } from './imaging/extend.js';
export { checkPortrait, type FoundFace, findFaces, type PortraitCheck, type PortraitProblem } from './imaging/faces.js';
export {
  checkGarment,
  GARMENT_LIMITS,
  type GarmentCheck,
  type GarmentProblem,
  type GarmentType,
} from './imaging/garment.js';
export { type Grade, NEUTRAL_GRADE } from './imaging/grade.js';
export { UPSCALE_MAX_LONG_SIDE, UpscaleInputError, upscaleImage } from './imaging/upscale.js';
export { musicBeats } from './music/beats.js';
export { MUSIC_VERSION, musicBed, musicLoop, warmMusic } from './music/bed.js';
export { type Loudness, measureLoudness } from './music/loudness.js';
export { MIX_LUFS, MIX_TRUE_PEAK, type MixOptions, mixAudio } from './music/mix.js';
export { MusicSynthMissingError, soundFontFile } from './music/synth.js';
export { MUSIC, type MusicInfo } from './music/tracks.js';
export { posterFrame } from './poster.js';
export { type Probe, type ProbedStream, probe } from './probe.js';
export { cameraPath, DEPTH_MOVES } from './render/clip/cameraPath.js';
export { movesByContent } from './render/clip/depthPlanes.js';
export {
  type CameraMove,
  type CameraMoveKind,
  cameraMovesOf,
  IMAGE_VIDEO_FPS,
  type ImageToVideoOptions,
  imageToVideo,
} from './render/clip/imageToVideo.js';
export {
  cutSpeech,
  joinTalkingClips,
  type SpeechSpan,
  type TalkRequest,
  TalkTooLongError,
  talkingSpans,
} from './render/clip/talking.js';
export { drawEndCard, MAX_LOGO_PIXELS } from './render/endCard.js';
export type { HookStyle, Look, SetStyle, TransitionKind } from './render/look.js';
export { type RenderedVideo, type RenderOptions, type RenderQuality, renderVideo } from './render/render.js';
export { sceneSubject } from './render/scene/kinds.js';
export { PRESENTER_LAYOUTS, type PresenterLayout } from './render/scene/types.js';
export {
  type AspectRatio,
  frameSize,
  type Motion,
  type ProductMedia,
  planTimeline,
  type SceneRole,
  type SpeechSegment,
  type Timeline,
  type TimelineInput,
  type TimelineMedia,
  type TimelineScene,
  type VideoLength,
} from './render/timeline.js';
export { MediaToolError, type RunOptions, runTool } from './run.js';
export { type DescriptionOptions, type DescriptionProduct, descriptionScript } from './script/description.js';
export { detectLanguage, type Language, type ScriptLength } from './script/language.js';
export { shortName } from './script/name.js';
export { spokenPrice } from './script/price.js';
export { HAN_PER_SECOND, SEGMENT_PAUSE, scriptSeconds, speechSeconds, WORDS_PER_SECOND } from './script/rate.js';
export { type ScriptSegment, type ScriptVariant, splitScript } from './script/split.js';
export { FILL, type LineSource, MAX_VARIANTS, planScripts, type ScriptBrief, type ScriptLine, writeScripts } from './script/writer.js';
export { type Sniffed, sniff } from './sniff.js';
export { alignSpeech, alignWords, type Stretch, voicedStretches } from './speech/align.js';
export { SpeechEngineError, warmSpeech } from './speech/espeak.js';
export { type FittedVoice, fitVoice, MAX_PAUSE, MAX_SILENCE, MAX_SPEED_UP, VOICE_END } from './speech/fit.js';
export { LOCAL_VOICE_SOUND } from './speech/polish.js';
export { voiceSample } from './speech/sample.js';
export { type Speech, type SynthesizeOptions, type Synthesizer, synthesize } from './speech/synthesize.js';
export { type SpeakOptions, type SpokenSegment, speakScript, type VoiceTrack } from './speech/track.js';
export { defaultVoice, VOICES, type VoiceInfo } from './speech/voices.js';
export { spokenWords, spreadWords, type WordTiming } from './speech/words.js';
export {
  type AdFacts,
  type BrandLook,
  buildCards,
  buildCardsAss,
  type CardsOptions,
  cardFace,
  cardFontsDir,
  endCardArea,
  mergeAss,
  openingCardEnd,
} from './templates/cards.js';
export { TEMPLATE_IDS, TEMPLATES, type Template, type TemplateId } from './templates/catalogue.js';
export { featureLines } from './templates/features.js';
export { type ThumbnailOptions, templateThumbnail } from './templates/thumbnail.js';
export { locateTools, type MediaTools, onPath, type ToolPaths } from './tools.js';
