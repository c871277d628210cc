/** Adds or edits a device; a new device's MQTT credential is shown once, with a copy button. */
import { useMemo, useState } from 'react';
import { Alert, Descriptions, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { anyText, optional } from '@sluice/shared/rules';
import { addDeviceRequest, dayOrNone } from '@sluice/shared/device.schema';
import { zodFieldRules, zodRules } from '../../../lib/zod-form';
import { useGroupId } from '../../../lib/group';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { useCreateDevice, useSetDeviceType, useUpdateDevice, type CreatedDevice, type DeviceDto } from '../api/devices-api';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';
import { FormDialog } from '../../../components/form-dialog';
import { LocationFields } from '../../../components/sites/location-fields';

interface Values {
  DeviceName: string;
  DeviceNo?: string;
  DeviceDescription?: string;
  TypeId?: number;
  ProjectId?: number;
  AreaId?: string | null;
  Address?: string;
  Position?: string;
  UseTime?: string;
}

const FIELDS = ['DeviceName', 'DeviceNo', 'DeviceDescription', 'TypeId', 'ProjectId', 'AreaId', 'Address', 'Position', 'UseTime'];

/** A credential as code, with a copy button. */
function CopyableCode({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Text
      code
      copyable={{ text, tooltips: [t('devices.credential.copy'), t('devices.credential.copied')] }}
      data-testid={testId}
    >
      {text}
    </Typography.Text>
  );
}

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
              children: <CopyableCode text={created.Credential.Username} />,
            },
            {
              key: 'password',
              label: t('devices.credential.password'),
              children: <CopyableCode text={created.Credential.Password} testId="device-secret" />,
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
}: {
  open: boolean;
  editing?: DeviceDto;
  /** the project or station proposed for a new device */
  projectId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const create = useCreateDevice(g);
  const update = useUpdateDevice(g);
  const setType = useSetDeviceType(g);
  const types = useDeviceTypeRefs();
  const [credential, setCredential] = useState<CreatedDevice>();

  const values = useMemo<Partial<Values>>(
    () =>
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
            UseTime: editing.UseTime,
          }
        : { ProjectId: projectId },
    [editing, projectId],
  );

  const submit = async (submitted: Values) => {
    if (editing) {
      const res = await update.mutateAsync({
        DeviceSn: editing.DeviceSn,
        DeviceName: submitted.DeviceName,
        DeviceNo: submitted.DeviceNo ?? '',
        DeviceDescription: submitted.DeviceDescription ?? '',
        AreaId: submitted.AreaId ?? null,
        Address: submitted.Address ?? '',
        Position: submitted.Position?.trim() ?? '',
        UseTime: submitted.UseTime?.trim() ?? '',
      });
      if ((submitted.TypeId ?? null) !== (editing.TypeId ?? null))
        await setType.mutateAsync({
          DeviceSn: editing.DeviceSn,
          TypeId: submitted.TypeId ?? null,
        });
      return res.message;
    }
    const res = await create.mutateAsync({
      DeviceName: submitted.DeviceName,
      DeviceNo: submitted.DeviceNo || undefined,
      DeviceDescription: submitted.DeviceDescription || undefined,
      TypeId: submitted.TypeId,
      ProjectId: submitted.ProjectId,
      AreaId: submitted.AreaId ?? undefined,
      Address: submitted.Address || undefined,
      Position: submitted.Position?.trim() || undefined,
    });
    // Shown once the form's dialog has closed.
    setCredential(res.data);
    return res.message;
  };

  const typeOptions = (types.data ?? []).map((type) => ({
    value: type.Id,
    label: type.TypeName,
  }));

  return (
    <>
      <FormDialog<Values>
        title={editing ? t('devices.form.edit') : t('devices.form.new')}
        open={open}
        onClose={onClose}
        name="device-form"
        values={values}
        fields={FIELDS}
        saving={create.isPending || update.isPending || setType.isPending}
        onSubmit={submit}
      >
        <Form.Item name="DeviceName" label={t('devices.fields.name')} rules={zodFieldRules(anyText(1, 64))}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="DeviceNo" label={t('devices.fields.no')} rules={zodRules(addDeviceRequest, 'DeviceNo')}>
          <Input autoComplete="off" />
        </Form.Item>
        {!editing && (
          <Form.Item name="ProjectId" label={t('devices.fields.site')}>
            <SiteTreeSelect allowClear />
          </Form.Item>
        )}
        <Form.Item name="TypeId" label={t('devices.fields.type')} extra={editing ? t('devices.form.typeChangeHint') : undefined}>
          {typeOptions.length > 0 ? (
            <Select allowClear options={typeOptions} />
          ) : (
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          )}
        </Form.Item>
        <LocationFields positionHint={t('devices.form.positionHint')} />
        {editing && (
          <Form.Item name="UseTime" label={t('devices.fields.useTime')} rules={zodFieldRules(dayOrNone)}>
            <Input autoComplete="off" placeholder="YYYY-MM-DD" inputMode="numeric" />
          </Form.Item>
        )}
        <Form.Item
          name="DeviceDescription"
          label={t('devices.fields.description')}
          rules={zodFieldRules(optional(anyText(0, 500)))}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
      </FormDialog>
      <CredentialDialog
        created={credential}
        onClose={() => {
          setCredential(undefined);
        }}
      />
    </>
  );
}
