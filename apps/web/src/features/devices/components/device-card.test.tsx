import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/render';
import { useFakeClock } from '../../../test/fake-clock';
import type { DeviceDto } from '../api/devices-api';
import { DeviceCard } from './device-card';

const device: DeviceDto = {
  Id: 1,
  DeviceSn: 'SL0000000101',
  DeviceNo: 'P-01',
  DeviceName: 'Lift pump 1',
  DeviceDescription: '',
  TypeId: 7,
  ProjectId: 3,
  ProjectName: 'Station One',
  ProjectType: 1,
  ParentProjectId: 2,
  ParentProjectName: 'Qingshan Town',
  RegionId: null,
  AreaId: null,
  Position: '119.6132,30.6147',
  Address: 'Anji',
  Online: true,
  State: 1,
  Alarm: null,
  LastSeen: null,
  CreatedAt: 0,
  UseTime: '',
};

function renderCard(onOpen = vi.fn()) {
  renderWithProviders(
    <DeviceCard device={device} types={[{ Id: 7, TypeName: 'Village station (A/O)', ICON: '' }]} onOpen={onOpen} />,
  );
  return onOpen;
}

describe('the device card', () => {
  it('shows its key facts in a popover on hover', async () => {
    await i18n.changeLanguage('en-US');
    const user = useFakeClock();
    renderCard();
    const card = screen.getByRole('article', { name: 'Lift pump 1, Online' });
    expect(screen.queryByText('P-01')).toBeNull();
    await user.hover(card);
    // The popover opens after a short hover delay, which the fake clock passes.
    const popover = await screen.findByRole('tooltip');
    expect(popover.textContent).toContain('SL0000000101');
    expect(popover.textContent).toContain('P-01');
    expect(popover.textContent).toContain('Village station (A/O)');
    expect(popover.textContent).toContain('Qingshan Town / Station One');
    expect(popover.textContent).toContain('119.6132,30.6147');
  });

  it('opens with Enter from the keyboard', async () => {
    const onOpen = renderCard();
    screen.getByRole('article', { name: /Lift pump 1/ }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(device);
  });
});
