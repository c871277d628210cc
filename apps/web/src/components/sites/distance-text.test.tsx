import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../lib/i18n';
import { DistanceText } from './distance-text';

const show = (from: readonly [number, number] | string | undefined, to: string | undefined) =>
  render(
    <I18nextProvider i18n={i18n}>
      <p data-testid="distance">
        <DistanceText from={from} to={to} />
      </p>
    </I18nextProvider>,
  );

describe('the distance text', () => {
  it('shows kilometres with two decimals', async () => {
    await i18n.changeLanguage('en-US');
    show([113.8865, 22.609985], '113.9865,22.609985');
    expect(screen.getByTestId('distance').textContent).toContain('10.28 km');
  });

  it("says 'locating failed' when the viewer's position is unknown, in either language", async () => {
    await i18n.changeLanguage('en-US');
    show(undefined, '113.9865,22.609985');
    expect(screen.getByTestId('distance').textContent).toContain('Locating failed');
    await i18n.changeLanguage('zh-CN');
    show([113.8865, 22.609985], '');
    expect(screen.getAllByTestId('distance')[1]?.textContent).toContain('定位失败');
    await i18n.changeLanguage('en-US');
  });
});
