/**
 * Edit, migrate, a new MQTT secret (asked first, shown once) and delete (to the recycle bin,
 * confirmed) for a device, with their dialogs.
 */
import { useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroupId } from '../../../lib/group';
import { useDeleteDevice, useResetDeviceSecret, type CreatedDevice, type DeviceDto } from '../api/devices-api';
import { errorMessage } from '../../../lib/form-errors';
import { useConfirmDelete } from '../../../components/sites/confirm-delete';
import { CredentialDialog, DeviceFormDialog } from './device-form-dialog';
import { MigrateDialog } from './migrate-dialog';

export interface DeviceActions {
  edit: (device: DeviceDto) => void;
  migrate: (device: DeviceDto) => void;
  remove: (device: DeviceDto, after?: () => void) => void;
  /** Asks, then issues a new secret and shows it once. */
  newSecret: (device: DeviceDto) => void;
  dialogs: ReactNode;
}

export function useDeviceActions(): DeviceActions {
  const { t } = useTranslation();
  const confirmDelete = useConfirmDelete();
  const g = useGroupId();
  const del = useDeleteDevice(g);
  const [editing, setEditing] = useState<DeviceDto>();
  const [migrating, setMigrating] = useState<DeviceDto>();
  const [issued, setIssued] = useState<CreatedDevice>();
  const reset = useResetDeviceSecret(g);
  const { modal, message } = App.useApp();

  const newSecret = (device: DeviceDto) => {
    modal.confirm({
      title: t('devices.credential.resetTitle', { name: device.DeviceName }),
      content: t('devices.credential.resetContent'),
      okText: t('devices.credential.reset'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await reset.mutateAsync(device.DeviceSn);
          setIssued({ Device: device, Credential: res.data });
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  const remove = (device: DeviceDto, after?: () => void) => {
    confirmDelete({
      title: t('devices.delete.title', { name: device.DeviceName }),
      content: t('devices.delete.content'),
      call: () => del.mutateAsync(device.DeviceSn),
      after,
    });
  };

  const dialogs = (
    <>
      <DeviceFormDialog
        open={editing !== undefined}
        editing={editing}
        onClose={() => {
          setEditing(undefined);
        }}
      />
      <MigrateDialog
        device={migrating}
        onClose={() => {
          setMigrating(undefined);
        }}
      />
      <CredentialDialog
        created={issued}
        onClose={() => {
          setIssued(undefined);
        }}
      />
    </>
  );
  return { edit: setEditing, migrate: setMigrating, remove, newSecret, dialogs };
}
