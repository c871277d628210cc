/**
 * The console's add and edit dialog: the form starts from `values` each time it opens, Save
 * submits it, the server's message (or "Saved") is said and the dialog closes; server field
 * errors land on their fields, other errors in a message.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyServerFieldErrors, errorMessage } from '../lib/form-errors';

export function FormDialog<Values extends object>({
  title,
  open = true,
  onClose,
  name,
  values,
  fields,
  saving,
  onSubmit,
  children,
}: {
  title: string;
  /** Whether it shows; a dialog mounted only while it shows leaves this out. */
  open?: boolean;
  onClose: () => void;
  /** The form's name (its inputs' ids start with it). */
  name: string;
  /** Where the form starts when it opens, and again whenever another object is given while open. */
  values: Partial<Values>;
  /** The form's fields: server errors naming them are shown on them. */
  fields: readonly string[];
  /** Whether a save is under way, when the caller tracks it (a mutation); otherwise the dialog does. */
  saving?: boolean;
  /** Saves the values and resolves to the server's message, if it said one; throws the error of a failed call. */
  onSubmit: (values: Values) => Promise<unknown>;
  /** The form's Form.Items. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(values);
  }, [open, values, form]);

  const submit = async (submitted: Values) => {
    setSubmitting(true);
    try {
      const said = await onSubmit(submitted);
      void message.success(typeof said === 'string' && said ? said : t('resource.saved'));
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(form, error, fields)) void message.error(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving ?? submitting}
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
