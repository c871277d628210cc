/** /device/recyclebin: deleted devices with who and when; restore, and purge (administrators, confirmed by name). */
import { useState } from "react";
import { App, Button, Flex, Input, Space, Table, Typography } from "antd";
import { DeleteOutlined, UndoOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../lib/dates";
import { errorMessage } from "../../../lib/form-errors";
import {
  recycleBinQueryOptions,
  usePurgeDevice,
  useRestoreDevice,
  type RecycledDevice,
} from "../api/devices-api";
import { useIsAdmin } from "../api/group";

const PAGE_SIZE = 10;

export function RecycleBinPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const admin = useIsAdmin();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const { data, isPending } = useQuery(
    recycleBinQueryOptions({
      PageNo: page,
      PageSize: PAGE_SIZE,
      Search: search,
    }),
  );
  const restore = useRestoreDevice();
  const purge = usePurgeDevice();

  const doRestore = async (device: RecycledDevice) => {
    try {
      const res = await restore.mutateAsync(device.DeviceSn);
      void message.success(res.message || t("recycleBin.restored"));
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const confirmPurge = (device: RecycledDevice) => {
    modal.confirm({
      title: t("recycleBin.purgeTitle", { name: device.DeviceName }),
      content: t("recycleBin.purgeContent", {
        name: device.DeviceName,
        sn: device.DeviceSn,
      }),
      okText: t("recycleBin.purge"),
      cancelText: t("common.cancel"),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await purge.mutateAsync(device.DeviceSn);
          void message.success(res.message || t("sites.actions.deleted"));
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
        {t("routes.recycleBin")}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t("recycleBin.hint")}
      </Typography.Paragraph>
      <Input.Search
        allowClear
        style={{ maxWidth: 320 }}
        placeholder={t("devices.filters.search")}
        aria-label={t("devices.filters.search")}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <Table<RecycledDevice>
        rowKey="DeviceSn"
        loading={isPending}
        dataSource={data?.rows ?? []}
        scroll={{ x: 900 }}
        locale={{ emptyText: t("recycleBin.empty") }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data?.count ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            key: "name",
            title: t("devices.fields.name"),
            dataIndex: "DeviceName",
          },
          { key: "sn", title: t("devices.fields.sn"), dataIndex: "DeviceSn" },
          {
            key: "project",
            title: t("recycleBin.project"),
            render: (_v, row) => (
              <span>
                {[row.ParentProjectName, row.ProjectName]
                  .filter((n, i, all) => n && all.indexOf(n) === i)
                  .join(" / ") || t("devices.unassigned")}
                {row.ProjectId !== null && !row.ProjectExists && (
                  <Typography.Text type="secondary">
                    {" "}
                    ({t("recycleBin.projectGone")})
                  </Typography.Text>
                )}
              </span>
            ),
          },
          {
            key: "by",
            title: t("recycleBin.deletedBy"),
            dataIndex: "DeletedBy",
          },
          {
            key: "at",
            title: t("recycleBin.deletedAt"),
            render: (_v, row) => formatDateTime(row.DeletedAt),
          },
          {
            key: "actions",
            title: t("recycleBin.actions"),
            render: (_v, row) => (
              <Space>
                <Button
                  size="small"
                  icon={<UndoOutlined />}
                  onClick={() => void doRestore(row)}
                  aria-label={t("recycleBin.restoreNamed", {
                    name: row.DeviceName,
                  })}
                >
                  {t("recycleBin.restore")}
                </Button>
                {admin && (
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t("recycleBin.purgeNamed", {
                      name: row.DeviceName,
                    })}
                    onClick={() => {
                      confirmPurge(row);
                    }}
                  >
                    {t("recycleBin.purge")}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Flex>
  );
}
