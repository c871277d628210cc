import { describe, expect, it } from 'vitest';
import { TYPE_PART_KEYS, typePart, typePartPath } from './device-type-parts.ts';

describe('the device-type parts', () => {
  it('refer only to parts listed before them, so a copy has made them first', () => {
    TYPE_PART_KEYS.forEach((key, index) => {
      const keys: readonly string[] = TYPE_PART_KEYS;
      for (const target of Object.values(typePart(key).refs ?? {})) {
        expect(keys.indexOf(target), `${key} → ${target}`).toBeGreaterThanOrEqual(0);
        expect(keys.indexOf(target), `${key} → ${target}`).toBeLessThan(index);
      }
    });
  });

  it('each have their own calls', () => {
    const paths = TYPE_PART_KEYS.map(typePartPath);
    expect(new Set(paths.map((p) => p.toLowerCase())).size).toBe(paths.length);
    expect(typePartPath('moduleArguments')).toBe('/module/{moduleId}/TypeModuleArgument');
    expect(typePartPath('hardwareConfigs')).toBe('/type/{typeId}/TypeHardWareConfig');
  });
});
