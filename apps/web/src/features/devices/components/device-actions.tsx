/** Edit, migrate and delete (to the recycle bin, confirmed) for a device, with their dialogs. */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupId } from '../../../lib/group';
import { useDeleteDevice, type DeviceDto } from '../api/devices-api';
import { useConfirmDelete } from '../../../components/sites/confirm-delete';
import { DeviceFormDialog } from './device-form-dialog';
import { MigrateDialog } from './migrate-dialog';

export interface DeviceActions {
  edit: (device: DeviceDto) => void;
  migrate: (device: DeviceDto) => void;
  remove: (device: DeviceDto, after?: () => void) => void;
  dialogs: ReactNode;
}

export function useDeviceActions(): DeviceActions {
  const { t } = useTranslation();
  const confirmDelete = useConfirmDelete();
  const g = useGroupId();
  const del = useDeleteDevice(g);
  const [editing, setEditing] = useState<DeviceDto>();
  const [migrating, setMigrating] = useState<DeviceDto>();

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
    </>
  );
  return { edit: setEditing, migrate: setMigrating, remove, dialogs };
}
