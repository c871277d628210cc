import { useMemo, useState } from 'react';
import { Alert, App, Button, Empty, Flex, Result, Select, Spin, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GRANT_OPERATE, PROJECT_TYPE, type RoleProjectDto } from '@sluice/shared/project.schema';
import type { RoleDto } from '@sluice/shared/role.schema';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/form-errors';
import type { MessageKey } from '../../../lib/i18n';
import { groupProjectsQueryOptions, roleProjectsQueryOptions, useSaveRoleProjects, type ProjectNode } from '../api/roles-api';

type Row = ProjectNode & { children?: Row[] };

const KIND_LABEL: Record<number, MessageKey> = {
  [PROJECT_TYPE.client]: 'roles.kindClient',
  [PROJECT_TYPE.project]: 'roles.kindProject',
  [PROJECT_TYPE.station]: 'roles.kindStation',
};

function toTree(nodes: readonly ProjectNode[]): Row[] {
  const rows = new Map<number, Row>(nodes.map((node) => [node.Id, { ...node }]));
  const roots: Row[] = [];
  for (const row of rows.values()) {
    const parent = row.ParentId !== row.Id ? rows.get(row.ParentId) : undefined;
    if (parent) (parent.children ??= []).push(row);
    else roots.push(row);
  }
  return roots;
}

function ProjectsEditor({
  role,
  projects,
  grants,
  readOnly,
}: {
  role: RoleDto;
  projects: ProjectNode[];
  grants: RoleProjectDto[];
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const save = useSaveRoleProjects(ctx);
  const rows = useMemo(() => toTree(projects), [projects]);
  const initial = useMemo(() => new Map(grants.map((grant) => [grant.ProjectId, grant.Operate])), [grants]);
  const [picked, setPicked] = useState<Map<number, number>>(initial);
  const dirty = picked.size !== initial.size || [...picked].some(([id, operate]) => initial.get(id) !== operate);

  const columns: TableColumnsType<Row> = [
    {
      key: 'Name',
      title: t('roles.projectName'),
      render: (_value, row) => (
        <Flex gap={6} align="center" wrap>
          {row.Name}
          {KIND_LABEL[row.ProjectType] && <Tag>{t(KIND_LABEL[row.ProjectType] ?? 'roles.kindProject')}</Tag>}
        </Flex>
      ),
    },
    {
      key: 'Operate',
      title: t('roles.access'),
      width: 160,
      render: (_value, row) =>
        picked.has(row.Id) ? (
          <Select
            size="small"
            disabled={readOnly}
            aria-label={t('roles.accessOf', { name: row.Name })}
            value={picked.get(row.Id) ?? GRANT_OPERATE.full}
            onChange={(operate: number) => {
              setPicked((map) => new Map(map).set(row.Id, operate));
            }}
            options={[
              { value: GRANT_OPERATE.full, label: t('roles.accessFull') },
              { value: GRANT_OPERATE.viewOnly, label: t('roles.accessView') },
            ]}
            style={{ width: 130 }}
          />
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];

  const onSave = () => {
    save.mutate(
      { RoleId: role.Id, Projects: [...picked].map(([ProjectId, Operate]) => ({ ProjectId, Operate })) },
      {
        onSuccess: (response) => void message.success(response.message),
        onError: (failure) => void message.error(errorMessage(failure)),
      },
    );
  };

  if (projects.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roles.noProjects')} />;
  return (
    <Flex vertical gap={12}>
      {role.IsAdmin && <Alert type="info" showIcon title={t('roles.adminHint')} />}
      <Typography.Text type="secondary">{t('roles.projectsHint')}</Typography.Text>
      <Table<Row>
        rowKey="Id"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          checkStrictly: true,
          selectedRowKeys: [...picked.keys()],
          getCheckboxProps: (row) => ({ 'aria-label': t('roles.grantProject', { name: row.Name }), disabled: readOnly }),
          onSelect: (row, selected) => {
            setPicked((map) => {
              const next = new Map(map);
              if (selected) next.set(row.Id, map.get(row.Id) ?? GRANT_OPERATE.full);
              else next.delete(row.Id);
              return next;
            });
          },
          hideSelectAll: true,
        }}
      />
      {!readOnly && (
        <Flex gap={8} align="center">
          <Button type="primary" onClick={onSave} loading={save.isPending} disabled={!dirty}>
            {t('roles.saveProjects')}
          </Button>
          {dirty && <Tag color="warning">{t('roles.unsaved')}</Tag>}
        </Flex>
      )}
    </Flex>
  );
}

/**
 * The clients, projects and stations a role reaches, each fully or view-only
 * (GET/POST {module}/roleproject, with the group id as the module segment).
 */
export function RoleProjectsTab({ role, readOnly }: { role: RoleDto; readOnly: boolean }) {
  const { t } = useTranslation();
  const ctx = useResourceContext();
  const projects = useQuery(groupProjectsQueryOptions(ctx));
  const grants = useQuery(roleProjectsQueryOptions(ctx, role.Id));
  const error = projects.error ?? grants.error;
  // A server without the role-project calls answers 404 for the route.
  if (isApiError(error) && error.status === 404) {
    return <Result status="info" title={t('roles.projectsUnavailable')} subTitle={t('roles.projectsUnavailableHint')} />;
  }
  if (error) return <Alert type="error" showIcon title={errorMessage(error)} />;
  if (!projects.data || !grants.data) return <Spin />;
  return (
    <ProjectsEditor key={grants.dataUpdatedAt} role={role} projects={projects.data} grants={grants.data} readOnly={readOnly} />
  );
}
