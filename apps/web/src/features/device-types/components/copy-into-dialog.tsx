/**
 * Filling a type from another (Type/Copy over an existing type): offered by an empty workbench
 * tab. The source defaults to the type's parent, since a sub-type does not inherit its parent's
 * parts; the copy replaces this type's parts and templates (its images and firmware stay).
 */
import { useState } from 'react';
import { Alert, App, Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { useDeviceTypes } from '../../../lib/common-params';
import { errorMessage } from '../../../lib/form-errors';
import { useCopyType } from '../api/device-types-api';

export function CopyIntoDialog({
  typeId,
  typeName,
  parentId,
  open,
  onClose,
}: {
  typeId: number;
  typeName: string;
  parentId: number | undefined;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const { data: types = [] } = useDeviceTypes();
  const copy = useCopyType();
  const [problem, setProblem] = useState<string>();
  const [form] = Form.useForm<{ SourceId?: number }>();
  const others = types.filter((type) => type.Id !== typeId).map((type) => ({ value: type.Id, label: type.TypeName }));
  return (
    <Modal
      open={open}
      title={t('workbench.copyIntoTitle', { name: typeName })}
      okText={t('deviceTypes.copy')}
      cancelText={t('common.cancel')}
      onOk={() => {
        form.submit();
      }}
      onCancel={onClose}
      confirmLoading={copy.isPending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        name="copy-into-type"
        initialValues={{ SourceId: parentId && parentId > 0 ? parentId : undefined }}
        onFinish={(values) => {
          setProblem(undefined);
          copy.mutateAsync({ ctx, body: { SourceId: values.SourceId ?? 0, TargetId: typeId } }).then(
            (response) => {
              void message.success(response.message);
              onClose();
            },
            (error: unknown) => {
              setProblem(errorMessage(error));
            },
          );
        }}
      >
        <Form.Item name="SourceId" label={t('workbench.copyFrom')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select options={others} showSearch={{ optionFilterProp: 'label' }} placeholder={t('deviceTypes.pickType')} />
        </Form.Item>
        <Alert type="warning" showIcon title={t('workbench.copyIntoWarning')} style={{ marginBottom: 12 }} />
        {problem && <Alert type="error" showIcon role="alert" title={problem} />}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
