/**
 * WCAG AA (4.5:1) for the theme's text and tag colours, in both themes: Ant Design's resolved
 * tokens (as the console renders them) measured on the surfaces they are read on.
 */
import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { AA_TEXT, contrastRatio } from './contrast';
import { BRAND_GREEN, LAYOUT_BACKGROUND, themeConfig, type ThemeName } from './theme';

describe('contrast', () => {
  it('measures as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // The brand green as text on white: why the light theme derives its text colours.
    expect(contrastRatio(BRAND_GREEN, '#ffffff')).toBeCloseTo(2.39, 2);
    expect(contrastRatio('#faad14', '#ffffff')).toBeLessThan(2);
    // A translucent text colour is measured over its background.
    expect(contrastRatio('rgba(0, 0, 0, 0.45)', '#ffffff')).toBeCloseTo(contrastRatio('#8c8c8c', '#ffffff'), 1);
  });
});

describe.each<ThemeName>(['light', 'dark'])('the %s theme', (name) => {
  const config = themeConfig(name);
  const token = theme.getDesignToken(config);
  const surfaces = { container: token.colorBgContainer, layout: LAYOUT_BACKGROUND[name], elevated: token.colorBgElevated };

  it.each([
    'colorText',
    'colorTextSecondary',
    'colorTextTertiary',
    'colorTextDescription',
    'colorLink',
    'colorSuccess',
    'colorWarning',
    'colorError',
  ] as const)('%s reads at AA on the page, the layout and popups', (key) => {
    for (const [surface, background] of Object.entries(surfaces)) {
      expect(contrastRatio(token[key], background), `${key} ${token[key]} on ${surface} ${background}`).toBeGreaterThanOrEqual(
        AA_TEXT,
      );
    }
  });

  it.each([
    ['success', token.colorSuccess, token.colorSuccessBg],
    ['warning (alarm)', token.colorWarning, token.colorWarningBg],
    ['error', token.colorError, token.colorErrorBg],
    ['green', token.green7, token.green1],
  ])('a %s tag reads at AA on its tint', (_tag, text, background) => {
    expect(contrastRatio(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('puts text that reads at AA on brand-green fills and on the primary colour where it is text', () => {
    const components = config.components ?? {};
    const onFill = components.Button?.primaryColor ?? token.colorTextLightSolid;
    expect(contrastRatio(onFill, token.colorPrimary)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(components.Radio?.buttonSolidCheckedColor ?? '', token.colorPrimary)).toBeGreaterThanOrEqual(AA_TEXT);
    const selected = [
      components.Menu?.itemSelectedColor ?? token.colorPrimary,
      components.Tabs?.itemSelectedColor ?? token.colorPrimary,
      components.Pagination?.itemActiveColor ?? token.colorPrimary,
    ];
    for (const text of selected) {
      expect(contrastRatio(text, token.colorBgContainer), text).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(text, token.colorPrimaryBg), text).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('keeps the brand green as the primary colour (fills, focus, accents)', () => {
    expect(config.token?.colorPrimary).toBe(BRAND_GREEN);
  });
});
