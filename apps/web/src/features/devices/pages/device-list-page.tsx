/** /common/app/device: device cards with a hover popover; search and filters by project, station, type and state. */
import { useMemo, useState } from 'react';
import { Input, Select } from 'antd';
import { DeleteOutlined, EditOutlined, SwapOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../../lib/paths';
import { useMayOperate } from '../../../lib/operates';
import { devicePageQueryOptions } from '../api/devices-api';
import { useGroupId } from '../../../lib/group';
import { useAllProjects, useDeviceTypeRefs } from '../../../lib/sites';
import {
  CARD_PAGE_SIZE,
  CardAction,
  CardGridPage,
  OnlineFilter,
  onlineParam,
  type OnlineChoice,
} from '../../../components/sites/card-grid-page';
import { useDeviceActions } from '../components/device-actions';
import { DeviceCard } from '../components/device-card';
import { DeviceFormDialog } from '../components/device-form-dialog';

export function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const types = useDeviceTypeRefs();
  const sites = useAllProjects(g);
  const actions = useDeviceActions();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [projectId, setProjectId] = useState<number>();
  const [stationId, setStationId] = useState<number>();
  const [typeId, setTypeId] = useState<number>();
  const [online, setOnline] = useState<OnlineChoice>('all');
  const [adding, setAdding] = useState(false);
  const query = useQuery(
    devicePageQueryOptions(g, {
      PageNo: page,
      PageSize: CARD_PAGE_SIZE,
      Search: search,
      ProjectId: stationId ?? projectId,
      TypeId: typeId,
      Online: onlineParam(online),
    }),
  );
  const { data } = query;

  const projects = useMemo(
    () => (sites.data ?? []).filter((s) => s.ProjectKind === 'project').map((s) => ({ value: s.Id, label: s.Name })),
    [sites.data],
  );
  const stations = useMemo(
    () =>
      (sites.data ?? [])
        .filter((s) => s.ProjectKind === 'station' && (projectId === undefined || s.ParentId === projectId))
        .map((s) => ({ value: s.Id, label: s.Name })),
    [sites.data, projectId],
  );
  const typeOptions = useMemo(() => (types.data ?? []).map((type) => ({ value: type.Id, label: type.TypeName })), [types.data]);
  const first = () => {
    setPage(1);
  };

  return (
    <CardGridPage
      title={t('routes.devices')}
      addLabel={t('devices.form.new')}
      onAdd={
        mayManage
          ? () => {
              setAdding(true);
            }
          : undefined
      }
      filtersLabel={t('devices.filters.label')}
      filters={
        <>
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('devices.filters.search')}
            aria-label={t('devices.filters.search')}
            onSearch={(value) => {
              setSearch(value);
              first();
            }}
          />
          <Select
            allowClear
            style={{ width: 180 }}
            placeholder={t('devices.filters.project')}
            aria-label={t('devices.filters.project')}
            options={projects}
            value={projectId}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={(value: number | undefined) => {
              setProjectId(value);
              setStationId(undefined);
              first();
            }}
          />
          <Select
            allowClear
            style={{ width: 180 }}
            placeholder={t('devices.filters.station')}
            aria-label={t('devices.filters.station')}
            options={stations}
            value={stationId}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={(value: number | undefined) => {
              setStationId(value);
              first();
            }}
          />
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('devices.filters.type')}
            aria-label={t('devices.filters.type')}
            options={typeOptions}
            value={typeId}
            notFoundContent={t('devices.filters.noTypes')}
            onChange={(value: number | undefined) => {
              setTypeId(value);
              first();
            }}
          />
          <OnlineFilter
            value={online}
            onChange={(value) => {
              setOnline(value);
              first();
            }}
          />
        </>
      }
      total={t('devices.total', { count: data?.count ?? 0 })}
      query={query}
      items={data?.rows}
      itemKey={(device) => device.DeviceSn}
      renderCard={(device) => (
        <DeviceCard
          device={device}
          types={types.data}
          onOpen={(d) => {
            void navigate(`${HOME_PATH}/device/${d.DeviceSn}`);
          }}
          actions={
            mayManage
              ? [
                  <CardAction
                    key="edit"
                    icon={<EditOutlined />}
                    label={t('sites.actions.editNamed', { name: device.DeviceName })}
                    onClick={() => {
                      actions.edit(device);
                    }}
                  />,
                  <CardAction
                    key="migrate"
                    icon={<SwapOutlined />}
                    label={t('devices.migrate.named', { name: device.DeviceName })}
                    onClick={() => {
                      actions.migrate(device);
                    }}
                  />,
                  <CardAction
                    key="delete"
                    danger
                    icon={<DeleteOutlined />}
                    label={t('sites.actions.deleteNamed', { name: device.DeviceName })}
                    onClick={() => {
                      actions.remove(device);
                    }}
                  />,
                ]
              : undefined
          }
        />
      )}
      page={page}
      count={data?.count ?? 0}
      onPage={setPage}
    >
      <DeviceFormDialog
        open={adding}
        projectId={stationId ?? projectId}
        onClose={() => {
          setAdding(false);
        }}
      />
      {actions.dialogs}
    </CardGridPage>
  );
}
