/** Moves a device to another project or station (PUT Device/Migration) and shows where it has been. */
import { useState } from 'react';
import { App, Form, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/form-errors';
import { useGroupId } from '../../../lib/group';
import { useMigrateDevice, type DeviceDto } from '../api/devices-api';
import { MigrationHistory } from './migration-history';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';

export function MigrateDialog({ device, onClose }: { device: DeviceDto | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const migrate = useMigrateDevice(g);
  const [target, setTarget] = useState<number>();
  const [problem, setProblem] = useState<string>();

  const close = () => {
    setTarget(undefined);
    setProblem(undefined);
    onClose();
  };

  return (
    <Modal
      title={t('devices.migrate.title', { name: device?.DeviceName ?? '' })}
      open={device !== undefined}
      onCancel={close}
      okText={t('devices.migrate.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: target === undefined }}
      confirmLoading={migrate.isPending}
      destroyOnHidden
      onOk={() => {
        if (!device || target === undefined) return;
        void (async () => {
          try {
            const res = await migrate.mutateAsync({
              DeviceSn: device.DeviceSn,
              ProjectId: target,
            });
            void message.success(res.message || t('sites.actions.saved'));
            close();
          } catch (error) {
            setProblem(errorMessage(error));
          }
        })();
      }}
    >
      {device && (
        <>
          <Typography.Paragraph>
            {t('devices.migrate.current', {
              site:
                [device.ParentProjectName, device.ProjectName].filter((n, i, all) => n && all.indexOf(n) === i).join(' / ') ||
                t('devices.unassigned'),
            })}
          </Typography.Paragraph>
          <Form layout="vertical">
            <Form.Item
              label={t('devices.migrate.target')}
              htmlFor="migrate-target"
              validateStatus={problem ? 'error' : undefined}
              help={problem}
            >
              <SiteTreeSelect id="migrate-target" value={target} exclude={device.ProjectId} onChange={setTarget} />
            </Form.Item>
          </Form>
          <Typography.Title level={5}>{t('devices.migrate.history')}</Typography.Title>
          <MigrationHistory sn={device.DeviceSn} />
        </>
      )}
    </Modal>
  );
}
