/**
 * The add and edit dialogs of projects, stations and devices: the form starts from `values` each
 * time it opens, Save submits it, the server's message (or "Saved") is said and the dialog closes;
 * server field errors land on their fields, other errors in a message.
 */
import { useEffect, type ReactNode } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { anyText, optional } from '@sluice/shared/rules';
import { optionalPosition } from '@sluice/shared/geo.schema';
import { applyServerFieldErrors, errorMessage } from '../../lib/form-errors';
import { zodFieldRules } from '../../lib/zod-form';
import { AreaCascader } from './area-cascader';
import { PositionInput } from './position-input';

export function SiteFormDialog<Values extends object>({
  title,
  open,
  onClose,
  name,
  values,
  fields,
  saving,
  onSubmit,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  /** The form's name (its inputs' ids start with it). */
  name: string;
  /** Where the form starts when it opens, and again whenever another object is given while open. */
  values: Partial<Values>;
  /** The form's fields: server errors naming them are shown on them. */
  fields: readonly string[];
  saving: boolean;
  /** Saves the values and resolves to the server's message; throws the error of a failed call. */
  onSubmit: (values: Values) => Promise<string | undefined>;
  /** The form's Form.Items. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(values);
  }, [open, values, form]);

  const submit = async (submitted: Values) => {
    try {
      const said = await onSubmit(submitted);
      void message.success(said || t('sites.actions.saved'));
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(form, error, fields)) void message.error(errorMessage(error));
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => {
        form.submit();
      }}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={(submitted) => void submit(submitted)} name={name}>
        {children}
      </Form>
    </Modal>
  );
}

/** Where a place is: its area, address and position (longitude,latitude), picked on a map or typed. */
export function LocationFields({ positionHint }: { positionHint?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="AreaId" label={t('sites.fields.area')}>
        <AreaCascader />
      </Form.Item>
      <Form.Item name="Address" label={t('sites.fields.address')} rules={zodFieldRules(optional(anyText(0, 200)))}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="Position" label={t('sites.fields.position')} extra={positionHint} rules={zodFieldRules(optionalPosition)}>
        <PositionInput />
      </Form.Item>
    </>
  );
}
