/** A project's extra facts (name and value), editable by users who may manage projects. */
import { useState } from "react";
import { App, Button, Form, Input, List, Popconfirm, Space } from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { anyText } from "@sluice/shared/rules";
import { errorMessage } from "../../../lib/form-errors";
import { zodFieldRules } from "../../../lib/zod-form";
import {
  affiliatesQueryOptions,
  useRemoveAffiliate,
  useSaveAffiliate,
  type AffiliateDto,
} from "../api/projects-api";
import { useMayOperate } from "../../../lib/operates";

function AffiliateForm({
  initial,
  onDone,
  projectId,
}: {
  initial?: AffiliateDto;
  onDone: () => void;
  projectId: number;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveAffiliate(projectId);
  return (
    <Form
      layout="inline"
      initialValues={initial ?? { AffiliateName: "", AffiliateValue: "" }}
      onFinish={(values: { AffiliateName: string; AffiliateValue: string }) => {
        void (async () => {
          try {
            await save.mutateAsync({ ...values, Id: initial?.Id });
            void message.success(t("sites.actions.saved"));
            onDone();
          } catch (error) {
            void message.error(errorMessage(error));
          }
        })();
      }}
      style={{ rowGap: 8 }}
    >
      <Form.Item
        name="AffiliateName"
        label={t("sites.affiliates.name")}
        rules={zodFieldRules(anyText(1, 64))}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="AffiliateValue"
        label={t("sites.affiliates.value")}
        rules={zodFieldRules(anyText(0, 500).optional())}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t("common.save")}
        </Button>
        <Button onClick={onDone}>{t("common.cancel")}</Button>
      </Space>
    </Form>
  );
}

export function AffiliatesPanel({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayManage = useMayOperate("project.manage");
  const { data = [], isPending } = useQuery(affiliatesQueryOptions(projectId));
  const remove = useRemoveAffiliate(projectId);
  const [editing, setEditing] = useState<AffiliateDto | "new">();
  return (
    <>
      {mayManage && editing === undefined && (
        <Button
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing("new");
          }}
          style={{ marginBottom: 12 }}
        >
          {t("sites.affiliates.add")}
        </Button>
      )}
      {editing === "new" && (
        <AffiliateForm
          projectId={projectId}
          onDone={() => {
            setEditing(undefined);
          }}
        />
      )}
      <List
        loading={isPending}
        dataSource={data}
        locale={{ emptyText: t("sites.affiliates.none") }}
        renderItem={(item) =>
          editing !== "new" && editing?.Id === item.Id ? (
            <List.Item>
              <AffiliateForm
                projectId={projectId}
                initial={item}
                onDone={() => {
                  setEditing(undefined);
                }}
              />
            </List.Item>
          ) : (
            <List.Item
              actions={
                mayManage
                  ? [
                      <Button
                        key="edit"
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={t("sites.actions.editNamed", {
                          name: item.AffiliateName,
                        })}
                        onClick={() => {
                          setEditing(item);
                        }}
                      />,
                      <Popconfirm
                        key="remove"
                        title={t("sites.actions.deleteNamed", {
                          name: item.AffiliateName,
                        })}
                        okText={t("sites.actions.delete")}
                        cancelText={t("common.cancel")}
                        onConfirm={() => {
                          void remove.mutateAsync(item.Id).then(
                            () => undefined,
                            (error: unknown) =>
                              void message.error(errorMessage(error)),
                          );
                        }}
                      >
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t("sites.actions.deleteNamed", {
                            name: item.AffiliateName,
                          })}
                        />
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={item.AffiliateName}
                description={item.AffiliateValue || "—"}
              />
            </List.Item>
          )
        }
      />
    </>
  );
}
