/**
 * /device/recyclebin: deleted devices with who deleted them and when, on the resource table;
 * restore (to the project, or unassigned when it is gone) and purge (administrators, confirmed).
 */
import { useMemo } from 'react';
import { Typography } from 'antd';
import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { purgeDevice, recycleBinResource, restoreDevice, type RecycledDevice } from '../api/recycle-bin-api';

function OriginalSite({ row }: { row: RecycledDevice }) {
  const { t } = useTranslation();
  const names = [row.ParentProjectName, row.ProjectName].filter((n, i, all) => n && all.indexOf(n) === i);
  return (
    <span>
      {names.join(' / ') || t('devices.unassigned')}
      {row.ProjectId !== null && !row.ProjectExists && (
        <Typography.Text type="secondary"> ({t('recycleBin.projectGone')})</Typography.Text>
      )}
    </span>
  );
}

export function RecycleBinPage() {
  const { t } = useTranslation();
  const config = useMemo<ResourceTableConfig<RecycledDevice>>(
    () => ({
      resource: recycleBinResource,
      rowName: (row) => row.DeviceName,
      search: { placeholder: 'devices.filters.search' },
      empty: 'recycleBin.empty',
      columns: [
        { key: 'DeviceName', title: 'devices.fields.name' },
        { key: 'DeviceSn', title: 'devices.fields.sn' },
        { key: 'project', title: 'recycleBin.project', render: (row) => <OriginalSite row={row} /> },
        { key: 'DeletedBy', title: 'recycleBin.deletedBy' },
        { key: 'DeletedAt', title: 'recycleBin.deletedAt', format: 'dateTime' },
      ],
      actions: [
        {
          key: 'restore',
          label: 'recycleBin.restore',
          namedLabel: 'recycleBin.restoreNamed',
          icon: <UndoOutlined aria-hidden />,
          run: (row) => restoreDevice(row.DeviceSn),
          done: 'recycleBin.restored',
        },
        {
          key: 'purge',
          label: 'recycleBin.purge',
          namedLabel: 'recycleBin.purgeNamed',
          icon: <DeleteOutlined aria-hidden />,
          danger: true,
          adminOnly: true,
          confirm: { title: 'recycleBin.purgeTitle', content: 'recycleBin.purgeContent', okText: 'recycleBin.purge' },
          confirmValues: (row) => ({ sn: row.DeviceSn }),
          run: (row) => purgeDevice(row.DeviceSn),
          done: 'sites.actions.deleted',
        },
      ],
    }),
    [],
  );
  return <ResourceTable config={config} title={t('routes.recycleBin')} description={t('recycleBin.hint')} syncUrl />;
}
