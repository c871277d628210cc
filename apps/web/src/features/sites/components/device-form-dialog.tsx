/** Adds or edits a device; a new device's MQTT credential is shown once, with a copy button. */
import { useEffect, useState } from 'react';
import { Alert, App, Descriptions, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { anyText, optional } from '@sluice/shared/rules';
import { optionalPosition } from '@sluice/shared/geo.schema';
import { addDeviceRequest } from '@sluice/shared/device.schema';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { zodFieldRules, zodRules } from '../../../lib/zod-form';
import { useGroupId } from '../api/group';
import {
  useCreateDevice,
  useDeviceTypes,
  useSetDeviceType,
  useUpdateDevice,
  type CreatedDevice,
  type DeviceDto,
} from '../api/devices-api';
import { AreaCascader } from './area-cascader';
import { PositionInput } from './position-input';
import { SiteTreeSelect } from './site-tree-select';

interface Values {
  DeviceName: string;
  DeviceNo?: string;
  DeviceDescription?: string;
  TypeId?: number;
  ProjectId?: number;
  AreaId?: string | null;
  Address?: string;
  Position?: string;
}

const FIELDS = ['DeviceName', 'DeviceNo', 'DeviceDescription', 'TypeId', 'ProjectId', 'AreaId', 'Address', 'Position'];

export function CredentialDialog({ created, onClose }: { created: CreatedDevice | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('devices.credential.title')}
      open={created !== undefined}
      onCancel={onClose}
      onOk={onClose}
      okText={t('devices.credential.done')}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('devices.credential.once')} style={{ marginBottom: 16 }} />
      {created && (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            {
              key: 'name',
              label: t('devices.fields.name'),
              children: created.Device.DeviceName,
            },
            {
              key: 'user',
              label: t('devices.credential.username'),
              children: (
                <Typography.Text
                  code
                  copyable={{
                    text: created.Credential.Username,
                    tooltips: [t('devices.credential.copy'), t('devices.credential.copied')],
                  }}
                >
                  {created.Credential.Username}
                </Typography.Text>
              ),
            },
            {
              key: 'password',
              label: t('devices.credential.password'),
              children: (
                <Typography.Text
                  code
                  copyable={{
                    text: created.Credential.Password,
                    tooltips: [t('devices.credential.copy'), t('devices.credential.copied')],
                  }}
                  data-testid="device-secret"
                >
                  {created.Credential.Password}
                </Typography.Text>
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}

export function DeviceFormDialog({
  open,
  editing,
  projectId,
  onClose,
  onCreated,
}: {
  open: boolean;
  editing?: DeviceDto;
  /** the project or station proposed for a new device */
  projectId?: number;
  onClose: () => void;
  onCreated?: (created: CreatedDevice) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const [form] = Form.useForm<Values>();
  const create = useCreateDevice(g);
  const update = useUpdateDevice(g);
  const setType = useSetDeviceType(g);
  const types = useDeviceTypes();
  const [credential, setCredential] = useState<CreatedDevice>();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      editing
        ? {
            DeviceName: editing.DeviceName,
            DeviceNo: editing.DeviceNo,
            DeviceDescription: editing.DeviceDescription,
            TypeId: editing.TypeId ?? undefined,
            ProjectId: editing.ProjectId ?? undefined,
            AreaId: editing.AreaId,
            Address: editing.Address,
            Position: editing.Position,
          }
        : { ProjectId: projectId },
    );
  }, [open, editing, projectId, form]);

  const submit = async (values: Values) => {
    try {
      if (editing) {
        const res = await update.mutateAsync({
          DeviceSn: editing.DeviceSn,
          DeviceName: values.DeviceName,
          DeviceNo: values.DeviceNo ?? '',
          DeviceDescription: values.DeviceDescription ?? '',
          AreaId: values.AreaId ?? null,
          Address: values.Address ?? '',
          Position: values.Position?.trim() ?? '',
        });
        if ((values.TypeId ?? null) !== (editing.TypeId ?? null))
          await setType.mutateAsync({
            DeviceSn: editing.DeviceSn,
            TypeId: values.TypeId ?? null,
          });
        void message.success(res.message || t('sites.actions.saved'));
        onClose();
        return;
      }
      const res = await create.mutateAsync({
        DeviceName: values.DeviceName,
        DeviceNo: values.DeviceNo || undefined,
        DeviceDescription: values.DeviceDescription || undefined,
        TypeId: values.TypeId,
        ProjectId: values.ProjectId,
        AreaId: values.AreaId ?? undefined,
        Address: values.Address || undefined,
        Position: values.Position?.trim() || undefined,
      });
      void message.success(res.message || t('sites.actions.saved'));
      onClose();
      setCredential(res.data);
      onCreated?.(res.data);
    } catch (error) {
      if (!applyServerFieldErrors(form, error, FIELDS)) void message.error(errorMessage(error));
    }
  };

  const typeOptions = (types.data ?? []).map((type) => ({
    value: type.Id,
    label: type.TypeName,
  }));

  return (
    <>
      <Modal
        title={editing ? t('devices.form.edit') : t('devices.form.new')}
        open={open}
        onCancel={onClose}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={create.isPending || update.isPending || setType.isPending}
        onOk={() => {
          form.submit();
        }}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} name="device-form">
          <Form.Item name="DeviceName" label={t('devices.fields.name')} rules={zodFieldRules(anyText(1, 64))}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="DeviceNo" label={t('devices.fields.no')} rules={zodRules(addDeviceRequest, 'DeviceNo')}>
            <Input autoComplete="off" />
          </Form.Item>
          {!editing && (
            <>
              <Form.Item name="ProjectId" label={t('devices.fields.site')}>
                <SiteTreeSelect allowClear />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="TypeId"
            label={t('devices.fields.type')}
            extra={editing ? t('devices.form.typeChangeHint') : undefined}
          >
            {typeOptions.length > 0 ? (
              <Select allowClear options={typeOptions} />
            ) : (
              <InputNumber min={1} precision={0} style={{ width: '100%' }} />
            )}
          </Form.Item>
          <Form.Item name="AreaId" label={t('sites.fields.area')}>
            <AreaCascader />
          </Form.Item>
          <Form.Item name="Address" label={t('sites.fields.address')} rules={zodFieldRules(optional(anyText(0, 200)))}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="Position"
            label={t('sites.fields.position')}
            extra={t('devices.form.positionHint')}
            rules={zodFieldRules(optionalPosition)}
          >
            <PositionInput />
          </Form.Item>
          <Form.Item
            name="DeviceDescription"
            label={t('devices.fields.description')}
            rules={zodFieldRules(optional(anyText(0, 500)))}
          >
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
      <CredentialDialog
        created={credential}
        onClose={() => {
          setCredential(undefined);
        }}
      />
    </>
  );
}
