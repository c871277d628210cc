/** /common/app/project and /common/app/station: cards with search and paging; a card opens the home page on it. */
import { useState } from 'react';
import { Input } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../../lib/paths';
import { useMayOperate } from '../../../lib/operates';
import { useGroupId } from '../../../lib/group';
import { projectPageQueryOptions, type ProjectDto, type SiteKind } from '../api/projects-api';
import {
  CARD_PAGE_SIZE,
  CardAction,
  CardGridPage,
  OnlineFilter,
  onlineParam,
  type OnlineChoice,
} from '../../../components/sites/card-grid-page';
import { useConfirmProjectDelete } from '../components/confirm-project-delete';
import { ProjectCard } from '../components/project-card';
import { ProjectFormDialog } from '../components/project-form-dialog';

function SiteListPage({ kind }: { kind: SiteKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const confirmDelete = useConfirmProjectDelete();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [online, setOnline] = useState<OnlineChoice>('all');
  const [editing, setEditing] = useState<ProjectDto | 'new'>();
  const query = useQuery(
    projectPageQueryOptions(g, kind, { PageNo: page, PageSize: CARD_PAGE_SIZE, Search: search, Online: onlineParam(online) }),
  );
  const { data } = query;

  return (
    <CardGridPage
      title={t(kind === 'project' ? 'routes.projects' : 'routes.stations')}
      addLabel={t(kind === 'project' ? 'sites.form.newProject' : 'sites.form.newStation')}
      onAdd={
        mayManage
          ? () => {
              setEditing('new');
            }
          : undefined
      }
      filters={
        <>
          <Input.Search
            allowClear
            style={{ maxWidth: 320 }}
            placeholder={t('sites.list.search')}
            aria-label={t('sites.list.search')}
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
          />
          <OnlineFilter
            value={online}
            onChange={(value) => {
              setOnline(value);
              setPage(1);
            }}
          />
        </>
      }
      total={t('sites.list.total', { count: data?.count ?? 0 })}
      query={query}
      items={data?.data}
      itemKey={(project) => project.Id}
      renderCard={(project) => (
        <ProjectCard
          project={project}
          onOpen={(p) => {
            void navigate(`${HOME_PATH}/${kind}/${String(p.Id)}`);
          }}
          actions={
            mayManage
              ? [
                  <CardAction
                    key="edit"
                    icon={<EditOutlined />}
                    label={t('sites.actions.editNamed', { name: project.Name })}
                    onClick={() => {
                      setEditing(project);
                    }}
                  />,
                  <CardAction
                    key="delete"
                    danger
                    icon={<DeleteOutlined />}
                    label={t('sites.actions.deleteNamed', { name: project.Name })}
                    onClick={() => {
                      confirmDelete(project);
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
      <ProjectFormDialog
        kind={kind}
        open={editing !== undefined}
        editing={editing === 'new' ? undefined : editing}
        onClose={() => {
          setEditing(undefined);
        }}
      />
    </CardGridPage>
  );
}

export function ProjectListPage() {
  return <SiteListPage kind="project" />;
}

export function StationListPage() {
  return <SiteListPage kind="station" />;
}
