/** A colour as '#RRGGBB' text: a picker with presets and the hex value shown; cleared, it is ''. */
import { Button, ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';

const PRESETS = ['#6eba44', '#faad14', '#ff4d4f', '#fa8c16', '#1677ff', '#722ed1', '#8c8c8c'];

export function ColorField({ id, value, onChange }: { id?: string; value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <ColorPicker
      value={value || undefined}
      format="hex"
      disabledAlpha
      showText
      allowClear
      presets={[{ label: t('warnTypes.presets'), colors: PRESETS }]}
      onChange={(color) => {
        onChange?.(color.cleared ? '' : color.toHexString());
      }}
      onClear={() => {
        onChange?.('');
      }}
    >
      <Button
        id={id}
        aria-label={t('warnTypes.pickColor', { color: value || t('warnTypes.noColor') })}
        icon={
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 16,
              height: 16,
              borderRadius: 4,
              background: value || 'transparent',
              border: '1px solid rgba(128,128,128,0.5)',
            }}
          />
        }
      >
        {value || t('warnTypes.noColor')}
      </Button>
    </ColorPicker>
  );
}
