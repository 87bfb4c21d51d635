// The user's settings for the KiCad plugin: one small JSON file in the user's configuration
// folder ($XDG_CONFIG_HOME/tracemaker/settings.json, else ~/.config/…). Read on each use, so an
// edit takes effect on the next click without restarting the host. A missing file means the
// defaults; a file that cannot be read or parsed is a value that names the problem, never a crash.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface HostSettings {
  /** Open the panel in the browser after a route that leaves connections open. */
  openPanelAfterRoute: boolean;
  /** Write new tracks and vias locked, so a later route or a push-and-shove does not move them. */
  lockNewCopper: boolean;
}

export const DEFAULT_SETTINGS: HostSettings = { openPanelAfterRoute: true, lockNewCopper: true };

const KEYS: Record<keyof HostSettings, string> = { openPanelAfterRoute: 'open_panel_after_route', lockNewCopper: 'lock_new_copper' };

export type SettingsRead = { ok: true; settings: HostSettings } | { ok: false; settings: HostSettings; message: string };

/** The settings file for this environment. */
export function settingsPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(base, 'tracemaker', 'settings.json');
}

/**
 * Reads the settings; keys it does not know are left alone (a newer version may have written
 * them), a known key of the wrong type is an error, and on any error the defaults apply.
 */
export function readSettings(env: NodeJS.ProcessEnv): SettingsRead {
  const path = settingsPath(env);
  if (!existsSync(path)) return { ok: true, settings: DEFAULT_SETTINGS };
  const bad = (message: string): SettingsRead => ({ ok: false, settings: DEFAULT_SETTINGS, message: `${path}: ${message}; using the defaults` });
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return bad(err instanceof SyntaxError ? 'not JSON' : (err as Error).message);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('expected a JSON object');
  const o = v as Record<string, unknown>;
  const settings = { ...DEFAULT_SETTINGS };
  for (const [field, key] of Object.entries(KEYS) as [keyof HostSettings, string][]) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') return bad(`"${key}" must be true or false`);
    settings[field] = v;
  }
  return { ok: true, settings };
}
