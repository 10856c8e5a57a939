/**
 * The one sample playing in the quick editor: starting a voice or a music sample stops the one before, so two never
 * play over each other.
 */
interface Playing {
  audio: HTMLAudioElement;
  /** Tells the player that started it that it has stopped. */
  stopped: () => void;
}

let playing: Playing | null = null;

/** Plays `audio`, stopping whatever sample played before; `stopped` is called when it ends or is stopped. */
export function playSample(audio: HTMLAudioElement, stopped: () => void): Promise<void> {
  stopSample();
  playing = { audio, stopped };
  audio.currentTime = 0;
  audio.onended = () => {
    if (playing?.audio === audio) playing = null;
    stopped();
  };
  return audio.play();
}

/** Stops the sample playing, if any. */
export function stopSample(audio?: HTMLAudioElement): void {
  if (!playing || (audio && playing.audio !== audio)) return;
  const { audio: current, stopped } = playing;
  playing = null;
  current.pause();
  stopped();
}
