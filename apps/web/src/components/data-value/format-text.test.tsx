import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { changeLanguage } from '../../lib/i18n';
import { loadDeviceTypesCatalog } from '../../lib/feature-catalogs';
import { renderWithProviders } from '../../test/render';
import { IconName } from '../icon-name';
import { FormatText } from './format-text';

describe('a data point format in words', () => {
  it.each([
    ['en-US', 'textbox', '{"Min":0,"Max":8,"Decimals":2}', '0–8, 2 decimals'],
    ['en-US', 'textbox', '{"Min":10,"Max":86400,"Step":1,"Decimals":0}', '10–86400, step 1, whole numbers'],
    ['en-US', 'readable', '{"Decimals":1}', '1 decimal'],
    ['en-US', 'readable', '', 'any number'],
    ['en-US', 'enum', '{"0":"Manual","1":"Auto"}', '0 = Manual, 1 = Auto'],
    ['zh-CN', 'textbox', '{"Min":0,"Max":8,"Decimals":2}', '0–8，2 位小数'],
    ['zh-CN', 'boolean2', '{"0":"正常","1":"故障"}', '0 = 正常，1 = 故障'],
    // Labels the demo library stores in Chinese read in English for an English user.
    ['en-US', 'boolean2', '{"0":"正常","1":"故障"}', '0 = Normal, 1 = Fault'],
  ])('in %s reads %s %s as “%s”', async (language, type, format, text) => {
    await loadDeviceTypesCatalog();
    await changeLanguage(language as 'en-US' | 'zh-CN');
    renderWithProviders(<FormatText dataType={type} format={format} />);
    const shown = screen.getByText(text);
    // The stored format stays on hover when the words differ from it.
    expect(shown.getAttribute('title')).toBe(format || null);
  });

  it('shows a format it cannot read as stored', async () => {
    await loadDeviceTypesCatalog();
    await changeLanguage('en-US');
    renderWithProviders(<FormatText dataType="textbox" format="{oops" />);
    expect(screen.getByText('{oops')).toBeTruthy();
  });
});

describe('an icon field', () => {
  it('shows a known name as its icon with the name, and an unknown one as text only', () => {
    const { container } = renderWithProviders(
      <>
        <IconName name="warning" />
        <IconName name="WarningOutlined" />
        <IconName name="sparkles" />
      </>,
    );
    expect(container.querySelectorAll('.anticon-warning')).toHaveLength(2);
    expect(screen.getByText('sparkles').parentElement?.querySelector('.anticon')).toBeNull();
  });
});
