/** Edit, migrate and delete (to the recycle bin, confirmed) for a device, with their dialogs. */
import { useState, type ReactNode } from "react";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../lib/form-errors";
import { useGroupId } from "../api/group";
import { useDeleteDevice, type DeviceDto } from "../api/devices-api";
import { DeviceFormDialog } from "./device-form-dialog";
import { MigrateDialog } from "./migrate-dialog";

export interface DeviceActions {
  edit: (device: DeviceDto) => void;
  migrate: (device: DeviceDto) => void;
  remove: (device: DeviceDto, after?: () => void) => void;
  dialogs: ReactNode;
}

export function useDeviceActions(): DeviceActions {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const g = useGroupId();
  const del = useDeleteDevice(g);
  const [editing, setEditing] = useState<DeviceDto>();
  const [migrating, setMigrating] = useState<DeviceDto>();

  const remove = (device: DeviceDto, after?: () => void) => {
    modal.confirm({
      title: t("devices.delete.title", { name: device.DeviceName }),
      content: t("devices.delete.content"),
      okText: t("sites.actions.delete"),
      cancelText: t("common.cancel"),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await del.mutateAsync(device.DeviceSn);
          void message.success(res.message || t("sites.actions.deleted"));
          after?.();
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
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
