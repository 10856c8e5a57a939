import { describe, expect, it } from 'vitest';
import { exportFileName } from '../src/modules/link-video/video/fileName.js';

describe('the file name an export downloads under (decision "Export file names")', () => {
  it('is <project>-<n>-<length>s.mp4 in letters, figures and dashes, keeping Chinese and accents', () => {
    expect(exportFileName('Aqua bottle', 2, 15)).toBe('Aqua-bottle-2-15s.mp4');
    expect(exportFileName('  Moletom "Cássia" / Inverno: 50% off!  ', 1, 30)).toBe('Moletom-Cássia-Inverno-50-off-1-30s.mp4');
    expect(exportFileName('破洞修身牛仔裤 · 秋冬', 3, 45)).toBe('破洞修身牛仔裤-秋冬-3-45s.mp4');
    expect(exportFileName('../../etc/passwd\u0000', 1, 15)).toBe('etc-passwd-1-15s.mp4');
  });

  it('stands in "video" for a name with nothing safe in it, and keeps long names to 60 characters', () => {
    expect(exportFileName('!!! ***', 1, 15)).toBe('video-1-15s.mp4');
    const long = exportFileName('Home Office Essentials Bundle with Laptop, Monitor, Keyboard and Mouse for Work', 1, 15);
    expect(long).toBe('Home-Office-Essentials-Bundle-with-Laptop-Monitor-Keyboard-a-1-15s.mp4');
  });
});
