/** 16-bit PCM WAV, the one format speech and generated music are written in before ffmpeg takes over. */
export interface Pcm {
  sampleRate: number;
  channels: number;
  /** Interleaved signed 16-bit samples. */
  samples: Int16Array;
}

/** Reads a PCM WAV, skipping chunks other than `fmt ` and `data` (eSpeak and ffmpeg add LIST chunks). */
export function readWav(bytes: Uint8Array): Pcm {
  const { sampleRate, channels, format, data } = wavChunks(bytes);
  if (format !== 'int16') throw new Error('not 16-bit PCM');
  return { sampleRate, channels, samples: new Int16Array(data.buffer, data.byteOffset, data.byteLength / 2) };
}

/** Reads a 32-bit float WAV (ffmpeg's pcm_f32le): samples beyond ±1 kept, for a gain that must not clip. */
export function readFloatWav(bytes: Uint8Array): { sampleRate: number; channels: number; samples: Float32Array } {
  const { sampleRate, channels, format, data } = wavChunks(bytes);
  if (format !== 'float32') throw new Error('not 32-bit float PCM');
  return { sampleRate, channels, samples: new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4) };
}

/** The format and the data chunk's bytes (copied, so aligned) of a 16-bit or 32-bit float WAV. */
function wavChunks(bytes: Uint8Array): { sampleRate: number; channels: number; format: 'int16' | 'float32'; data: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let format: { sampleRate: number; channels: number; format: 'int16' | 'float32' } | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === 'fmt ') {
      // WAVE_FORMAT_EXTENSIBLE (0xfffe) names its real format in its sub-format GUID's first two bytes.
      const code = view.getUint16(body, true) === 0xfffe ? view.getUint16(body + 24, true) : view.getUint16(body, true);
      const bits = view.getUint16(body + 14, true);
      const kind = code === 1 && bits === 16 ? 'int16' : code === 3 && bits === 32 ? 'float32' : undefined;
      if (!kind) throw new Error('not 16-bit PCM');
      format = { channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), format: kind };
    } else if (tag(at) === 'data' && format) {
      // A writer that could not seek back leaves the size at its maximum: the data then runs to the end.
      const end = Math.min(body + size, bytes.length);
      const unit = format.format === 'int16' ? 2 : 4;
      return { ...format, data: new Uint8Array(bytes.subarray(body, end - ((end - body) % unit))) };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV file without format or data');
}

export function writeWav({ sampleRate, channels, samples }: Pcm): Uint8Array {
  const bytes = new Uint8Array(44 + samples.byteLength);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) =>
    bytes.set(
      [...value].map((c) => c.charCodeAt(0)),
      at,
    );
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.byteLength, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.byteLength, true);
  bytes.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), 44);
  return bytes;
}

export const pcmSeconds = ({ sampleRate, channels, samples }: Pcm) => samples.length / channels / sampleRate;
