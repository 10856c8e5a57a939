// The music synthesiser's process (decision "SoundFont music"): spessasynth_core renders a track's MIDI with the
// SoundFont, off the server's event loop and out of its memory (the SoundFont and its decoded samples, some 300 MB
// that the allocator would not give back, go with this process when it ends). Plain JavaScript, so it runs as a
// child process under Node, tsx and Vitest alike. The SoundFont is parsed once per process; its samples are
// decoded on first use and kept for the next render.
import { readFileSync } from 'node:fs';
import { BasicMIDI, SoundBankLoader, SpessaLog, SpessaSynthProcessor, SpessaSynthSequencer } from 'spessasynth_core';

/** The synthesiser's own block: envelopes and LFOs are updated once per block (its documentation's advice). */
const BLOCK = 128;

/** What the library only warns about (a sample it could not decode plays as silence): each one fails the render. */
let warnings = [];
SpessaLog.setLogLevel(false, true, false);
SpessaLog.logFunctions.warn = (...message) => warnings.push(message.map(String).join(' '));

const soundFont = process.env.REELSMITH_SOUNDFONT;
const sampleRate = Number(process.env.REELSMITH_MUSIC_RATE);
const file = readFileSync(soundFont);
const bank = SoundBankLoader.fromArrayBuffer(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));

/** A fresh processor per render, over the one bank: every render starts from the same state, so it is repeatable. */
async function render(midiBytes) {
  warnings = [];
  const missing = [];
  const synth = new SpessaSynthProcessor(sampleRate, { eventsEnabled: false, effectsEnabled: true, maxBufferSize: BLOCK });
  synth.soundBankManager.addSoundBank(bank, 'main');
  synth.onMissingPreset = (patch) => {
    missing.push(`${patch.isGMGSDrum ? 'drum kit' : 'program'} ${patch.program} (bank ${patch.bankMSB})`);
    return undefined;
  };
  // The Vorbis decoder must be ready before the first sample is decoded, or SF3 samples decode as silence.
  await synth.processorInitialized;
  const midi = BasicMIDI.fromArrayBuffer(midiBytes);
  const sequencer = new SpessaSynthSequencer(synth);
  sequencer.loadNewSongList([midi]);
  sequencer.play();
  const length = Math.ceil(sampleRate * midi.duration);
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  // Each MIDI channel into its own pair, so its level is known: a part that made no sound fails the render.
  const channels = synth.midiChannels.length;
  const pairs = Array.from({ length: channels }, () => [new Float32Array(BLOCK), new Float32Array(BLOCK)]);
  const energy = new Float64Array(channels);
  const effectsLeft = new Float32Array(BLOCK);
  const effectsRight = new Float32Array(BLOCK);
  for (let at = 0; at < length; at += BLOCK) {
    sequencer.processTick();
    const count = Math.min(BLOCK, length - at);
    for (const [l, r] of pairs) {
      l.fill(0);
      r.fill(0);
    }
    effectsLeft.fill(0);
    effectsRight.fill(0);
    synth.processSplit(pairs, effectsLeft, effectsRight, 0, count);
    for (let i = 0; i < count; i++) {
      let l = effectsLeft[i];
      let r = effectsRight[i];
      for (let c = 0; c < channels; c++) {
        const cl = pairs[c][0][i];
        const cr = pairs[c][1][i];
        l += cl;
        r += cr;
        energy[c] += cl * cl + cr * cr;
      }
      left[at + i] = l;
      right[at + i] = r;
    }
  }
  // What each channel played with: the preset the synthesiser chose, which need not be the one the file asked for.
  const parts = synth.midiChannels.map((channel, c) => ({
    channel: c,
    db: 10 * Math.log10(energy[c] / (2 * length) + 1e-20),
    preset: channel.preset
      ? { name: channel.preset.name, program: channel.preset.program, bankMSB: channel.preset.bankMSB, drums: channel.preset.isGMGSDrum }
      : undefined,
  }));
  const problems = [...missing.map((m) => `the SoundFont has no ${m}`), ...warnings];
  if (problems.length > 0) throw new Error(`the synthesiser reported: ${[...new Set(problems)].join('; ')}`);
  return { left, right, parts };
}

process.on('message', ({ id, midi }) => {
  render(midi).then(
    ({ left, right, parts }) => process.send({ id, left, right, parts }),
    (error) => process.send({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});

// The server that started this process is gone (exited or killed): nothing will ask for a render again.
process.on('disconnect', () => process.exit(0));
