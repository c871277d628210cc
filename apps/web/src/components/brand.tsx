import { useTranslation } from 'react-i18next';
import { BRAND_GREEN } from '../lib/theme';

interface BrandProps {
  /** Only the mark, for the collapsed side navigation. */
  compact?: boolean;
  size?: number;
}

/** The product mark and name in brand green. */
export function Brand({ compact = false, size = 28 }: BrandProps) {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10 }}>
      <img src="/favicon.svg" width={size} height={size} alt={compact ? t('app.name') : ''} />
      {!compact && (
        <span style={{ color: BRAND_GREEN, fontWeight: 700, fontSize: size * 0.72, letterSpacing: 0.5 }}>{t('app.name')}</span>
      )}
    </span>
  );
}
