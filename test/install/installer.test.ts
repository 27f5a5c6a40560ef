import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, outputDir } from '../support/paths.js';

const run = promisify(execFile);
const INSTALL = join(ROOT, 'scripts', 'install.sh');

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (relative(dir, p) === 'opt/hark') continue; // the app copy: checked separately
        walk(p);
      } else if (e.isSymbolicLink()) out[relative(dir, p)] = `-> ${readlinkSync(p)}`;
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function freshRoot(name: string): string {
  const dir = outputDir(`install-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'boot', 'firmware'), { recursive: true });
  writeFileSync(join(dir, 'boot', 'firmware', 'config.txt'), 'dtparam=i2c_arm=on\ncamera_auto_detect=1\n');
  mkdirSync(join(dir, 'etc'), { recursive: true });
  writeFileSync(join(dir, 'etc', 'asound.conf'), 'pcm.!default { type hw card 1 }\n');
  return dir;
}

const env = { ...process.env, HARK_MIC_VENDOR: '0d8c', HARK_MIC_PRODUCT: '0014' };

describe('scripts/install.sh', () => {
  it('--dry-run prints the plan and changes nothing', async () => {
    const root = freshRoot('dry');
    const before = tree(root);
    const { stdout } = await run('bash', [INSTALL, '--root', root, '--dry-run'], { env });
    expect(stdout).toMatch(/dry run: nothing will change/);
    expect(stdout).toMatch(/would write \/etc\/systemd\/system\/hark\.service/);
    expect(stdout).toMatch(/would back up \/etc\/asound\.conf/);
    expect(tree(root)).toEqual(before);
  });

  it('--root installs the unit, config, firmware files and the app, backing up what it replaces', async () => {
    const root = freshRoot('root');
    const { stdout } = await run('bash', [INSTALL, '--root', root], { env });
    // Enabled the offline way image builds use (the symlink `systemctl enable` makes); nothing started.
    expect(stdout).toMatch(
      /enabling hark\.service offline: \/etc\/systemd\/system\/multi-user\.target\.wants\/hark\.service -> \/etc\/systemd\/system\/hark\.service/,
    );
    expect(stdout).toMatch(/skipped under --root: systemctl restart hark\.service/);
    const t = tree(root);
    expect(t['etc/systemd/system/multi-user.target.wants/hark.service']).toBe('-> /etc/systemd/system/hark.service');
    expect(t['etc/systemd/system/hark.service']).toBe(readFileSync(join(ROOT, 'systemd', 'hark.service'), 'utf8'));
    expect(t['etc/hark/hark.yaml']).toBe(readFileSync(join(ROOT, 'config', 'hark.yaml'), 'utf8'));
    expect(statSync(join(root, 'etc/hark/hark.env')).mode & 0o777).toBe(0o640);
    // the boot config keeps its own lines and gains hark's block once
    const boot = t['boot/firmware/config.txt']!;
    expect(boot).toMatch(/^dtparam=i2c_arm=on\ncamera_auto_detect=1\n# >>> hark/);
    expect(boot).toContain('gpio=17=ip,pu');
    expect(boot).toContain('gpio=27=op,dl');
    expect(boot).toContain('dtparam=watchdog=on');
    // replaced system files are kept
    const backups = Object.keys(t).filter((k) => k.includes('.hark-backup-'));
    expect(backups.sort().map((b) => b.replace(/-\d{8}-\d{6}$/, ''))).toEqual(['boot/firmware/config.txt.hark-backup', 'etc/asound.conf.hark-backup']);
    expect(t['etc/udev/rules.d/99-hark-usb-mic.rules']).toMatch(/ATTRS\{idVendor\}=="0d8c", ATTRS\{idProduct\}=="0014", ATTR\{id\}="harkmic"/);
    expect(statSync(join(root, 'opt/hark/bin/hark.js')).isFile()).toBe(true);
    expect(() => statSync(join(root, 'opt/hark/node_modules'))).toThrow();
  });

  it('is idempotent: a second run changes nothing and makes no new backups', async () => {
    const root = freshRoot('twice');
    await run('bash', [INSTALL, '--root', root], { env });
    const first = tree(root);
    const { stdout } = await run('bash', [INSTALL, '--root', root], { env });
    expect(stdout).toMatch(/everything was already in place/);
    expect(tree(root)).toEqual(first);
    expect(readFileSync(join(root, 'boot/firmware/config.txt'), 'utf8').match(/# >>> hark/g)).toHaveLength(1);
  });

  it('never overwrites an edited config; the shipped one lands beside it', async () => {
    const root = freshRoot('edited');
    await run('bash', [INSTALL, '--root', root], { env });
    writeFileSync(join(root, 'etc/hark/hark.yaml'), 'capture:\n  device: plughw:CARD=Mine,DEV=0\n');
    writeFileSync(join(root, 'etc/hark/hark.env'), 'DEEPGRAM_API_KEY=abc\n');
    const { stdout } = await run('bash', [INSTALL, '--root', root], { env });
    expect(stdout).toMatch(/kept your edited \/etc\/hark\/hark\.yaml/);
    expect(readFileSync(join(root, 'etc/hark/hark.yaml'), 'utf8')).toContain('plughw:CARD=Mine');
    expect(readFileSync(join(root, 'etc/hark/hark.env'), 'utf8')).toBe('DEEPGRAM_API_KEY=abc\n');
    expect(readFileSync(join(root, 'etc/hark/hark.yaml.dist'), 'utf8')).toBe(readFileSync(join(ROOT, 'config', 'hark.yaml'), 'utf8'));
  });

  it('builds whisper.cpp for the Pi it runs on, right after npm ci (the plan, with --with-npm)', async () => {
    const root = freshRoot('plan-npm');
    const { stdout } = await run('bash', [INSTALL, '--root', root, '--with-npm', '--dry-run'], { env });
    const lines = stdout.split('\n');
    // whisper.cpp compiled once, for the Pi: npm ci without install scripts, the other native
    // packages rebuilt, then build-whisper.sh, then hark's own build, then the prune.
    const ci = lines.findIndex((l) => /would run: .*npm ci --no-audit --no-fund --ignore-scripts/.test(l));
    const rebuild = lines.findIndex((l) => /would run: .*npm rebuild --foreground-scripts better-sqlite3 epoll hark-aec onnxruntime-node'?$/.test(l));
    const build = lines.findIndex((l) => l.includes(`would run: bash ${root}/opt/hark/scripts/build-whisper.sh`));
    const tsc = lines.findIndex((l) => /would run: .*npm run -s build/.test(l));
    const prune = lines.findIndex((l) => /would run: .*npm prune --omit=dev/.test(l));
    expect(ci).toBeGreaterThan(0);
    expect([rebuild, build, tsc, prune]).toEqual([ci + 1, ci + 2, ci + 3, ci + 4]);
    expect(lines.some((l) => /would run: .*smart-whisper/.test(l))).toBe(false);
    const { stdout: noNpm } = await run('bash', [INSTALL, '--root', root, '--dry-run'], { env });
    expect(noNpm).toMatch(/npm ci and the whisper\.cpp build for this CPU \(scripts\/build-whisper\.sh\) skipped/);
  });

  it('rejects an unknown option with a clear message', async () => {
    const err = (await run('bash', [INSTALL, '--frobnicate']).catch((e) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/unknown option --frobnicate/);
  });
});

describe('systemd/hark.service', () => {
  it('passes systemd-analyze verify', async () => {
    const { stdout, stderr } = await run('systemd-analyze', ['verify', join(ROOT, 'systemd', 'hark.service')]);
    expect(stdout + stderr).toBe('');
  });

  it('is a notify service with a watchdog, restarts always, and runs hardened as hark', () => {
    const unit = readFileSync(join(ROOT, 'systemd', 'hark.service'), 'utf8');
    for (const line of [
      'Type=notify',
      'WatchdogSec=30',
      'Restart=always',
      'User=hark',
      'SupplementaryGroups=audio gpio',
      'StateDirectory=hark',
      'ConfigurationDirectory=hark',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'ReadWritePaths=/var/lib/hark',
      'DevicePolicy=closed',
    ]) {
      expect(unit.split('\n'), line).toContain(line);
    }
    expect(unit).toMatch(/^MemoryMax=\d+M$/m);
    expect(unit).toMatch(/^DeviceAllow=char-alsa rw$/m);
  });
});
