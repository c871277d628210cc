import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { i18n } from '../../lib/i18n';
import { renderWithProviders } from '../../test/render';
import { useFakeClock } from '../../test/fake-clock';
import { DeviceStateTag, SiteStateTag } from './state-tag';

const device = {
  DeviceSn: 'SL0000000101',
  Online: true,
  State: 2,
  Alarm: 'Lift pump 1 fault',
  LastSeen: Date.UTC(2026, 10, 25, 8, 30),
};

describe('the state tag', () => {
  it('shows a device online with an active alarm as a warning from the first fetch, naming the alarm on hover', async () => {
    await i18n.changeLanguage('en-US');
    const user = useFakeClock();
    renderWithProviders(<DeviceStateTag device={device} />);
    const tag = screen.getByText('Warning');
    expect(tag.getAttribute('data-state')).toBe('2');
    expect(tag.getAttribute('aria-description')).toBe('Active alarm: Lift pump 1 fault');
    await user.hover(tag);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Active alarm: Lift pump 1 fault');
  });

  it('shows an offline device grey with when it was last heard', async () => {
    await i18n.changeLanguage('zh-CN');
    renderWithProviders(<DeviceStateTag device={{ ...device, Online: false, State: 0 }} />);
    const tag = screen.getByText('离线');
    expect(tag.getAttribute('data-state')).toBe('0');
    expect(tag.getAttribute('aria-description')).toMatch(/^最后上线 2026-11-25 \d\d:30:00$/);
  });

  it('shows an online device green without a hint', async () => {
    await i18n.changeLanguage('en-US');
    renderWithProviders(<DeviceStateTag device={{ ...device, State: 1, Alarm: null }} />);
    const tag = screen.getByText('Online');
    expect(tag.getAttribute('aria-description')).toBeNull();
  });

  it('gives a project the warning of its devices, with how many are in alarm', async () => {
    await i18n.changeLanguage('en-US');
    renderWithProviders(<SiteStateTag site={{ Online: true, State: 2, WarningNum: 3, LastSeen: null }} />);
    expect(screen.getByText('Warning').getAttribute('aria-description')).toBe('Devices online with an active alarm: 3');
  });

  it('says a project whose devices were never heard was never seen', async () => {
    await i18n.changeLanguage('en-US');
    renderWithProviders(<SiteStateTag site={{ Online: false, State: 0, WarningNum: 0, LastSeen: null }} />);
    expect(screen.getByText('Offline').getAttribute('aria-description')).toBe('Never seen');
  });
});
