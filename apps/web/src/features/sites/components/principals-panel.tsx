/** The people responsible for a project, station or device (Name, mainland mobile), editable by users who may manage projects. */
import { useState } from "react";
import { App, Button, Form, Input, List, Popconfirm, Space } from "antd";
import {
  DeleteOutlined,
  EditOutlined,
  PhoneOutlined,
  PlusOutlined,
} from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { addPrincipalRequest } from "@sluice/shared/project.schema";
import { applyServerFieldErrors, errorMessage } from "../../../lib/form-errors";
import { zodRules } from "../../../lib/zod-form";
import {
  principalsQueryOptions,
  useRemovePrincipal,
  useSavePrincipal,
  type PrincipalDto,
} from "../api/projects-api";
import { useMayOperate } from "../../../lib/operates";

function PrincipalForm({
  initial,
  onDone,
  kind,
  id,
}: {
  initial?: PrincipalDto;
  onDone: () => void;
  kind: string;
  id: string | number;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ Name: string; Phone: string }>();
  const save = useSavePrincipal(kind, id);
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initial ?? { Name: "", Phone: "" }}
      onFinish={(values) => {
        void (async () => {
          try {
            await save.mutateAsync({ ...values, Id: initial?.Id });
            void message.success(t("sites.actions.saved"));
            onDone();
          } catch (error) {
            if (!applyServerFieldErrors(form, error, ["Name", "Phone"]))
              void message.error(errorMessage(error));
          }
        })();
      }}
      style={{ rowGap: 8 }}
    >
      <Form.Item
        name="Name"
        label={t("sites.principals.name")}
        rules={zodRules(addPrincipalRequest, "Name")}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="Phone"
        label={t("sites.principals.phone")}
        rules={zodRules(addPrincipalRequest, "Phone")}
      >
        <Input autoComplete="off" inputMode="tel" />
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

export function PrincipalsPanel({
  kind,
  id,
}: {
  kind: "project" | "station" | "device";
  id: string | number;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayManage = useMayOperate("project.manage");
  const { data = [], isPending } = useQuery(principalsQueryOptions(kind, id));
  const remove = useRemovePrincipal(kind, id);
  const [editing, setEditing] = useState<PrincipalDto | "new">();
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
          {t("sites.principals.add")}
        </Button>
      )}
      {editing === "new" && (
        <PrincipalForm
          kind={kind}
          id={id}
          onDone={() => {
            setEditing(undefined);
          }}
        />
      )}
      <List
        loading={isPending}
        dataSource={data}
        locale={{ emptyText: t("sites.principals.none") }}
        renderItem={(item) =>
          editing !== "new" && editing?.Id === item.Id ? (
            <List.Item>
              <PrincipalForm
                kind={kind}
                id={id}
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
                          name: item.Name,
                        })}
                        onClick={() => {
                          setEditing(item);
                        }}
                      />,
                      <Popconfirm
                        key="remove"
                        title={t("sites.actions.deleteNamed", {
                          name: item.Name,
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
                            name: item.Name,
                          })}
                        />
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={item.Name}
                description={
                  <a href={`tel:${item.Phone}`}>
                    <PhoneOutlined /> {item.Phone}
                  </a>
                }
              />
            </List.Item>
          )
        }
      />
    </>
  );
}
