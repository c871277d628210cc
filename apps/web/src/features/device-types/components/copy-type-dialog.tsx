/**
 * Copying a type (spec §7 Type/Copy, Type/copyfiles): everything under it into a new type, or
 * over an existing type (whose parts and templates are replaced, its files kept); or only its
 * images and firmware, appended to another type.
 */
import { useState } from 'react';
import { Alert, App, Form, Input, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { name as nameField } from '@sluice/shared/schema-fields';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { useDeviceTypes } from '../../../lib/common-params';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { zodFieldRules } from '../../../lib/zod-form';
import { useCopyType, useCopyTypeFiles, type TypeRow } from '../api/device-types-api';

export type CopyMode = 'copy' | 'files';

interface Values {
  TypeName?: string;
  TargetId?: number;
}

export function CopyTypeDialog({
  source,
  mode,
  onClose,
  onCopied,
}: {
  source: TypeRow | undefined;
  mode: CopyMode;
  onClose: () => void;
  onCopied?: (typeId: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const [form] = Form.useForm<Values>();
  const { data: types = [] } = useDeviceTypes();
  const copy = useCopyType();
  const copyFiles = useCopyTypeFiles();
  const [problem, setProblem] = useState<string>();
  const [target, setTarget] = useState<'new' | 'existing'>(mode === 'files' ? 'existing' : 'new');
  const others = types.filter((type) => type.Id !== source?.Id).map((type) => ({ value: type.Id, label: type.TypeName }));

  const submit = async (values: Values) => {
    if (!source) return;
    setProblem(undefined);
    try {
      const response =
        mode === 'files'
          ? await copyFiles.mutateAsync({ ctx, body: { SourceId: source.Id, TargetId: values.TargetId ?? 0 } })
          : await copy.mutateAsync({
              ctx,
              body:
                target === 'new'
                  ? { SourceId: source.Id, TypeName: values.TypeName }
                  : { SourceId: source.Id, TargetId: values.TargetId },
            });
      void message.success(response.message);
      onCopied?.(response.data.Id);
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(form, error, ['TypeName', 'TargetId'])) setProblem(errorMessage(error));
    }
  };

  const title = source
    ? t(mode === 'files' ? 'deviceTypes.copyFilesTitle' : 'deviceTypes.copyTitle', { name: source.TypeName })
    : '';
  return (
    <Modal
      open={source !== undefined}
      title={title}
      okText={t(mode === 'files' ? 'deviceTypes.copyFiles' : 'deviceTypes.copy')}
      cancelText={t('common.cancel')}
      onOk={() => {
        form.submit();
      }}
      onCancel={onClose}
      confirmLoading={copy.isPending || copyFiles.isPending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        name={`copy-type-${mode}`}
        initialValues={{ TypeName: source ? t('deviceTypes.copyName', { name: source.TypeName }) : '' }}
        onFinish={(values) => void submit(values)}
      >
        {mode === 'copy' && (
          <Form.Item label={t('deviceTypes.copyTo')}>
            <Radio.Group
              value={target}
              onChange={(event) => {
                setTarget(event.target.value as 'new' | 'existing');
              }}
              options={[
                { value: 'new', label: t('deviceTypes.copyToNew') },
                { value: 'existing', label: t('deviceTypes.copyToExisting') },
              ]}
            />
          </Form.Item>
        )}
        {mode === 'copy' && target === 'new' && (
          <Form.Item name="TypeName" label={t('deviceTypes.newTypeName')} rules={zodFieldRules(nameField(64))}>
            <Input autoComplete="off" />
          </Form.Item>
        )}
        {(mode === 'files' || target === 'existing') && (
          <Form.Item
            name="TargetId"
            label={t('deviceTypes.targetType')}
            rules={[{ required: true, message: t('rule.required') }]}
          >
            <Select options={others} showSearch={{ optionFilterProp: 'label' }} placeholder={t('deviceTypes.pickType')} />
          </Form.Item>
        )}
        {mode === 'copy' && target === 'existing' && (
          <Alert type="warning" showIcon title={t('deviceTypes.copyOverWarning')} style={{ marginBottom: 12 }} />
        )}
        {mode === 'files' && <Alert type="info" showIcon title={t('deviceTypes.copyFilesHint')} style={{ marginBottom: 12 }} />}
        {problem && <Alert type="error" showIcon role="alert" title={problem} />}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
