import { describe, expect, it } from 'vitest';
import { TYPE_PART_KEYS, typePart } from '@sluice/shared/device-type-parts';
import { WORKBENCH_TABS } from './type-workbench';

describe('the device type workbench', () => {
  it('has a tab for every part of a type, and the fourteen tabs of the specification', () => {
    const tabs = WORKBENCH_TABS.map((item) => item.key);
    for (const key of TYPE_PART_KEYS) expect(tabs, key).toContain(typePart(key).tab);
    expect(tabs).toHaveLength(14);
  });
});
