/**
 * deploy/compose.yaml cannot run here (no container runtime); what can go wrong unnoticed is a
 * setting Sluice does not read (a typo, a renamed variable) or a missing one the deployment
 * needs. Every upper-case key in the Sluice services' environment must be a setting of
 * config.ts, the settings several instances need must be there, and their values must be a
 * configuration Sluice takes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, loadConfig } from '../src/config.ts';

const compose = readFileSync(fileURLToPath(new URL('../../../deploy/compose.yaml', import.meta.url)), 'utf8');

/** The keys of a top-level block (`x-sluice-env:`) or of a service's `environment:` map. */
function keysOfBlock(lines: string[], start: number): string[] {
  const indent = /^(\s*)/.exec(lines[start] ?? '')?.[1]?.length ?? 0;
  const keys: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const lineIndent = /^(\s*)/.exec(line)?.[1]?.length ?? 0;
    if (lineIndent <= indent) break;
    const key = /^\s*([A-Z][A-Z0-9_]*):/.exec(line)?.[1];
    if (key) keys.push(key);
  }
  return keys;
}

function sluiceSettings(text = compose): string[] {
  const lines = text.split('\n');
  const keys = new Set<string>();
  lines.forEach((line, i) => {
    if (/^x-sluice-env:/.test(line)) for (const k of keysOfBlock(lines, i)) keys.add(k);
  });
  // Each Sluice service's own environment entries (beside the shared anchor).
  for (const service of ['sluice-a', 'sluice-b']) {
    const at = lines.findIndex((l) => l === `  ${service}:`);
    expect(at, `service ${service}`).toBeGreaterThan(0);
    const env = lines.findIndex((l, i) => i > at && /^ {4}environment:/.test(l));
    const next = lines.findIndex((l, i) => i > at && /^ {2}\S/.test(l));
    if (env > 0 && (next < 0 || env < next)) for (const k of keysOfBlock(lines, env)) keys.add(k);
  }
  return [...keys];
}

/** The values of the instances' shared settings, each `${VAR}` of .env filled with a value of its kind. */
function sharedValues(text = compose): Record<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^x-sluice-env:/.test(line));
  const values: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const entry = /^\s+([A-Z][A-Z0-9_]*):\s*(.*)$/.exec(line);
    if (!entry?.[1]) continue;
    const filled = (entry[2] ?? '').replace(/\$\{(\w+)\}/g, (_, name: string) =>
      name === 'SLUICE_HOST' ? 'sluice.example.cn' : name === 'SECRET_KEY' ? 'ab'.repeat(32) : 'Secret2026secret2026',
    );
    values[entry[1]] = filled.replace(/^'(.*)'$/, '$1');
  }
  return values;
}

describe('the compose file of docs/deploy.md', () => {
  it('names only settings Sluice reads', () => {
    const named = sluiceSettings();
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((k) => !CONFIG_KEYS.includes(k))).toEqual([]);
  });

  it('gives the instances what they need together', () => {
    const named = sluiceSettings();
    for (const needed of [
      'DATABASE_URL',
      'MQTT_URL',
      'MQTT_HOOK_SECRET',
      'SECRET_KEY',
      'TRUST_PROXY',
      'METRICS_TOKEN',
      'STORAGE',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]) {
      expect(named, needed).toContain(needed);
    }
  });

  it('is a configuration Sluice starts with, its uploads in the S3 store both instances share, on no volume of their own', () => {
    const config = loadConfig(sharedValues());
    expect(config).toMatchObject({ STORAGE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: true });
    expect(compose).toMatch(new RegExp(`mc mb --ignore-existing store/${config.S3_BUCKET ?? ''}\\n`));
    expect(compose).not.toMatch(/\/data\/uploads/);
    expect(() => loadConfig({ ...sharedValues(), STORAGE: 'S3' })).toThrow(/STORAGE/);
  });

  it('would find a misspelt setting', () => {
    const misspelt = compose.replace('MQTT_SHARE_GROUP:', 'MQTT_SHARED_GROUP:');
    expect(sluiceSettings(misspelt).filter((k) => !CONFIG_KEYS.includes(k))).toEqual(['MQTT_SHARED_GROUP']);
  });
});
