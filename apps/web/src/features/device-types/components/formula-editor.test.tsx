import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { Button, ConfigProvider, Form } from 'antd';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addModuleControlRequest } from '@sluice/shared/device-type.schema';
import { isValidFormula } from '@sluice/shared/formula';
import { loadDeviceTypesCatalog } from '../../../lib/feature-catalogs';
import { changeLanguage } from '../../../lib/i18n';
import { zodFieldRules } from '../../../lib/zod-form';
import { FormulaEditor, composeFormula, formulaStyleOf } from './formula-editor';

/** The editor in a form with the shared schema's rule, as the control dialog has it. */
function Harness({ initial = '', onSave }: { initial?: string; onSave: (formula: string) => void }) {
  const [saved, setSaved] = useState<string>();
  return (
    <ConfigProvider theme={{ token: { motion: false } }}>
      <Form
        initialValues={{ Formula: initial }}
        onFinish={(values: { Formula?: string }) => {
          setSaved(values.Formula ?? '');
          onSave(values.Formula ?? '');
        }}
      >
        <Form.Item name="Formula" label="Formula" htmlFor="formula" rules={zodFieldRules(addModuleControlRequest.shape.Formula)}>
          <FormulaEditor id="formula" keys={['DOSet', 'DO', 'LevelHighSet', 'TankLevel']} />
        </Form.Item>
        <Button htmlType="submit">Save</Button>
        {saved !== undefined && <output>saved: {saved}</output>}
      </Form>
    </ConfigProvider>
  );
}

const RULE = 'The formula is JSON with SettingValue and CurrentValue, or two keys separated by ||';

beforeAll(async () => {
  await loadDeviceTypesCatalog();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

describe('the Formula editor', () => {
  it('writes JSON with SettingValue and CurrentValue, and refuses it while a key is missing', async () => {
    const onSave = vi.fn();
    render(<Harness onSave={onSave} />);
    await userEvent.click(screen.getByText('JSON'));
    await userEvent.type(screen.getByLabelText('Set value key'), 'DOSet');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(RULE)).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText('Current value key'), 'DO');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith('{"SettingValue":"DOSet","CurrentValue":"DO"}');
    });
  });

  it('writes the text form a||b from the same keys', async () => {
    const onSave = vi.fn();
    render(<Harness initial='{"SettingValue":"LevelHighSet","CurrentValue":"TankLevel"}' onSave={onSave} />);
    expect(screen.getByLabelText<HTMLInputElement>('Set value key').value).toBe('LevelHighSet');
    await userEvent.click(screen.getByText('Text a||b'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith('LevelHighSet||TankLevel');
    });
  });

  it('checks other text with the shared rule, and None clears it', async () => {
    const onSave = vi.fn();
    render(<Harness initial="DOSet|DO" onSave={onSave} />);
    // Text that is neither form opens as text, so it can be seen and fixed.
    const text = screen.getByLabelText('Formula text');
    expect((text as HTMLInputElement).value).toBe('DOSet|DO');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(RULE)).toBeTruthy();
    await userEvent.click(screen.getByText('None'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith('');
    });
  });

  it('says what is wrong in Chinese', async () => {
    await changeLanguage('zh-CN');
    render(<Harness initial="a||" onSave={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('公式须为含 SettingValue 与 CurrentValue 的 JSON，或以 || 分隔的两个键')).toBeTruthy();
  });

  it('reads and writes the forms the shared rule accepts', () => {
    expect(formulaStyleOf('')).toBe('none');
    expect(formulaStyleOf('{"SettingValue":"a","CurrentValue":"b"}')).toBe('json');
    expect(formulaStyleOf('a || b')).toBe('text');
    expect(formulaStyleOf('{"SettingValue":"a"}')).toBe('raw');
    expect(isValidFormula(composeFormula('json', 'a', 'b'))).toBe(true);
    expect(isValidFormula(composeFormula('text', 'a', ''))).toBe(false);
  });
});
