/** /sys/areaset: the group's regions, each with a shape drawn on the map (circle, rectangle or polygon). */
import { useEffect, useMemo, useState } from "react";
import {
  App,
  Button,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { regionShape, type RegionShape } from "@sluice/shared/geo.schema";
import { addRegionRequest } from "@sluice/shared/region.schema";
import {
  RegionEditor,
  shapeCenter,
} from "../../../components/map/region-editor";
import { useMapConfig } from "../../../lib/client-config";
import { applyServerFieldErrors, errorMessage } from "../../../lib/form-errors";
import { zodRules } from "../../../lib/zod-form";
import {
  regionsQueryOptions,
  useDeleteRegion,
  useSaveRegion,
  type RegionDto,
} from "../api/areas-api";
import { useGroupId } from "../api/group";

function readShape(text: string): RegionShape | undefined {
  try {
    const parsed = regionShape.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

interface Values {
  Name: string;
  RegionCode?: string;
  ParentId?: number;
}

function RegionDialog({
  editing,
  regions,
  onClose,
}: {
  editing: RegionDto | "new" | undefined;
  regions: RegionDto[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const { config } = useMapConfig();
  const save = useSaveRegion(g);
  const [form] = Form.useForm<Values>();
  const row = editing === "new" ? undefined : editing;
  // The drawn shape, for the region being edited (until something is drawn, the stored one).
  const [drawn, setDrawn] = useState<{
    of: RegionDto | "new" | undefined;
    shape: RegionShape | undefined;
  }>();
  const shape =
    drawn && drawn.of === editing
      ? drawn.shape
      : row
        ? readShape(row.Radius)
        : undefined;
  const setShape = (next: RegionShape | undefined) => {
    setDrawn({ of: editing, shape: next });
  };

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(
      row
        ? {
            Name: row.Name,
            RegionCode: row.RegionCode,
            ParentId: row.ParentId || undefined,
          }
        : {},
    );
  }, [editing, row, form]);

  const submit = async (values: Values) => {
    try {
      const res = await save.mutateAsync({
        Id: row?.Id,
        Name: values.Name,
        RegionCode: values.RegionCode ?? "",
        ParentId: values.ParentId ?? 0,
        Radius: shape ? JSON.stringify(shape) : "",
        Point: shape ? shapeCenter(shape) : "",
      });
      void message.success(res.message || t("sites.actions.saved"));
      onClose();
    } catch (error) {
      if (
        !applyServerFieldErrors(form, error, ["Name", "RegionCode", "ParentId"])
      )
        void message.error(errorMessage(error));
    }
  };

  return (
    <Modal
      title={row ? t("areaSet.edit", { name: row.Name }) : t("areaSet.new")}
      open={editing !== undefined}
      onCancel={onClose}
      width={900}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={save.isPending}
      onOk={() => {
        form.submit();
      }}
      destroyOnHidden
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        name="region-form"
      >
        <Flex gap={12} wrap>
          <Form.Item
            name="Name"
            label={t("areaSet.name")}
            rules={zodRules(addRegionRequest, "Name")}
            style={{ flex: "1 1 200px" }}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="RegionCode"
            label={t("areaSet.code")}
            style={{ flex: "1 1 160px" }}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="ParentId"
            label={t("areaSet.parent")}
            style={{ flex: "1 1 200px" }}
          >
            <Select
              allowClear
              options={regions
                .filter((r) => r.Id !== row?.Id)
                .map((r) => ({ value: r.Id, label: r.Name }))}
            />
          </Form.Item>
        </Flex>
      </Form>
      <Typography.Paragraph type="secondary">
        {t("areaSet.drawHint")}
      </Typography.Paragraph>
      {editing !== undefined && (
        <RegionEditor config={config} shape={shape} onChange={setShape} />
      )}
      <Typography.Paragraph
        style={{ marginTop: 8, marginBottom: 0 }}
        aria-live="polite"
      >
        {shape
          ? t("areaSet.shapeIs", { shape: t(`areaSet.shapes.${shape.type}`) })
          : t("areaSet.noShape")}
      </Typography.Paragraph>
    </Modal>
  );
}

export function AreaSetPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const g = useGroupId();
  const { data = [], isPending } = useQuery(regionsQueryOptions(g));
  const remove = useDeleteRegion(g);
  const [editing, setEditing] = useState<RegionDto | "new">();
  const names = useMemo(() => new Map(data.map((r) => [r.Id, r.Name])), [data]);

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t("routes.areaSet")}
        </Typography.Title>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing("new");
          }}
        >
          {t("areaSet.new")}
        </Button>
      </Flex>
      <Table<RegionDto>
        rowKey="Id"
        loading={isPending}
        dataSource={data}
        scroll={{ x: 720 }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          {
            key: "name",
            title: t("areaSet.name"),
            dataIndex: "Name",
            sorter: (a, b) => a.Name.localeCompare(b.Name),
          },
          { key: "code", title: t("areaSet.code"), dataIndex: "RegionCode" },
          {
            key: "parent",
            title: t("areaSet.parent"),
            render: (_v, r) => names.get(r.ParentId) ?? "—",
          },
          {
            key: "shape",
            title: t("areaSet.shape"),
            render: (_v, r) => {
              const s = readShape(r.Radius);
              return s ? (
                <Tag color="green">{t(`areaSet.shapes.${s.type}`)}</Tag>
              ) : (
                <Tag>{t("areaSet.noShapeShort")}</Tag>
              );
            },
          },
          { key: "point", title: t("areaSet.point"), dataIndex: "Point" },
          {
            key: "actions",
            title: t("recycleBin.actions"),
            render: (_v, r) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t("sites.actions.editNamed", { name: r.Name })}
                  onClick={() => {
                    setEditing(r);
                  }}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t("sites.actions.deleteNamed", { name: r.Name })}
                  onClick={() => {
                    modal.confirm({
                      title: t("sites.actions.deleteNamed", { name: r.Name }),
                      okText: t("sites.actions.delete"),
                      cancelText: t("common.cancel"),
                      okButtonProps: { danger: true },
                      onOk: async () => {
                        try {
                          const res = await remove.mutateAsync(r.Id);
                          void message.success(
                            res.message || t("sites.actions.deleted"),
                          );
                        } catch (error) {
                          void message.error(errorMessage(error));
                        }
                      },
                    });
                  }}
                />
              </Space>
            ),
          },
        ]}
      />
      <RegionDialog
        editing={editing}
        regions={data}
        onClose={() => {
          setEditing(undefined);
        }}
      />
    </Flex>
  );
}
