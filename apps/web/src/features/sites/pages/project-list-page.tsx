/** /common/app/project and /common/app/station: cards with search and paging; a card opens the home page on it. */
import { useState } from "react";
import {
  App,
  Button,
  Col,
  Empty,
  Flex,
  Input,
  Pagination,
  Row,
  Segmented,
  Skeleton,
  Typography,
} from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../lib/form-errors";
import { HOME_PATH } from "../../../lib/paths";
import { useGroupId } from "../api/group";
import {
  projectPageQueryOptions,
  useDeleteProject,
  type ProjectDto,
  type SiteKind,
} from "../api/projects-api";
import { ProjectCard } from "../components/project-card";
import { ProjectFormDialog } from "../components/project-form-dialog";
import { useMayOperate } from "../../../lib/operates";

const PAGE_SIZE = 12;

function SiteListPage({ kind }: { kind: SiteKind }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const g = useGroupId();
  const mayManage = useMayOperate("project.manage");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [online, setOnline] = useState<"all" | "1" | "0">("all");
  const [editing, setEditing] = useState<ProjectDto | "new">();
  const remove = useDeleteProject(g);
  const { data, isPending } = useQuery(
    projectPageQueryOptions(g, kind, {
      PageNo: page,
      PageSize: PAGE_SIZE,
      Search: search,
      Online: online === "all" ? undefined : Number(online),
    }),
  );

  const confirmDelete = (project: ProjectDto) => {
    modal.confirm({
      title: t("sites.actions.deleteNamed", { name: project.Name }),
      content: t("sites.deleteHint"),
      okText: t("sites.actions.delete"),
      cancelText: t("common.cancel"),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await remove.mutateAsync(project.Id);
          void message.success(res.message || t("sites.actions.deleted"));
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t(kind === "project" ? "routes.projects" : "routes.stations")}
        </Typography.Title>
        {mayManage && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing("new");
            }}
          >
            {t(
              kind === "project"
                ? "sites.form.newProject"
                : "sites.form.newStation",
            )}
          </Button>
        )}
      </Flex>
      <Flex gap={12} wrap align="center">
        <Input.Search
          allowClear
          style={{ maxWidth: 320 }}
          placeholder={t("sites.list.search")}
          aria-label={t("sites.list.search")}
          onSearch={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <Segmented<"all" | "1" | "0">
          aria-label={t("devices.filters.state")}
          value={online}
          onChange={(value) => {
            setOnline(value);
            setPage(1);
          }}
          options={[
            { value: "all", label: t("devices.filters.all") },
            { value: "1", label: t("map.state.online") },
            { value: "0", label: t("map.state.offline") },
          ]}
        />
        <Typography.Text type="secondary" aria-live="polite">
          {t("sites.list.total", { count: data?.count ?? 0 })}
        </Typography.Text>
      </Flex>
      {isPending ? (
        <Skeleton active />
      ) : (data?.data.length ?? 0) === 0 ? (
        <Empty description={t("common.empty")} />
      ) : (
        <Row gutter={[16, 16]} role="list">
          {data?.data.map((project) => (
            <Col
              key={project.Id}
              xs={24}
              sm={12}
              lg={8}
              xxl={6}
              role="listitem"
            >
              <ProjectCard
                project={project}
                onOpen={(p) => {
                  void navigate(`${HOME_PATH}/${kind}/${String(p.Id)}`);
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
                            name: project.Name,
                          })}
                          onClick={(event) => {
                            event.stopPropagation();
                            setEditing(project);
                          }}
                        />,
                        <Button
                          key="delete"
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t("sites.actions.deleteNamed", {
                            name: project.Name,
                          })}
                          onClick={(event) => {
                            event.stopPropagation();
                            confirmDelete(project);
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
      <ProjectFormDialog
        kind={kind}
        open={editing !== undefined}
        editing={editing === "new" ? undefined : editing}
        onClose={() => {
          setEditing(undefined);
        }}
      />
    </Flex>
  );
}

export function ProjectListPage() {
  return <SiteListPage kind="project" />;
}

export function StationListPage() {
  return <SiteListPage kind="station" />;
}
