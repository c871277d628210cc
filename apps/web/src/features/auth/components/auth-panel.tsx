/**
 * The frame of the pages before sign-in (sign-in, registration): a centred panel with the
 * language switch in the corner. A plain panel rather than Card/Typography keeps these pages'
 * code small.
 */
import type { ReactNode } from 'react';
import { theme } from 'antd';
import { LanguageSwitch } from '../../../components/language-switch';

export function AuthPanel({ headingId, maxWidth, children }: { headingId: string; maxWidth: number; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '72px 16px 32px',
        boxSizing: 'border-box',
        position: 'relative',
      }}
    >
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch />
      </div>
      <section
        aria-labelledby={headingId}
        style={{
          width: '100%',
          maxWidth,
          padding: 32,
          boxSizing: 'border-box',
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        {children}
      </section>
    </main>
  );
}
