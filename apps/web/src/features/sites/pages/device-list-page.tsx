/** /common/app/device: device cards with a hover popover; search and filters by project, station, type and state. */
import { useMemo, useState } from "react";
import {
  Button,
  Col,
  Empty,
  Flex,
  Input,
  Pagination,
  Row,
  Segmented,
  Select,
  Skeleton,
  Typography,
} from "antd";
import {
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  SwapOutlined,
} from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { HOME_PATH } from "../../../lib/paths";
import { devicePageQueryOptions, useDeviceTypes } from "../api/devices-api";
import { useGroupId } from "../api/group";
import { useAllProjects } from "../api/projects-api";
import { useDeviceActions } from "../components/device-actions";
import { DeviceCard } from "../components/device-card";
import { DeviceFormDialog } from "../components/device-form-dialog";
import { useMayOperate } from "../../../lib/operates";

const PAGE_SIZE = 12;

export function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const g = useGroupId();
  const mayManage = useMayOperate("device.manage");
  const types = useDeviceTypes();
  const sites = useAllProjects(g);
  const actions = useDeviceActions();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [projectId, setProjectId] = useState<number>();
  const [stationId, setStationId] = useState<number>();
  const [typeId, setTypeId] = useState<number>();
  const [online, setOnline] = useState<"all" | "1" | "0">("all");
  const [adding, setAdding] = useState(false);
  const { data, isPending } = useQuery(
    devicePageQueryOptions(g, {
      PageNo: page,
      PageSize: PAGE_SIZE,
      Search: search,
      ProjectId: stationId ?? projectId,
      TypeId: typeId,
      Online: online === "all" ? undefined : Number(online),
    }),
  );

  const projects = useMemo(
    () =>
      (sites.data ?? [])
        .filter((s) => s.ProjectKind === "project")
        .map((s) => ({ value: s.Id, label: s.Name })),
    [sites.data],
  );
  const stations = useMemo(
    () =>
      (sites.data ?? [])
        .filter(
          (s) =>
            s.ProjectKind === "station" &&
            (projectId === undefined || s.ParentId === projectId),
        )
        .map((s) => ({ value: s.Id, label: s.Name })),
    [sites.data, projectId],
  );
  const typeOptions = useMemo(() => {
    const known = (types.data ?? []).map((type) => ({
      value: type.Id,
      label: type.TypeName,
    }));
    return known;
  }, [types.data]);
  const first = () => {
    setPage(1);
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t("routes.devices")}
        </Typography.Title>
        {mayManage && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setAdding(true);
            }}
          >
            {t("devices.form.new")}
          </Button>
        )}
      </Flex>
      <Flex
        gap={12}
        wrap
        align="center"
        role="search"
        aria-label={t("devices.filters.label")}
      >
        <Input.Search
          allowClear
          style={{ width: 240 }}
          placeholder={t("devices.filters.search")}
          aria-label={t("devices.filters.search")}
          onSearch={(value) => {
            setSearch(value);
            first();
          }}
        />
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={t("devices.filters.project")}
          aria-label={t("devices.filters.project")}
          options={projects}
          value={projectId}
          showSearch={{ optionFilterProp: "label" }}
          onChange={(value: number | undefined) => {
            setProjectId(value);
            setStationId(undefined);
            first();
          }}
        />
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={t("devices.filters.station")}
          aria-label={t("devices.filters.station")}
          options={stations}
          value={stationId}
          showSearch={{ optionFilterProp: "label" }}
          onChange={(value: number | undefined) => {
            setStationId(value);
            first();
          }}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t("devices.filters.type")}
          aria-label={t("devices.filters.type")}
          options={typeOptions}
          value={typeId}
          notFoundContent={t("devices.filters.noTypes")}
          onChange={(value: number | undefined) => {
            setTypeId(value);
            first();
          }}
        />
        <Segmented<"all" | "1" | "0">
          aria-label={t("devices.filters.state")}
          value={online}
          onChange={(value) => {
            setOnline(value);
            first();
          }}
          options={[
            { value: "all", label: t("devices.filters.all") },
            { value: "1", label: t("map.state.online") },
            { value: "0", label: t("map.state.offline") },
          ]}
        />
        <Typography.Text type="secondary" aria-live="polite">
          {t("devices.total", { count: data?.count ?? 0 })}
        </Typography.Text>
      </Flex>
      {isPending ? (
        <Skeleton active />
      ) : (data?.rows.length ?? 0) === 0 ? (
        <Empty description={t("common.empty")} />
      ) : (
        <Row gutter={[16, 16]} role="list">
          {data?.rows.map((device) => (
            <Col
              key={device.DeviceSn}
              xs={24}
              sm={12}
              lg={8}
              xxl={6}
              role="listitem"
            >
              <DeviceCard
                device={device}
                types={types.data}
                onOpen={(d) => {
                  void navigate(`${HOME_PATH}/device/${d.DeviceSn}`);
                }}
                actions={
                  mayManage
                    ? [
                        <Button
                          key="edit"
                          type="text"
                          size="small"
                          icon={<EditOutlined />}
                          aria-label={t("sites.actions.editNamed", {
                            name: device.DeviceName,
                          })}
                          onClick={(event) => {
                            event.stopPropagation();
                            actions.edit(device);
                          }}
                        />,
                        <Button
                          key="migrate"
                          type="text"
                          size="small"
                          icon={<SwapOutlined />}
                          aria-label={t("devices.migrate.named", {
                            name: device.DeviceName,
                          })}
                          onClick={(event) => {
                            event.stopPropagation();
                            actions.migrate(device);
                          }}
                        />,
                        <Button
                          key="delete"
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t("sites.actions.deleteNamed", {
                            name: device.DeviceName,
                          })}
                          onClick={(event) => {
                            event.stopPropagation();
                            actions.remove(device);
                          }}
                        />,
                      ]
                    : undefined
                }
              />
            </Col>
          ))}
        </Row>
      )}
      <Pagination
        align="end"
        current={page}
        pageSize={PAGE_SIZE}
        total={data?.count ?? 0}
        onChange={setPage}
        showSizeChanger={false}
        hideOnSinglePage
      />
      <DeviceFormDialog
        open={adding}
        projectId={stationId ?? projectId}
        onClose={() => {
          setAdding(false);
        }}
      />
      {actions.dialogs}
    </Flex>
  );
}
