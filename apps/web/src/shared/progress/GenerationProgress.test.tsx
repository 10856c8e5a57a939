// The time a generation should still take (decision "Progress estimates"): counted down each second from the end its
// task's answer tells, in minutes then seconds, and once past it, that it is taking longer than usual.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n';
import { endsAtOf, lastEnd } from './estimate';
import { GenerationProgress } from './GenerationProgress';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
});

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const timeLeft = () => screen.getByRole('timer').textContent;
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('generation progress: the time left', () => {
  it('counts down each second between answers, in minutes over a minute and in seconds under', () => {
    render(<GenerationProgress progress="animating" endsAt={Date.now() + 95_000} />);
    expect(timeLeft()).toBe('About 2 min left');
    wait(30_000);
    expect(timeLeft()).toBe('About 1 min left');
    wait(10_000);
    expect(timeLeft()).toBe('About 55 s left');
    wait(1_000);
    expect(timeLeft()).toBe('About 54 s left');
    wait(53_000);
    expect(timeLeft()).toBe('About 1 s left');
  });

  it('says the work is taking longer than usual once past its estimate, never a count below zero', () => {
    render(<GenerationProgress progress="rendering" endsAt={Date.now() + 3_000} />);
    wait(3_000);
    expect(timeLeft()).toBe('Taking longer than usual…');
    wait(60_000);
    expect(timeLeft()).toBe('Taking longer than usual…');
    // The stages still say where the work is.
    expect(screen.getByText('Rendering the video').dataset.state).toBe('current');
  });

  it('keeps its count when the next answer places the end within a second or so, and follows one that moved', () => {
    const end = Date.now() + 40_000;
    const { rerender } = render(<GenerationProgress progress="animating" endsAt={end} />);
    wait(2_000);
    expect(timeLeft()).toBe('About 38 s left');
    // Whole seconds on the server and the time on the way: the next answer's end a little later.
    rerender(<GenerationProgress progress="animating" endsAt={end + 900} />);
    expect(timeLeft()).toBe('About 38 s left');
    rerender(<GenerationProgress progress="animating" endsAt={end + 20_000} />);
    expect(timeLeft()).toBe('About 58 s left');
  });

  it('shows no time at all when the server has no estimate', () => {
    render(<GenerationProgress progress="parsing" endsAt={null} />);
    expect(screen.getByText('Parsing content')).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('speaks the reader’s language, in a history row too', async () => {
    await i18n.changeLanguage('pt');
    const { rerender } = render(<GenerationProgress compact progress="animating" endsAt={Date.now() + 150_000} />);
    expect(timeLeft()).toBe('Faltam cerca de 3 min');
    rerender(<GenerationProgress compact progress="animating" endsAt={Date.now() - 1_000} />);
    expect(timeLeft()).toBe('Está demorando mais que o normal…');
    await i18n.changeLanguage('zh');
    rerender(<GenerationProgress compact progress="animating" endsAt={Date.now() + 20_000} />);
    expect(timeLeft()).toBe('大约还需 20 秒');
  });
});

describe('generation progress: the end an answer tells', () => {
  it('is the expected time less the elapsed, counted from when the answer came; none without both', () => {
    expect(endsAtOf({ expectedSeconds: 60, elapsedSeconds: 15 }, 1_000_000)).toBe(1_045_000);
    expect(endsAtOf({}, 1_000_000)).toBeNull();
    expect(endsAtOf(undefined, 1_000_000)).toBeNull();
  });

  it('of several tasks is the last one’s, and unknown when any one is', () => {
    expect(lastEnd([5_000, 9_000, 7_000])).toBe(9_000);
    expect(lastEnd([5_000, null])).toBeNull();
    expect(lastEnd([])).toBeNull();
  });
});
