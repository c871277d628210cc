/** Adds or edits a project (under an optional client) or a station (under a project). */
import { useEffect, useMemo } from "react";
import { App, Form, Input, Modal, Select } from "antd";
import { useTranslation } from "react-i18next";
import { anyText } from "@sluice/shared/rules";
import { optionalPosition } from "@sluice/shared/geo.schema";
import { PROJECT_TYPE } from "@sluice/shared/project.schema";
import { applyServerFieldErrors, errorMessage } from "../../../lib/form-errors";
import { zodFieldRules } from "../../../lib/zod-form";
import { regionsQueryOptions } from "../api/areas-api";
import { useGroupId } from "../api/group";
import {
  useAllProjects,
  useSaveProject,
  type ProjectDto,
  type SiteKind,
} from "../api/projects-api";
import { AreaCascader } from "./area-cascader";
import { PositionInput } from "./position-input";
import { useQuery } from "@tanstack/react-query";

interface Values {
  Name: string;
  ParentId?: number;
  RegionId?: number;
  AreaId?: string | null;
  Address?: string;
  Position?: string;
}

const FIELDS = [
  "Name",
  "ParentId",
  "RegionId",
  "AreaId",
  "Address",
  "Position",
];

export function ProjectFormDialog({
  kind,
  open,
  editing,
  parentId,
  onClose,
  onSaved,
}: {
  kind: SiteKind;
  open: boolean;
  /** the node being edited, or undefined to add one */
  editing?: ProjectDto;
  /** the parent proposed for a new station */
  parentId?: number;
  onClose: () => void;
  onSaved?: (saved: ProjectDto) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const [form] = Form.useForm<Values>();
  const save = useSaveProject(g);
  // A station's parent is a project; a project's is an optional client.
  const parents = useAllProjects(g, {
    ProjectType:
      kind === "station" ? PROJECT_TYPE.project : PROJECT_TYPE.client,
  });
  const regions = useQuery(regionsQueryOptions(g));
  const parentOptions = useMemo(
    () => (parents.data ?? []).map((p) => ({ value: p.Id, label: p.Name })),
    [parents.data],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      editing
        ? {
            Name: editing.Name,
            ParentId: editing.ParentId || undefined,
            RegionId: editing.RegionId ?? undefined,
            AreaId: editing.AreaId,
            Address: editing.Address,
            Position: editing.Position,
          }
        : { ParentId: parentId },
    );
  }, [open, editing, parentId, form]);

  const title = editing
    ? t(
        kind === "station"
          ? "sites.form.editStation"
          : "sites.form.editProject",
      )
    : t(kind === "station" ? "sites.form.newStation" : "sites.form.newProject");

  const submit = async (values: Values) => {
    try {
      const body = {
        Name: values.Name,
        ParentId: values.ParentId ?? (editing ? null : undefined),
        RegionId: values.RegionId ?? (editing ? null : undefined),
        AreaId: values.AreaId ?? (editing ? null : undefined),
        Address: values.Address ?? "",
        Position: values.Position?.trim() ?? "",
      };
      const res = editing
        ? await save.mutateAsync({
            ...body,
            Id: editing.Id,
            ParentId:
              editing.ProjectKind === "station"
                ? (values.ParentId ?? editing.ParentId)
                : body.ParentId,
          })
        : await save.mutateAsync({
            ...body,
            ProjectType:
              kind === "station" ? PROJECT_TYPE.station : PROJECT_TYPE.project,
          });
      void message.success(res.message || t("sites.actions.saved"));
      onSaved?.(res.data);
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(form, error, FIELDS))
        void message.error(errorMessage(error));
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
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
        name={`site-form-${kind}`}
      >
        <Form.Item
          name="Name"
          label={t("sites.fields.name")}
          rules={zodFieldRules(anyText(1, 64))}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="ParentId"
          label={
            kind === "station"
              ? t("sites.fields.project")
              : t("sites.fields.client")
          }
          rules={
            kind === "station"
              ? [{ required: true, message: t("rule.required") }]
              : []
          }
        >
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            options={parentOptions}
            loading={parents.isPending}
          />
        </Form.Item>
        <Form.Item name="AreaId" label={t("sites.fields.area")}>
          <AreaCascader />
        </Form.Item>
        <Form.Item
          name="Address"
          label={t("sites.fields.address")}
          rules={zodFieldRules(anyText(0, 200).optional())}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="Position"
          label={t("sites.fields.position")}
          rules={zodFieldRules(optionalPosition)}
        >
          <PositionInput />
        </Form.Item>
        <Form.Item name="RegionId" label={t("sites.fields.region")}>
          <Select
            allowClear
            options={(regions.data ?? []).map((r) => ({
              value: r.Id,
              label: r.Name,
            }))}
            loading={regions.isPending}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
