import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifest } from '../build/manifest';
import { zipFolder } from '../build/zip';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the store package', () => {
  it('zips a folder so that unzip restores every file exactly, the same bytes every time', () => {
    const folder = join(dir, 'ext');
    mkdirSync(join(folder, '_locales/zh_CN'), { recursive: true });
    writeFileSync(join(folder, 'manifest.json'), '{"manifest_version":3}');
    writeFileSync(join(folder, '_locales/zh_CN/messages.json'), JSON.stringify({ makeVideo: { message: '制作视频' } }));
    writeFileSync(join(folder, 'big.js'), 'a'.repeat(100_000));
    const zip = zipFolder(folder);
    expect(zipFolder(folder).equals(zip)).toBe(true);
    expect(zip.length).toBeLessThan(2000);

    const archive = join(dir, 'ext.zip');
    writeFileSync(archive, zip);
    execFileSync('unzip', ['-tq', archive]);
    expect(execFileSync('unzip', ['-p', archive, '_locales/zh_CN/messages.json'], { encoding: 'utf8' })).toContain('制作视频');
    expect(execFileSync('unzip', ['-p', archive, 'big.js'], { encoding: 'utf8' })).toHaveLength(100_000);
  });

  it('asks only for activeTab, scripting, storage and the app origin', () => {
    const m = manifest('1.2.3', 'https://reelsmith.example.com');
    expect(m.permissions).toEqual(['activeTab', 'scripting', 'storage']);
    expect(m.host_permissions).toEqual(['https://reelsmith.example.com/*']);
    expect(m.manifest_version).toBe(3);
    expect(m.content_security_policy.extension_pages).not.toMatch(/unsafe|http/);
  });
});
