// The user's settings file for the KiCad plugin: where it lives, the defaults when it is missing,
// and a clear message (and the defaults) when it is not what it should be.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, settingsPath } from '../../../plugin/kicad-host/settings.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tmk-settings-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function withFile(name: string, text: string): NodeJS.ProcessEnv {
  const env = { XDG_CONFIG_HOME: join(tmp, name) };
  mkdirSync(join(env.XDG_CONFIG_HOME, 'tracemaker'), { recursive: true });
  writeFileSync(settingsPath(env), text);
  return env;
}

describe('host settings', () => {
  it('lives in the XDG config folder, else under ~/.config', () => {
    expect(settingsPath({ XDG_CONFIG_HOME: '/c' })).toBe('/c/tracemaker/settings.json');
    expect(settingsPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe('/h/.config/tracemaker/settings.json');
    expect(settingsPath({ HOME: '/h' })).toBe('/h/.config/tracemaker/settings.json');
  });

  it('opens the panel after a route unless told not to', () => {
    expect(readSettings({ XDG_CONFIG_HOME: join(tmp, 'none') })).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
    expect(DEFAULT_SETTINGS.openPanelAfterRoute).toBe(true);
    expect(readSettings(withFile('off', '{"open_panel_after_route": false, "later_key": 1}'))).toEqual({
      ok: true,
      settings: { openPanelAfterRoute: false, lockNewCopper: true },
    });
  });

  it('writes new copper locked unless told not to', () => {
    expect(DEFAULT_SETTINGS.lockNewCopper).toBe(true);
    expect(readSettings(withFile('unlocked', '{"lock_new_copper": false}'))).toEqual({
      ok: true,
      settings: { openPanelAfterRoute: true, lockNewCopper: false },
    });
    const wrongType = readSettings(withFile('lock-type', '{"lock_new_copper": 0}'));
    expect(!wrongType.ok && wrongType.message).toMatch(/"lock_new_copper" must be true or false/);
  });

  it('names what is wrong with a bad file and falls back to the defaults', () => {
    const notJson = readSettings(withFile('bad', '{open_panel_after_route: no}'));
    expect(notJson).toMatchObject({ ok: false, settings: DEFAULT_SETTINGS });
    expect(!notJson.ok && notJson.message).toMatch(/settings\.json: not JSON; using the defaults$/);
    const wrongType = readSettings(withFile('type', '{"open_panel_after_route": "no"}'));
    expect(!wrongType.ok && wrongType.message).toMatch(/"open_panel_after_route" must be true or false/);
    expect(readSettings(withFile('array', '[]'))).toMatchObject({ ok: false });
  });
});
