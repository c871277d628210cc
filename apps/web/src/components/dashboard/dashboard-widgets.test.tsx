/**
 * The dashboard's small widgets (spec §2): a long list shown a page at a time behind a load-more
 * button, a device's images one at a time, and a tank's level as water in a 63 px box.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../lib/i18n';
import '../../lib/console-catalog';
import { LoadMore } from './load-more';
import { MediaCarousel } from './media-carousel';
import { WAVE_DEFAULT_HEIGHT, WaveLevel } from './wave-level';

describe('the dashboard widgets', () => {
  beforeEach(async () => {
    await changeLanguage('en-US');
  });

  it('shows a long list a page at a time, saying how many are left, until all are shown', async () => {
    const items = Array.from({ length: 20 }, (_, i) => `Alarm ${String(i + 1)}`);
    render(
      <LoadMore items={items} pageSize={8}>
        {(shown) => (
          <ul>
            {shown.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        )}
      </LoadMore>,
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(8);
    await userEvent.click(screen.getByRole('button', { name: 'Load more (12 left)' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(16);
    await userEvent.click(screen.getByRole('button', { name: 'Load more (4 left)' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
  });

  it("shows a device's images one by one, each named by its place, and says so when there is none", () => {
    const images = [
      { id: 1, url: '/uploads/device-images/a.png', name: 'Pump room' },
      { id: 2, url: '/uploads/device-images/b.png', name: 'Control cabinet' },
    ];
    const { unmount } = render(<MediaCarousel images={images} emptyText="No images of this device yet" />);
    expect(screen.getAllByAltText('Image 1 of 2: Pump room').length).toBeGreaterThan(0);
    expect(screen.getAllByAltText('Image 2 of 2: Control cabinet').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: /next|prev/i }).length).toBeGreaterThan(0);
    unmount();
    render(<MediaCarousel images={[]} emptyText="No images of this device yet" />);
    expect(screen.getByText('No images of this device yet')).toBeTruthy();
  });

  it('draws a tank level 63 px high by default, named for screen readers, its fill kept within the box', () => {
    render(
      <>
        <WaveLevel ratio={0.68} label="Tank level 1.78 m of 2.6 m" />
        <WaveLevel ratio={1.4} label="Over the top" height={40} />
      </>,
    );
    const level = screen.getByRole('img', { name: 'Tank level 1.78 m of 2.6 m' });
    expect(WAVE_DEFAULT_HEIGHT).toBe(63);
    expect(level.getAttribute('height')).toBe('63');
    expect(level.dataset.level).toBe('0.680');
    expect(level.tabIndex).toBe(0);
    const over = screen.getByRole('img', { name: 'Over the top' });
    expect(over.getAttribute('height')).toBe('40');
    expect(over.dataset.level).toBe('1.000');
  });
});
